/**
 * `update` migrations at a protocol change of script generation (§6.12), on a synthetic chain served by the
 * fake node that crosses Athens -> Babylon: a pre-Babylon contract whose single big map is stored with pointer
 * -1 gets its real pointer at the Babylon start level (read from its storage there), a contract whose script
 * the node changes at Babylon gets the new script and one `update` migration, the first Babylon block is
 * parsed with the new script; then a reorg of the migration block reverts all of it.
 */
import { createHash } from 'node:crypto';
import { describeDb } from '@michelscope/db/testing';
import { migrationsOf, scriptUnderProtocol } from '@michelscope/db/read';
import { revertBlock } from '@michelscope/db/write';
import { bigMapKeyHash, scriptHash, type Micheline } from '@michelscope/michelson';
import { b58Encode, PrefixV2 } from '@taquito/utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProtocolRegistry, startIndexer } from '../src/index';
import { blockHash, FakeNode, MAINNET_CHAIN, waitFor } from './fake-node';
import { dumpTables, expectSameTables } from './table-dump';

type Json = Record<string, unknown>;

const ATHENS = 'PsddFKi32cMJ2qPjf43Qv5GDWLDPZb3T3bF6fLKiF5HtvHNU7aP';
const BABYLON = 'PsBabyM1eUXZseaJdmXFApDSBqj8YBfwELoxZHHW77EMcAbbwAS';
const ITHACA = 'Psithaca2MLRFYargivpo7YvUr7wUDqyxrdhC5CQq78mRvimz6A';
const JAKARTA = 'PtJakart2xVj7pYXJBXrqHgd82rdkLey5ZeeGwDgPp9rhQUbSqY';

const digest = (seed: string, n: number) => createHash('sha256').update(seed).digest().subarray(0, n);
const SOURCE = b58Encode(digest('source', 20), PrefixV2.Ed25519PublicKeyHash);
/** The pre-Babylon contract with a big map (its script does not change at Babylon). */
const LEDGER = b58Encode(digest('ledger', 20), PrefixV2.ContractHash);
/** The contract whose script the node changes at Babylon (`parameter nat` → two named entrypoints). */
const COUNTER = b58Encode(digest('counter', 20), PrefixV2.ContractHash);
/** Another pre-Babylon contract with a big map, holding a key LEDGER also holds (same key hash, pointer -1). */
const TWIN = b58Encode(digest('twin', 20), PrefixV2.ContractHash);
/** A contract whose script no migration changes. */
const PLAIN = b58Encode(digest('plain', 20), PrefixV2.ContractHash);
/** The pointers the node gives LEDGER's and TWIN's big maps at Babylon. */
const PTR = 17;
const TWIN_PTR = 18;

const prim = (p: string, ...args: Micheline[]): Micheline => (args.length ? { prim: p, args } : { prim: p });
const str = (s: string): Micheline => ({ string: s });
const int = (n: number): Micheline => ({ int: String(n) });
const BODY = [prim('CDR'), prim('NIL', prim('operation')), prim('PAIR')];
const script = (parameter: Micheline, storage: Micheline) => [
  prim('parameter', parameter),
  prim('storage', storage),
  prim('code', BODY),
];
const LEDGER_CODE = script(
  prim('pair', prim('string'), prim('nat')),
  prim('pair', { prim: 'big_map', args: [prim('string'), prim('nat')], annots: ['%ledger'] }, prim('unit')),
);
const COUNTER_OLD = script(prim('nat'), prim('nat'));
const COUNTER_NEW = script(
  prim('or', { prim: 'nat', annots: ['%set'] }, { prim: 'unit', annots: ['%reset'] }),
  prim('nat'),
);
const PLAIN_CODE = script(prim('unit'), prim('unit'));
const keyHash = (k: string) => bigMapKeyHash(str(k), prim('string'));

