/**
 * bcdhub's smaller parser tests (../shared/fixtures/bcd-golden/operation-parsers-misc.json) run through our
 * real parser: operation-result parsing (3 cases) through `parseGroup`/`BlockBuilder`/the Babylon era handler,
 * and the storage parsers (Babylon transaction through the Babylon era, Alpha origination through the alpha era
 * of pre-Babylon protocols) with `parseBlockOperations` + `applyBlock` (big-map key states are computed when a
 * block is stored). The 2 lambda-migration cases are covered in
 * packages/michelson/test/helpers.test.ts.
 *
 * Field mapping (theirs -> ours): status -> operations.status; consumed_gas -> operations.consumed_gas;
 * storage_size, paid_storage_size_diff -> same names; destination (account set from originated_contracts) ->
 * operations.destination + the AccountDelta of that address (type, *_count); ticket_updates -> ticketUpdates
 * rows and operations.ticket_updates_count; deffated_storage -> operations.storage; big_map_diffs[] ->
 * big_map_diffs rows as stored by applyBlock {ptr, key_hash, key, value, contract, level, timestamp}; big_map_states[] -> big_map_states rows {ptr, contract, key_hash, key, value, removed,
 * last_update_level, last_update_time, count} (count as the reference stores it: 0 on the first write).
 *
 * Deliberate differences, as documented in test/golden.test.ts:
 * - gas: consumed_gas-only receipts give gas × 1000 milligas (bcdhub × 100, §11.15);
 * - account rows are per-block counters: the account's level/last_action are not compared;
 * protocol_id (a database surrogate id in both) is not compared.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { toMicheline } from '@michelscope/michelson';
import { describeDb } from '@michelscope/db/testing';
import { applyBlock, type BlockData, type ProtocolRecord } from '@michelscope/db/write';
import { parseBlockOperations } from '../src/parse/block';
import { BlockBuilder } from '../src/parse/builder';
import { alphaEra, babylonEra, type EraHandler } from '../src/parse/era';
import { parseGroup } from '../src/parse/operations';
import { buildScript, type ContractInfo } from '../src/parse/scripts';
import { blockHash, SEOUL } from './fake-node';

const SHARED = path.resolve(__dirname, '../../../../shared/fixtures');
const GOLDEN = path.join(SHARED, 'bcd-golden/operation-parsers-misc.json');
const hasShared = existsSync(GOLDEN);
if (!hasShared) console.warn(`[golden-misc] ${GOLDEN} is absent: bcdhub result/storage parser cases skipped`);
if (!hasShared) it.skip('bcdhub golden cases (../shared/fixtures/bcd-golden absent)', () => {});

interface Case {
  name: string;
  source: string;
  input: Record<string, unknown>;
  expected: Record<string, unknown>;
}
interface ExpAccount {
  address: string;
  type: string;
  operations_count: number;
  migrations_count: number;
  events_count: number;
  ticket_updates_count: number;
}
interface ExpDiff {
  ptr: number;
  key_hash: string;
  key: unknown;
  value: unknown;
  level: number;
  contract: string;
  timestamp: string | null;
}
interface ExpState {
  ptr: number;
  contract: string;
  key_hash: string;
  key: unknown;
  value: unknown;
  removed: boolean;
  last_update_level: number;
  last_update_time: string | null;
  count: number;
}

const cases: Case[] = hasShared ? (JSON.parse(readFileSync(GOLDEN, 'utf8')) as Case[]) : [];
const bySource = (prefix: string) => cases.filter((c) => c.source.startsWith(prefix));
const load = (rel: string): unknown => JSON.parse(readFileSync(path.join(SHARED, rel), 'utf8'));

const GROUP_HASH = 'ooGo1denMiscCaseHashForParsersTestxxxxxxxxxxxxxxxxx';
const SOURCE = 'tz1TEZtYnuLiZLdA6c7JysAUJcHMrogu4Cpr';
/** A minimal script for the origination wrapper of result test 3 (the fragment has only the receipt). */
const UNIT_SCRIPT = {
  code: [
    { prim: 'parameter', args: [{ prim: 'unit' }] },
    { prim: 'storage', args: [{ prim: 'unit' }] },
    {
      prim: 'code',
      args: [[{ prim: 'CDR' }, { prim: 'NIL', args: [{ prim: 'operation' }] }, { prim: 'PAIR' }]],
    },
  ],
  storage: { prim: 'Unit' },
};

