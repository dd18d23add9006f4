/**
 * The sandbox and the what-if apply operations with one engine (issue 35): the same calls run on the real
 * sandbox (injected, baked, their receipts read) and through the what-if's `executeCall` over an overlay of the
 * same chain state (the sandbox's head state, read as the debug worker's chain bridge reads our index), and
 * they must agree on the storage each contract is left with (its big maps' keys and its Sapling states), the
 * big-map diffs of the call, each contract's used and paid bytes, the paid storage, allocations and burns, and
 * the gas. The calls: big-map keys created, overwritten and removed; a factory that originates a contract holding
 * a big map and a Sapling state, calls the big-map contract, pays a new implicit account and emits an event; a
 * contract whose storage gains a Sapling state (the what-if counted no Sapling bytes before the engine).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toTy, type Expr, type LazyStorageDiffItem } from '@michelscope/interpreter';
import { normalizeValue, parseMichelsonScript, type Micheline } from '@michelscope/michelson';
import { BOOTSTRAP_ACCOUNTS, injectAs, Sandbox } from '@michelscope/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCall, type CallRun } from '../src/debug/whatif-exec';
import { Overlay, type WhatIfChain } from '../src/debug/whatif-overlay';

const ALICE = BOOTSTRAP_ACCOUNTS[0]!;
const FRESH = 'tz1burnburnburnburnburnburnburjAYjjX';

/** Writes (Some) or removes (None) a key of its big map. */
const BIG_MAP = `parameter (pair nat (option string)); storage (big_map nat string);
code { UNPAIR; UNPAIR; UPDATE; NIL operation; PAIR };`;
/** Its storage gains a Sapling state (first call), then a new one replaces it. */
const SAPLING = `parameter unit; storage (option (sapling_state 8));
code { DROP; SAPLING_EMPTY_STATE 8; SOME; NIL operation; PAIR };`;
/**
 * Originates a contract holding a big map with a key and a Sapling state, calls the big-map contract, pays 5
 * mutez to a new implicit account and emits an event; keeps the addresses it originated.
 */
const factory = (bigMap: string) => `parameter unit; storage (list address);
code { CDR;
       SAPLING_EMPTY_STATE 8;
       EMPTY_BIG_MAP nat string; PUSH (option string) (Some "hi"); PUSH nat 7; UPDATE;
       PAIR; PUSH mutez 0; NONE key_hash;
       CREATE_CONTRACT { parameter unit; storage (pair (big_map nat string) (sapling_state 8));
                         code { CDR; NIL operation; PAIR } };
       SWAP; DIG 2; SWAP; CONS; SWAP;
       NIL operation; SWAP; CONS;
       PUSH address "${bigMap}"; CONTRACT (pair nat (option string)); IF_NONE { UNIT; FAILWITH } {}; PUSH mutez 0;
       PUSH (pair nat (option string)) (Pair 9 (Some "nine")); TRANSFER_TOKENS; CONS;
       PUSH address "${FRESH}"; CONTRACT unit; IF_NONE { UNIT; FAILWITH } {}; PUSH mutez 5; UNIT; TRANSFER_TOKENS; CONS;
       PUSH nat 3; EMIT %made nat; CONS;
       PAIR };`;

type Kv = Record<string, unknown>;
interface ContractRec {
  balance: string;
  storage: Micheline;
  used: string;
  paid: string;
}
interface Result {
  status: string;
  consumed_milligas?: string;
  paid_storage_size_diff?: string;
  storage_size?: string;
  lazy_storage_diff?: LazyStorageDiffItem[];
  originated_contracts?: string[];
  allocated_destination_contract?: boolean;
  balance_updates?: Array<{ kind: string; category?: string; change: string }>;
}
interface Receipt {
  operation_result: Result;
  internal_operation_results?: Array<{ kind: string; result: Result }>;
}

const section = (code: Micheline[], prim: string): Micheline =>
  (code.find((s) => (s as { prim?: string }).prim === prim) as { args: Micheline[] }).args[0]!;