let counter = 0;
function manager(kind: string, extra: Json, result: Json): Json {
  return {
    kind,
    source: SOURCE,
    fee: '1000',
    counter: String(++counter),
    gas_limit: '10000',
    storage_limit: '1000',
    ...extra,
    metadata: {
      balance_updates: [],
      operation_result: {
        status: 'applied',
        consumed_gas: '100',
        storage_size: '100',
        paid_storage_size_diff: '0',
        ...result,
      },
    },
  };
}
const origination = (address: string, code: Micheline, storage: Micheline) =>
  manager('origination', { balance: '0', script: { code, storage } }, { originated_contracts: [address] });
const call = (to: string, value: Micheline, result: Json) =>
  manager(
    'transaction',
    { amount: '0', destination: to, parameters: { entrypoint: 'default', value } },
    result,
  );
/** A pre-Babylon call that writes `key` of LEDGER's big map (a `big_map_diff` without action). */
const legacyWrite = (key: string, value: number) =>
  call(LEDGER, prim('Pair', str(key), int(value)), {
    storage: prim('Pair', [], prim('Unit')),
    big_map_diff: [{ key_hash: keyHash(key), key: str(key), value: int(value) }],
  });
/** A Babylon call that writes `key` of LEDGER's big map at its pointer. */
const babylonWrite = (key: string, value: number) =>
  call(LEDGER, prim('Pair', str(key), int(value)), {
    storage: prim('Pair', int(PTR), prim('Unit')),
    big_map_diff: [
      { action: 'update', big_map: String(PTR), key_hash: keyHash(key), key: str(key), value: int(value) },
    ],
  });
const resetCounter = () => call(COUNTER, prim('Right', prim('Unit')), { storage: int(0) });

interface ChainLevel {
  protocol: string;
  ops: Json[];
}

/**
 * Chain of `levels` (index 0 = level 1), branch `branch` from level `fork` on (branch 'a' below it). Block
 * contents are built per level, so two branches with the same contents still differ by hash.
 */
function serve(node: FakeNode, levels: ChainLevel[], branch: string, fork: number): void {
  node.blocks.clear();
  const on = (level: number) => (level < fork ? 'a' : branch);
  const hash = (level: number) => blockHash(`${on(level)}:${level}`);
  levels.forEach((l, i) => {
    const level = i + 1;
    const next = levels[i + 1]?.protocol ?? l.protocol;
    node.blocks.set(level, {
      protocol: l.protocol,
      chain_id: MAINNET_CHAIN,
      hash: hash(level),
      header: {
        level,
        proto: 1,
        predecessor: level === 1 ? blockHash('genesis') : hash(level - 1),
        timestamp: new Date(Date.UTC(2019, 9, 18) + level * 60_000).toISOString().replace('.000Z', 'Z'),
        validation_pass: 4,
        fitness: ['00', '0000000000000001'],
      },
      metadata: { protocol: l.protocol, next_protocol: next },
      operations: [
        [],
        [],
        [],
        l.ops.map((c, j) => ({
          protocol: l.protocol,
          chain_id: MAINNET_CHAIN,
          hash: b58Encode(digest(`${on(level)}:${level}:${j}`, 32), PrefixV2.OperationHash),
          branch: hash(Math.max(1, level - 1)),
          contents: [c],
        })),
      ],
    });
  });
  const babylonStart = levels.findIndex((l) => l.protocol === BABYLON || l.protocol === JAKARTA) + 1;
  node.script = (address, level) => {
    const babylon = babylonStart > 0 && level >= babylonStart;
    if (address === LEDGER)
      return { code: LEDGER_CODE, storage: prim('Pair', babylon ? int(PTR) : [], prim('Unit')) };
    if (address === TWIN)
      return { code: LEDGER_CODE, storage: prim('Pair', babylon ? int(TWIN_PTR) : [], prim('Unit')) };
    if (address === PLAIN) return { code: PLAIN_CODE, storage: prim('Unit') };
    if (address === COUNTER) return { code: babylon ? COUNTER_NEW : COUNTER_OLD, storage: int(0) };
    return undefined;
  };
}