/**
 * The operation's timestamp given to the parser; Go's zero time (`null`: not set by the test) becomes a fixed
 * instant, and "2018-06-30T00:00:00 (Go time.Local)" that wall-clock time in UTC. Diff/state times are the
 * ones propagated from it.
 */
const goTime = (t: string | null): Date =>
  new Date(t === null ? '2020-01-01T00:00:00Z' : `${t.replace(/ \(.*\)$/, '')}Z`);

const ctxFor = (
  level: number,
  timestamp: Date,
  known: Map<string, ContractInfo>,
  era: EraHandler = babylonEra,
) => ({
  level,
  timestamp,
  costPerByte: 1000,
  era,
  contract: (a: string) => known.get(a),
  constant: () => undefined,
});

// ---------------------------------------------------------------- operation result (result_test.go)

it
  .skipIf(!hasShared)
  .each(bySource('internal/parsers/operations/result_test.go').map((c) => [c.name, c] as const))(
  'operation result %s',
  (_name, c) => {
    const fragment = load(c.input.file as string) as {
      result: Record<string, unknown>;
      balance_updates?: unknown[];
    };
    const result = fragment.result;
    // The Go test parses a bare result: we wrap it in the content kind it belongs to (originated_contracts ->
    // origination, else a transaction between the implicit accounts of its balance updates).
    const originates = Array.isArray(result.originated_contracts);
    const common = { source: SOURCE, fee: '0', counter: '1', gas_limit: '0', storage_limit: '0' };
    const content = originates
      ? {
          kind: 'origination',
          ...common,
          balance: '0',
          script: UNIT_SCRIPT,
          metadata: { operation_result: result },
        }
      : {
          kind: 'transaction',
          ...common,
          amount: '0',
          destination: 'tz1Y8zdtVe2wWe7QdNTnAdwBceqYBCdA3Jj8',
          metadata: { operation_result: result },
        };
    const b = new BlockBuilder(ctxFor(1, new Date(0), new Map()));
    parseGroup(b, { hash: GROUP_HASH, contents: [content] }, c.name);
    const data = b.data;
    expect(data.operations).toHaveLength(1);
    const o = data.operations[0]!;
    const e = c.expected as {
      status: string;
      consumed_gas: number;
      storage_size: number;
      paid_storage_size_diff: number;
      destination: ExpAccount | null;
      ticket_updates: unknown[];
    };
    expect({
      status: o.status,
      // documented difference: gas units × 1000 (bcdhub × 100)
      consumed_gas: o.consumed_gas / 10,
      storage_size: o.storage_size,
      paid_storage_size_diff: o.paid_storage_size_diff,
      ticket_updates: data.ticketUpdates,
      ticket_updates_count: o.ticket_updates_count,
    }).toEqual({
      status: e.status,
      consumed_gas: e.consumed_gas,
      storage_size: e.storage_size,
      paid_storage_size_diff: e.paid_storage_size_diff,
      ticket_updates: e.ticket_updates,
      ticket_updates_count: e.ticket_updates.length,
    });
    // destination: set from originated_contracts only (a transaction keeps its content's destination and
    // creates no contract account).
    const contractAccounts = data.accounts.filter((a) => a.address.startsWith('KT1'));
    if (e.destination === null) {
      expect(contractAccounts).toEqual([]);
      expect(o.destination).toBe((content as { destination?: string }).destination ?? null);
    } else {
      expect(o.destination).toBe(e.destination.address);
      const a = contractAccounts.find((x) => x.address === e.destination!.address);
      expect(
        a && {
          address: a.address,
          type: a.type,
          operations_count: a.operations_count,
          migrations_count: a.migrations_count,
          events_count: a.events_count,
          ticket_updates_count: a.ticket_updates_count,
        },
      ).toEqual({
        address: e.destination.address,
        type: e.destination.type,
        operations_count: e.destination.operations_count,
        migrations_count: e.destination.migrations_count,
        events_count: e.destination.events_count,
        ticket_updates_count: e.destination.ticket_updates_count,
      });
    }
  },
);

// ---------------------------------------------------------------- storage parsers (babylon/alpha_test.go)

const storageCases = bySource('internal/parsers/storage/');

/**
 * The storage parser of each golden case: bcdhub's Alpha parser (alpha_test.go) is the one of protocols before
 * Babylon, ours the alpha era (literal big map of an origination -> ptr -1 diffs, the receipt's changes unread).
 */