/** The sandbox's state (its key-value store) as the what-if's chain: what the debug worker's bridge answers. */
function chainOf(kv: Kv): WhatIfChain {
  const code = (a: string) => kv[`k:${a}`] as Micheline[] | undefined;
  const contract = (a: string) => kv[`c:${a}`] as ContractRec | undefined;
  const bigMap = (id: bigint) =>
    kv[`b:${id}`] as { key_type: Expr; value_type: Expr; total_bytes: string } | undefined;
  const sapling = (id: bigint) => kv[`s:${id}`] as { memo_size: number; total_bytes: string } | undefined;
  return {
    contract: (a) => {
      const c = contract(a);
      const k = code(a);
      return c && k
        ? {
            parameter: section(k, 'parameter'),
            storageType: section(k, 'storage'),
            storage: c.storage,
            balance: BigInt(c.balance),
            views: {},
          }
        : null;
    },
    script: (a) => {
      const c = contract(a);
      const k = code(a);
      return c && k ? { code: k, used: c.used, paid: c.paid } : null;
    },
    accountBalance: (a) => {
      const rec = kv[`a:${a}`] as { balance: string } | undefined;
      return rec ? BigInt(rec.balance) : null;
    },
    bigMapTypes: (id) => {
      const b = bigMap(id);
      return b ? { key: toTy(b.key_type), value: toTy(b.value_type) } : null;
    },
    bigMapGet: (id, _key, keyHash) =>
      (kv[`v:${id}:${keyHash}`] as { value: Expr } | undefined)?.value ?? null,
    bigMapBytes: (id) => {
      const b = bigMap(id);
      return b ? BigInt(b.total_bytes) : null;
    },
    saplingMemoSize: (id) => sapling(id)?.memo_size ?? null,
    saplingBytes: (id) => {
      const s = sapling(id);
      return s ? BigInt(s.total_bytes) : null;
    },
  };
}

/** Ids of big maps and Sapling states on the chain before the call: others are the call's own (new). */
function lazyIds(kv: Kv): Set<string> {
  return new Set(Object.keys(kv).filter((k) => k.startsWith('b:') || k.startsWith('s:')));
}

/** A diff with the ids the call created written `new` (the sandbox and the what-if number them apart). */
function canonical(diff: readonly LazyStorageDiffItem[], before: Set<string>): string[] {
  const id = (kind: string, i: string) => (before.has(`${kind === 'big_map' ? 'b' : 's'}:${i}`) ? i : 'new');
  return diff
    .map((d) => {
      const source = 'source' in d.diff ? { source: id(d.kind, d.diff.source) } : {};
      return JSON.stringify({ kind: d.kind, id: id(d.kind, d.id), ...d.diff, ...source });
    })
    .sort();
}

/**
 * Whether two storages agree, ids of the call's new big maps and states aside: those are collected as
 * (sandbox id, what-if id) pairs, to compare their contents.
 */
function agree(a: Micheline, b: Micheline, pairs: Array<[string, string]>): boolean {
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => agree(x, b[i]!, pairs))
    );
  const x = a as { int?: string; prim?: string; args?: Micheline[] };
  const y = b as { int?: string; prim?: string; args?: Micheline[] };
  if (x.int !== undefined && y.int !== undefined && x.int !== y.int) {
    pairs.push([x.int, y.int]);
    return true;
  }
  if (x.prim !== undefined || y.prim !== undefined)
    return (
      x.prim === y.prim &&
      (x.args ?? []).length === (y.args ?? []).length &&
      (x.args ?? []).every((v, i) => agree(v, y.args![i]!, pairs))
    );
  return JSON.stringify(a) === JSON.stringify(b);
}