const athens = (...ops: Json[]): ChainLevel => ({ protocol: ATHENS, ops });
const babylon = (...ops: Json[]): ChainLevel => ({ protocol: BABYLON, ops });
/** Levels 1–4: the contracts are originated (LEDGER with key "a" in its literal big map), "b" is written. */
const BEFORE_LEVELS: ChainLevel[] = [
  athens(),
  athens(
    origination(LEDGER, LEDGER_CODE, prim('Pair', [prim('Elt', str('a'), int(1))], prim('Unit'))),
    origination(COUNTER, COUNTER_OLD, int(0)),
    origination(TWIN, LEDGER_CODE, prim('Pair', [prim('Elt', str('b'), int(9))], prim('Unit'))),
  ),
  athens(legacyWrite('b', 2)),
  athens(),
];
const BEFORE = (): ChainLevel[] => [...BEFORE_LEVELS];

const ithaca = (...ops: Json[]): ChainLevel => ({ protocol: ITHACA, ops });
const jakarta = (...ops: Json[]): ChainLevel => ({ protocol: JAKARTA, ops });
/** Ithaca at levels 1–3 (COUNTER and PLAIN originated at 2), Jakarta from level 4 (COUNTER called). */
const JAKARTA_CHAIN: ChainLevel[] = [
  ithaca(),
  ithaca(origination(COUNTER, COUNTER_OLD, int(0)), origination(PLAIN, PLAIN_CODE, prim('Unit'))),
  ithaca(),
  jakarta(resetCounter()),
  jakarta(),
];