const eraOf = (c: Case): EraHandler => (c.source.includes('/alpha_test.go') ? alphaEra : babylonEra);

// PGlite only: parser outputs; the write path on PostgreSQL is covered by chain-data and db-write.
describeDb('storage parsers vs bcdhub golden outputs', { backends: 'pglite' }, ({ db }) => {
  it.skipIf(!hasShared).each(storageCases.map((c) => [c.name, c, storageCases.indexOf(c)] as const))(
    '%s',
    async (_name, c, i) => {
      const content = c.input.content as { kind: string; destination?: string };
      const op = c.input.operation as {
        level: number;
        timestamp: string | null;
        script: unknown;
        destination: { address: string } | null;
      };
      const timestamp = goTime(op.timestamp);
      const known = new Map<string, ContractInfo>();
      // The Go test hands the parser the called contract's script; ours reads it from the contract cache.
      if (content.kind === 'transaction' && op.destination)
        known.set(op.destination.address, buildScript(toMicheline(op.script), () => undefined, c.name)!.info);
      const data: BlockData = parseBlockOperations(
        { operations: [[{ hash: GROUP_HASH, contents: [content] }]] },
        ctxFor(op.level, timestamp, known, eraOf(c)),
        c.name,
      );
      expect(data.operations).toHaveLength(1);
      const o = data.operations[0]!;
      const e = c.expected as {
        deffated_storage: unknown;
        deffated_storage_exact_text: string;
        big_map_diffs: ExpDiff[];
        big_map_states: ExpState[];
      };
      expect(o.storage, 'deffated_storage').toEqual(e.deffated_storage);
      expect(JSON.stringify(o.storage), 'deffated_storage text').toBe(e.deffated_storage_exact_text);
      // Diffs and key states as stored with the block (states are derived there).
      const network = `misc${i}`;
      const protocol: ProtocolRecord = {
        hash: SEOUL,
        chainId: 'NetXdQprcVkpaWU',
        startLevel: op.level,
        costPerByte: 1000,
        hardGasLimitPerOperation: 1040000,
        hardStorageLimitPerOperation: 60000,
        timeBetweenBlocks: 30,
        constants: {},
      };
      const record = {
        level: op.level,
        hash: blockHash(`${network}:${op.level}`),
        predecessor: blockHash(`${network}:${op.level - 1}`),
        timestamp,
        chainId: 'NetXdQprcVkpaWU',
        protocol: SEOUL,
      };
      await applyBlock(db(), network, record, protocol, data);
      const diffs = await db()
        .selectFrom('big_map_diffs')
        .selectAll()
        .where('network', '=', network)
        .orderBy('id')
        .execute();
      expect(
        diffs.map((d) => ({
          ptr: Number(d.ptr),
          key_hash: d.key_hash,
          key: d.key,
          value: d.value,
          contract: d.contract,
          level: d.level,
          timestamp: new Date(d.timestamp as unknown as string).getTime(),
        })),
        'big_map_diffs',
      ).toEqual(
        e.big_map_diffs.map((d) => ({
          ptr: d.ptr,
          key_hash: d.key_hash,
          key: d.key,
          value: d.value,
          contract: d.contract,
          level: d.level,
          timestamp: goTime(d.timestamp).getTime(),
        })),
      );
      const states = await db()
        .selectFrom('big_map_states')
        .selectAll()
        .where('network', '=', network)
        .orderBy('ptr')
        .orderBy('key_hash')
        .execute();
      expect(
        states.map((s) => ({
          ptr: Number(s.ptr),
          contract: s.contract,
          key_hash: s.key_hash,
          key: s.key,
          value: s.value,
          removed: s.removed,
          last_update_level: s.last_update_level,
          last_update_time: new Date(s.last_update_time as unknown as string).getTime(),
          count: s.count,
        })),
        'big_map_states',
      ).toEqual(
        e.big_map_states.map((s) => ({
          ptr: s.ptr,
          contract: s.contract,
          key_hash: s.key_hash,
          key: s.key,
          value: s.value,
          removed: s.removed,
          last_update_level: s.last_update_level,
          last_update_time: goTime(s.last_update_time).getTime(),
          // The reference's count: 0 when a key is first written, one more per later block that writes it.
          count: s.count,
        })),
      );
    },
  );
});