describe('the sandbox and the what-if agree on the same calls', () => {
  let dir = '';
  let sandbox: Sandbox;
  const kt1: Record<'bigMap' | 'sapling' | 'factory', string> = { bigMap: '', sapling: '', factory: '' };

  const state = (): Kv => JSON.parse(sandbox.snapshot(sandbox.headLevel).json) as Kv;

  async function originate(code: string, storage: Micheline, balance = '0'): Promise<string> {
    const hash = await injectAs(sandbox, ALICE, [
      { kind: 'origination', balance, script: { code: parseMichelsonScript(code), storage } },
    ]);
    const block = await sandbox.bakeBlock();
    const op = block.operations[3]!.find((o) => o.hash === hash)!;
    const r = (op.contents[0] as { metadata: Receipt }).metadata.operation_result;
    expect(r.status).toBe('applied');
    return r.originated_contracts![0]!;
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ms-whatif-sandbox-'));
    sandbox = await Sandbox.open({ dataDir: dir, blockTimeMs: 3_600_000, seed: false, log: () => {} });
    kt1.bigMap = await originate(BIG_MAP, []);
    kt1.sapling = await originate(SAPLING, { prim: 'None' });
    kt1.factory = await originate(factory(kt1.bigMap), [], '1000');
  }, 60_000);

  afterAll(async () => {
    await sandbox?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /**
   * Runs the call through the what-if over the head state, then injects and bakes it, and compares. Returns
   * both, for the checks of each case.
   */
  async function both(
    destination: string,
    parameter: Micheline,
    fails = false,
  ): Promise<{ run: CallRun; receipt: Receipt; overlay: Overlay }> {
    const before = state();
    const chain = chainOf(before);
    const self = before[`c:${destination}`] as ContractRec;
    const script = before[`k:${destination}`] as Micheline[];
    const hash = await injectAs(sandbox, ALICE, [
      {
        kind: 'transaction',
        amount: '0',
        destination,
        parameters: { entrypoint: 'default', value: parameter },
      },
    ]);
    const overlay = new Overlay(chain, {
      address: destination,
      script,
      storage: self.storage,
      balance: self.balance,
      usedSpace: self.used,
      paidSpace: self.paid,
    });
    const run = executeCall(overlay, {
      self: destination,
      entrypoint: 'default',
      parameter,
      amount: 0n,
      source: ALICE.pkh,
      now: BigInt(Math.floor(Date.now() / 1000)),
      level: BigInt(sandbox.headLevel + 1),
      chainId: 'NetXdQprcVkpaWU',
      gasLimit: 1_040_000_000,
      // the sandbox's operation hash: the contracts it originates get the same addresses
      operationHash: hash,
      costPerByte: 250n,
      originationSize: 257n,
    });
    const block = await sandbox.bakeBlock();
    const op = block.operations[3]!.find((o) => o.hash === hash)!;
    const receipt = (op.contents[0] as { metadata: Receipt }).metadata;
    const after = state();
    const results = [
      receipt.operation_result,
      ...(receipt.internal_operation_results ?? []).map((i) => i.result),
    ];

    if (fails) {
      // the failure rule: applied before the failure → backtracked, the failing one failed, the rest skipped
      expect(run.operations.map((o) => o.status)).toEqual(
        (receipt.internal_operation_results ?? []).map((i) => i.result.status),
      );
      expect(receipt.operation_result.status).toBe('backtracked');
      expect(run.failure!.operation).toBe(results.findIndex((r) => r.status === 'failed') - 1);
      // nothing changed, nothing paid
      expect(run.paid.size).toBe(0);
      expect(after[`c:${destination}`]).toEqual(before[`c:${destination}`]);
      expect(overlay.contract(destination)!.storage).toEqual(self.storage);
      return { run, receipt, overlay };
    }
    expect(run.failure).toBeUndefined();
    expect(results.map((r) => r.status)).toEqual(results.map(() => 'applied'));
    expect(run.operations.map((o) => o.kind)).toEqual(
      (receipt.internal_operation_results ?? []).map((i) => i.kind),
    );
    // gas: the whole operation's milligas
    const sum = (f: (r: Result) => string | undefined) =>
      results.reduce((s, r) => s + BigInt(f(r) ?? '0'), 0n);
    expect(BigInt(run.consumedMilligas)).toBe(sum((r) => r.consumed_milligas));
    // paid storage, allocations and the burn
    const paid = [...run.paid.values()].reduce((s, b) => s + b, 0n);
    expect(paid).toBe(sum((r) => r.paid_storage_size_diff));
    const allocations = results.filter(
      (r, i) => (i > 0 && r.originated_contracts?.length) || r.allocated_destination_contract,
    ).length;
    expect(run.allocations).toBe(allocations);
    const burned = results
      .flatMap((r) => r.balance_updates ?? [])
      .filter((u) => u.kind === 'burned' && u.category === 'storage fees')
      .reduce((s, u) => s + BigInt(u.change), 0n);
    expect((paid + BigInt(run.allocations) * 257n) * 250n).toBe(burned);
    // the call's big-map and Sapling diffs, the ids it created aside
    const ids = lazyIds(before);
    if (!run.main?.ok) throw new Error('the what-if call failed');
    expect(canonical(run.main.lazyStorageDiff, ids)).toEqual(
      canonical(receipt.operation_result.lazy_storage_diff ?? [], ids),
    );
    // each contract the call ran or originated: its storage, its used and paid bytes, its new maps' keys
    expect(run.contracts.length).toBeGreaterThan(0);
    for (const address of run.contracts) {
      const mine = overlay.contract(address)!;
      const theirs = after[`c:${address}`] as ContractRec;
      const type = section(after[`k:${address}`] as Micheline[], 'storage');
      const pairs: Array<[string, string]> = [];
      const optimized = (v: Micheline) => normalizeValue(type, v, 'optimized');
      expect(agree(optimized(theirs.storage), optimized(mine.storage), pairs), address).toBe(true);
      expect({ address, used: String(mine.used), paid: String(mine.paid) }).toEqual({
        address,
        used: theirs.used,
        paid: theirs.paid,
      });
      for (const [sid, wid] of pairs) {
        if (after[`s:${sid}`]) continue; // a Sapling state: no keys (its bytes are in `used`)
        expect(after[`b:${sid}`], `big map ${sid}`).toBeDefined();
        const keys = Object.entries(after)
          .filter(([k]) => k.startsWith(`v:${sid}:`))
          .map(([, v]) => JSON.stringify(v))
          .sort();
        const mineKeys = overlay
          .newMapEntries(BigInt(wid))!
          .entries.map((e) => JSON.stringify(e))
          .sort();
        expect(mineKeys).toEqual(keys);
      }
    }
    return { run, receipt, overlay };
  }

  it('big-map keys created, overwritten and removed', async () => {
    const key = (n: number, v: string | null) => ({
      prim: 'Pair',
      args: [{ int: String(n) }, v === null ? { prim: 'None' } : { prim: 'Some', args: [{ string: v }] }],
    });
    const first = await both(kt1.bigMap, key(1, 'abc'));
    // a new key: 65 bytes and its value (a string: tag, length, 3 bytes)
    expect(first.receipt.operation_result.paid_storage_size_diff).toBe(String(65 + 8));
    await both(kt1.bigMap, key(1, 'abcdefgh'));
    await both(kt1.bigMap, key(2, 'x'));
    const removed = await both(kt1.bigMap, key(1, null));
    expect(removed.run.paid.size).toBe(0);
  });

  it('a call that originates a contract with a big map and a Sapling state, calls another, pays and emits', async () => {
    const { run, receipt } = await both(kt1.factory, { prim: 'Unit' });
    expect(run.operations.map((o) => o.kind)).toEqual(['event', 'transaction', 'transaction', 'origination']);
    expect(run.allocations).toBe(2);
    const origination = receipt.internal_operation_results!.find((i) => i.kind === 'origination')!;
    expect(run.paid.get(origination.result.originated_contracts![0]!)).toBe(
      BigInt(origination.result.paid_storage_size_diff!),
    );
    // a second call originates another one and writes the same key again
    await both(kt1.factory, { prim: 'Unit' });
  });

  it('an internal operation that fails: the call is backtracked the same way', async () => {
    // calls the big-map contract (applied, then backtracked), then sends tez it does not have (failed)
    const failing = `parameter unit; storage unit;
      code { CDR; NIL operation;
             PUSH address "${FRESH}"; CONTRACT unit; IF_NONE { UNIT; FAILWITH } {};
             PUSH mutez 1000000; UNIT; TRANSFER_TOKENS; CONS;
             PUSH address "${kt1.bigMap}"; CONTRACT (pair nat (option string)); IF_NONE { UNIT; FAILWITH } {};
             PUSH mutez 0; PUSH (pair nat (option string)) (Pair 5 (Some "five")); TRANSFER_TOKENS; CONS;
             PAIR };`;
    const address = await originate(failing, { prim: 'Unit' });
    const { run } = await both(address, { prim: 'Unit' }, true);
    expect(run.operations.map((o) => o.status)).toEqual(['backtracked', 'failed']);
    expect(run.failure!.kind).toBe('balance_too_low');
  });

  it('Sapling states: the storage gains one (33 bytes paid), then a new one replaces it', async () => {
    const first = await both(kt1.sapling, { prim: 'Unit' });
    expect(first.receipt.operation_result.paid_storage_size_diff).toBe(String(33 + 2));
    expect(first.run.paid.get(kt1.sapling)).toBe(35n);
    const second = await both(kt1.sapling, { prim: 'Unit' });
    expect(second.run.paid.size).toBe(0);
  });
});