// PGlite and PostgreSQL: script migrations written, reverted and resumed after a stop, by each write path.
describeDb('update migrations at a change of script generation', { backends: 'both' }, ({ db }) => {
  let node: FakeNode;
  let running: Array<ReturnType<typeof startIndexer>> = [];
  let lines: string[] = [];
  let n = 0;

  beforeEach(() => {
    node = new FakeNode();
    lines = [];
  });
  afterEach(async () => {
    await Promise.all(running.map((h) => h.stop()));
    running = [];
    await node.stop();
  });

  function start(url: string, network: string) {
    const h = startIndexer({
      migrationProgressEvery: 2,
      db: db(),
      network,
      rpcUrl: url,
      pollIntervalMs: 30,
      startLevel: 1,
      log: (l) => lines.push(l),
      backoff: { initialMs: 50, maxMs: 200 },
    });
    running.push(h);
    return h;
  }
  const storedHash = async (network: string, level: number) =>
    (
      await db()
        .selectFrom('blocks')
        .select('hash')
        .where('network', '=', network)
        .where('level', '=', level)
        .executeTakeFirst()
    )?.hash;
  const reached = (network: string, level: number) => async () =>
    (await storedHash(network, level)) === node.hashAt(level);

  it('re-reads every script at Babylon, re-points the pre-Babylon big map, and a reorg reverts it', async () => {
    const network = `mig${++n}`;
    serve(node, BEFORE(), 'a', 99);
    const url = await node.start();
    start(url, network);
    await waitFor(reached(network, 4), 20_000, 'level 4');
    const before = await dumpTables(db(), network);
    // Pre-Babylon, LEDGER's keys are stored with pointer -1.
    const legacyDiffs = await db()
      .selectFrom('big_map_diffs')
      .select(['ptr', 'key_hash'])
      .where('network', '=', network)
      .where('contract', '=', LEDGER)
      .execute();
    expect(legacyDiffs.map((d) => d.ptr).sort()).toEqual([-1, -1]);

    // Babylon starts at level 5; its first block writes LEDGER's pointer and calls COUNTER's new entrypoint.
    serve(node, [...BEFORE(), babylon(babylonWrite('a', 5), resetCounter()), babylon(), babylon()], 'a', 99);
    await waitFor(reached(network, 7), 20_000, 'level 7');

    const contracts = await db()
      .selectFrom('contracts as c')
      .innerJoin('scripts as s', 's.id', 'c.script_id')
      .select(['c.address', 'c.script_hash', 's.hash', 's.level', 's.entrypoints'])
      .where('c.network', '=', network)
      .orderBy('c.address')
      .execute();
    const byAddress = new Map(contracts.map((c) => [c.address, c]));
    expect(byAddress.get(COUNTER)).toMatchObject({
      script_hash: scriptHash(COUNTER_NEW),
      hash: scriptHash(COUNTER_NEW),
      level: 5,
      entrypoints: ['set', 'reset'],
    });
    expect(byAddress.get(LEDGER)).toMatchObject({ script_hash: scriptHash(LEDGER_CODE), level: 2 });
    // The old script stays (other contracts may use it; the history of versions keeps it).
    const oldScript = await db()
      .selectFrom('scripts')
      .select('level')
      .where('network', '=', network)
      .where('hash', '=', scriptHash(COUNTER_OLD))
      .executeTakeFirst();
    expect(oldScript?.level).toBe(2);

    // One update migration, for the contract whose script changed, in the API's shape.
    expect(await migrationsOf(db(), network, COUNTER)).toEqual([
      {
        level: 5,
        timestamp: expect.any(Date) as unknown,
        hash: null,
        kind: 'update',
        protocol: BABYLON,
        prev_protocol: ATHENS,
      },
    ]);
    expect(await migrationsOf(db(), network, LEDGER)).toEqual([]);
    // the migration keeps the script COUNTER ran before (its code under Athens), the contract has the new one
    expect(await scriptUnderProtocol(db(), network, COUNTER, ATHENS)).toMatchObject({
      migration: 5,
      script: { parameter: prim('nat'), code: BODY },
    });
    expect(await scriptUnderProtocol(db(), network, COUNTER, BABYLON)).toEqual({ migration: null });
    const accounts = await db()
      .selectFrom('accounts')
      .select(['address', 'migrations_count'])
      .where('network', '=', network)
      .where('address', 'in', [COUNTER, LEDGER])
      .orderBy('address')
      .execute();
    expect(Object.fromEntries(accounts.map((a) => [a.address, Number(a.migrations_count)]))).toEqual({
      [COUNTER]: 1,
      [LEDGER]: 0,
    });

    // COUNTER is found by the entrypoints of its new script.
    const doc = await db()
      .selectFrom('search_documents')
      .select('body')
      .where('network', '=', network)
      .where('kind', '=', 'contract')
      .where('key', '=', COUNTER)
      .executeTakeFirstOrThrow();
    expect(doc.body.split(' ')).toEqual(expect.arrayContaining(['set', 'reset']));

    // The first Babylon block was parsed with COUNTER's new script.
    const reset = await db()
      .selectFrom('operations')
      .select('entrypoint')
      .where('network', '=', network)
      .where('destination', '=', COUNTER)
      .where('level', '=', 5)
      .execute();
    expect(reset.map((o) => o.entrypoint)).toEqual(['reset']);

    // LEDGER's pre-Babylon rows moved to its real pointer, which has a big_maps row with its types.
    const diffs = await db()
      .selectFrom('big_map_diffs')
      .select(['ptr', 'level', 'key_hash'])
      .where('network', '=', network)
      .where('contract', '=', LEDGER)
      .orderBy('id')
      .execute();
    expect(diffs).toEqual([
      { ptr: PTR, level: 2, key_hash: keyHash('a') },
      { ptr: PTR, level: 3, key_hash: keyHash('b') },
      { ptr: PTR, level: 5, key_hash: keyHash('a') },
    ]);
    const states = await db()
      .selectFrom('big_map_states')
      .select(['ptr', 'key_hash', 'value', 'count'])
      .where('network', '=', network)
      .where('contract', '=', LEDGER)
      .orderBy('key_hash')
      .execute();
    expect(
      states
        .map((s) => ({ ...s, count: Number(s.count) }))
        .sort((x, y) => (x.key_hash < y.key_hash ? -1 : 1)),
    ).toEqual(
      [
        { ptr: PTR, key_hash: keyHash('a'), value: int(5), count: 1 },
        { ptr: PTR, key_hash: keyHash('b'), value: int(2), count: 0 },
      ].sort((x, y) => (x.key_hash < y.key_hash ? -1 : 1)),
    );
    // TWIN's key "b" (also a key of LEDGER, both at pointer -1 before Babylon) stayed TWIN's, at its pointer.
    const twin = await db()
      .selectFrom('big_map_states')
      .select(['ptr', 'key_hash', 'value', 'count'])
      .where('network', '=', network)
      .where('contract', '=', TWIN)
      .execute();
    expect(twin.map((s) => ({ ...s, count: Number(s.count) }))).toEqual([
      { ptr: TWIN_PTR, key_hash: keyHash('b'), value: int(9), count: 0 },
    ]);
    const bigMap = await db()
      .selectFrom('big_maps')
      .selectAll()
      .where('network', '=', network)
      .where('ptr', '=', PTR)
      .executeTakeFirst();
    expect(bigMap).toMatchObject({
      contract: LEDGER,
      key_type: prim('string'),
      value_type: prim('nat'),
      name: 'ledger',
      level: 5,
    });
    expect(
      lines.some((l) => /protocol migration at level 5: 3 contract scripts re-read, 1 changed/.test(l)),
    ).toBe(true);
    expect(lines.some((l) => /2 pre-Babylon big map\(s\) re-pointed/.test(l))).toBe(true);
    // Progress while re-reading (every 2 contracts here).
    expect(lines.some((l) => /protocol migration at level 5: 2\/3 contract scripts re-read/.test(l))).toBe(
      true,
    );

    // A reorg from level 5: on the new branch Babylon starts at 6, after one more pre-Babylon write.
    const branchB = (): ChainLevel[] => [
      ...BEFORE(),
      athens(legacyWrite('c', 3)),
      babylon(babylonWrite('a', 7), resetCounter()),
      babylon(),
      babylon(),
    ];
    serve(node, branchB(), 'b', 5);
    await waitFor(reached(network, 8), 20_000, 'level 8 of branch b');
    expect(lines.some((l) => /reorg: reverted 3 block\(s\) from level 7 down to 5/.test(l))).toBe(true);

    // The same tables as a clean index of the final chain.
    const clean = `mig${++n}`;
    start(url, clean);
    await waitFor(reached(clean, 8), 20_000, 'clean level 8');
    await Promise.all(running.map((h) => h.stop()));
    running = [];
    expectSameTables(await dumpTables(db(), network), await dumpTables(db(), clean));
    expect(await migrationsOf(db(), network, COUNTER)).toMatchObject([{ level: 6, kind: 'update' }]);

    // Reverting down to level 4 gives back exactly the tables stored before Babylon.
    for (let level = 8; level >= 5; level--) await revertBlock(db(), network, level);
    expectSameTables(await dumpTables(db(), network), before);
  }, 90_000);

  it('at Jakarta, an update migration only for the script that changed, and no big-map re-pointing', async () => {
    const network = `mig${++n}`;
    serve(node, JAKARTA_CHAIN, 'a', 99);
    // The node fails COUNTER's first script request at Jakarta: that request is tried again, not the migration.
    const scriptOf = node.script;
    let failed = false;
    node.script = (address, level) => {
      if (address === COUNTER && level === 4 && !failed) {
        failed = true;
        throw new Error('node busy');
      }
      return scriptOf(address, level);
    };
    start(await node.start(), network);
    await waitFor(reached(network, 5), 20_000, 'level 5');
    const scriptRequests = (a: string) => node.requests.filter((r) => r === `script ${a} 4`).length;
    expect([scriptRequests(COUNTER), scriptRequests(PLAIN)]).toEqual([2, 1]);
    expect(await migrationsOf(db(), network, COUNTER)).toMatchObject([
      { level: 4, kind: 'update', protocol: JAKARTA, prev_protocol: ITHACA },
    ]);
    expect(await migrationsOf(db(), network, PLAIN)).toEqual([]);
    const reset = await db()
      .selectFrom('operations')
      .select('entrypoint')
      .where('network', '=', network)
      .where('destination', '=', COUNTER)
      .where('kind', '=', 'transaction')
      .execute();
    expect(reset.map((o) => o.entrypoint)).toEqual(['reset']);
    const summary = lines.filter((l) =>
      /protocol migration at level 4: \d+ contract scripts re-read/.test(l),
    );
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatch(/2 contract scripts re-read, 1 changed \(update migrations\)$/);
  }, 60_000);

  it('an indexer stopped in the middle of a migration writes none of it, and a restart completes it', async () => {
    const network = `mig${++n}`;
    serve(node, JAKARTA_CHAIN, 'a', 99);
    const scriptOf = node.script;
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let asked = false;
    node.script = async (address, level) => {
      if (address === COUNTER && level === 4 && !asked) {
        asked = true;
        await held;
      }
      return scriptOf(address, level);
    };
    const url = await node.start();
    const first = start(url, network);
    await waitFor(() => asked, 20_000, 'the migration reading scripts');
    await first.stop();
    running = running.filter((h) => h !== first);
    release();
    expect(await storedHash(network, 3)).toBe(node.hashAt(3));
    expect(await storedHash(network, 4)).toBeUndefined();
    const updates = await db()
      .selectFrom('migrations')
      .select('contract')
      .where('network', '=', network)
      .where('kind', '=', 'update')
      .execute();
    expect(updates).toEqual([]);

    start(url, network);
    await waitFor(reached(network, 5), 20_000, 'level 5 after the restart');
    const clean = `mig${++n}`;
    start(url, clean);
    await waitFor(reached(clean, 5), 20_000, 'clean level 5');
    await Promise.all(running.map((h) => h.stop()));
    running = [];
    expectSameTables(await dumpTables(db(), network), await dumpTables(db(), clean));
    expect(await migrationsOf(db(), network, COUNTER)).toMatchObject([{ level: 4, kind: 'update' }]);
  }, 60_000);
});

describe('protocol changes that migrate scripts', () => {
  const registry = new ProtocolRegistry();
  const ITHACA = 'Psithaca2MLRFYargivpo7YvUr7wUDqyxrdhC5CQq78mRvimz6A';
  const JAKARTA = 'PtJakart2xVj7pYXJBXrqHgd82rdkLey5ZeeGwDgPp9rhQUbSqY';
  const KATHMANDU = 'PtKathmankSpLLDALzWw7CGD2j2MtyveTwboEYokqUCP4a1LxMg';
  const CARTHAGE = 'PsCARTHAGazKbHtnKfLzQg3kms52kSRpgnDY982a9oYsSXRLQEb';
  const GENESIS = 'PrihK96nBAFSxVL1GLJTVhu9YnzkMFiBeuJRPA8NwuZVZCE1L6i';
  it('Babylon (with the legacy big maps) and Jakarta only', () => {
    expect(registry.scriptMigration(ATHENS, BABYLON)).toEqual({ legacyBigMaps: true });
    expect(registry.scriptMigration(ITHACA, JAKARTA)).toEqual({ legacyBigMaps: false });
    expect(registry.scriptMigration(BABYLON, CARTHAGE)).toBeNull();
    expect(registry.scriptMigration(JAKARTA, KATHMANDU)).toBeNull();
    expect(registry.scriptMigration(GENESIS, ATHENS)).toBeNull();
    // A protocol the registry does not know runs the newest scripts (a sandbox after genesis: nothing).
    expect(
      registry.scriptMigration(GENESIS, 'ProtoALphaALphaALphaALphaALphaALphaALphaALphaDdp3zK'),
    ).toBeNull();
  });
});
