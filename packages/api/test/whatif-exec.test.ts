/**
 * What-if execution of internal operations (issue 20, capability 5), on an in-memory chain: a call that sends
 * tez and a parameter to a second contract runs that contract (its storage after, the balances), a self-calling
 * contract ends by gas or the operation cap and is backtracked, the storage limit fails a call that grows another
 * contract's storage (with the limit, the use and the contract), and an origination burns its bytes and the
 * allocation at the network's cost per byte.
 */
import {
  originatedContractAddress,
  parseMichelsonExpression,
  parseMichelsonScript,
  type Micheline,
} from '@michelscope/michelson';
import { describe, expect, it } from 'vitest';
import { toTy } from '@michelscope/interpreter';
import { estimateFee } from '../src/debug/fee';
import { runWhatIf, type BundleCall, type WhatIfTask } from '../src/debug/whatif';
import { MAX_INTERNAL_OPERATIONS, whatIfOperationHash } from '../src/debug/whatif-exec';
import type { WhatIfChain } from '../src/debug/whatif-overlay';

const A = 'KT1MqfUBMVqRW1RZGosNKmb3njGQKNacgYmB';
const B = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';
const ALICE = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const FRESH = 'tz1burnburnburnburnburnburnburjAYjjX';

/** Sends 1000 mutez and its parameter to %add of the contract in its storage, and counts what it sent. */
const CALLER = `parameter nat; storage (pair (address %target) (nat %sent));
code { UNPAIR; SWAP; UNPAIR;
       DUP; CONTRACT %add nat; ASSERT_SOME;
       PUSH mutez 1000; DUP 5; TRANSFER_TOKENS; DUG 3;
       DIG 2; DIG 2; ADD; SWAP; PAIR;
       NIL operation; DIG 2; CONS; PAIR };`;
/** Adds what it gets. */
const ADDER = `parameter (or (nat %add) (string %store)); storage (pair nat string);
code { UNPAIR; IF_LEFT { SWAP; UNPAIR; DIG 2; ADD; PAIR } { SWAP; CAR; PAIR }; NIL operation; PAIR };`;
/** Forwards a string to %store of the contract in its storage. */
const FORWARDER = `parameter string; storage address;
code { UNPAIR; SWAP; DUP; CONTRACT %store string; ASSERT_SOME; PUSH mutez 0; DIG 3; TRANSFER_TOKENS;
       NIL operation; SWAP; CONS; PAIR };`;
/** Calls itself forever. */
const LOOP = `parameter unit; storage nat;
code { CDR; PUSH nat 1; ADD; NIL operation; SELF; PUSH mutez 0; UNIT; TRANSFER_TOKENS; CONS; PAIR };`;
/** Originates a counter with its parameter as storage, and pays 5 mutez to an implicit account. */
const FACTORY = `parameter int; storage (list address);
code { UNPAIR; PUSH mutez 0; NONE key_hash;
       CREATE_CONTRACT { parameter int; storage int; code { UNPAIR; ADD; NIL operation; PAIR } };
       SWAP; DIG 2; SWAP; CONS; SWAP;
       NIL operation; SWAP; CONS;
       PUSH address "${FRESH}"; CONTRACT unit; ASSERT_SOME; PUSH mutez 5; UNIT; TRANSFER_TOKENS; CONS;
       PAIR };`;

interface Contract {
  script: Micheline[];
  storage: Micheline;
  balance: bigint;
}
const section = (script: Micheline[], prim: string) =>
  (script.find((s) => (s as { prim?: string }).prim === prim) as { args: Micheline[] }).args[0]!;

function chainOf(contracts: Record<string, Contract>, balances: Record<string, bigint> = {}): WhatIfChain {
  return {
    contract: (address) => {
      const c = contracts[address];
      return c
        ? {
            parameter: section(c.script, 'parameter'),
            storageType: section(c.script, 'storage'),
            storage: c.storage,
            balance: c.balance,
            views: {},
          }
        : null;
    },
    script: (address) => {
      const c = contracts[address];
      return c ? { code: c.script, used: null, paid: null } : null;
    },
    accountBalance: (address) => balances[address] ?? null,
    bigMapTypes: () => null,
    bigMapGet: () => null,
  };
}

function task(self: string, c: Contract, calls: Partial<BundleCall>[]): WhatIfTask {
  return {
    script: c.script,
    storageType: section(c.script, 'storage'),
    parameterType: section(c.script, 'parameter'),
    self,
    storage: c.storage,
    balance: String(c.balance),
    now: '1700000000',
    level: '100',
    chainId: 'NetXdQprcVkpaWU',
    entries: [],
    costPerByte: '250',
    originationSize: 257,
    calls: calls.map((x) => ({
      entrypoint: 'default',
      parameter: { prim: 'Unit' },
      amount: '0',
      source: ALICE,
      gasLimit: 1_040_000_000,
      ...x,
    })),
    names: {},
    inputs: {},
  };
}

interface Result {
  status: string;
  calls: Array<{
    status: string;
    consumed_milligas: number;
    script_milligas: number;
    failure?: {
      kind: string;
      message: string;
      operation?: number;
      storage?: { limit: number; used: number; contracts: unknown[]; allocations: number };
    };
    operations: Array<{
      kind: string;
      source: string;
      destination?: string;
      status: string;
      depth: number;
      consumed_milligas: number;
      originated_contract?: string;
      allocated_destination_contract?: boolean;
    }>;
    contracts: Array<{ address: string; storage_after: Micheline; originated: boolean }>;
    balance_updates: Array<{ address: string; change: string }>;
    fees: Record<string, unknown>;
  }>;
  contracts: Array<{
    address: string;
    originated: boolean;
    storage_before: Micheline | null;
    storage_after: Micheline;
  }>;
  balance_changes: Array<{ address: string; before?: string; after?: string; change: string }>;
  totals: Record<string, unknown>;
}

const run = (t: WhatIfTask, chain: WhatIfChain) => JSON.parse(runWhatIf(t, chain)) as Result;
const expr = parseMichelsonExpression;

describe('what-if runs the internal operations', () => {
  const caller: Contract = {
    script: parseMichelsonScript(CALLER),
    storage: expr(`Pair "${B}" 0`),
    balance: 10_000n,
  };
  const adder: Contract = { script: parseMichelsonScript(ADDER), storage: expr('Pair 10 ""'), balance: 0n };

  it("a call to a second contract runs it: its storage after, both balances, each call's state", () => {
    const r = run(
      task(A, caller, [{ parameter: { int: '5' } }, { parameter: { int: '7' } }]),
      chainOf({ [A]: caller, [B]: adder }),
    );
    expect(r.status).toBe('applied');
    const [first, second] = r.calls;
    expect(first!.operations).toMatchObject([
      { kind: 'transaction', source: A, destination: B, status: 'applied', depth: 1 },
    ]);
    expect(first!.contracts.map((c) => c.address)).toEqual([A, B]);
    expect(first!.contracts[1]!.storage_after).toEqual(expr('Pair 15 ""'));
    // the second call sees what the first left in both contracts
    expect(second!.contracts[1]!.storage_after).toEqual(expr('Pair 22 ""'));
    const adderAfter = r.contracts.find((c) => c.address === B)!;
    expect(adderAfter).toMatchObject({ originated: false, storage_before: expr('Pair 10 ""') });
    expect(adderAfter.storage_after).toEqual(expr('Pair 22 ""'));
    expect(r.contracts.find((c) => c.address === A)!.storage_after).toEqual(expr(`Pair "${B}" 12`));
    expect(r.balance_changes).toEqual(
      expect.arrayContaining([
        { address: A, before: '10000', after: '8000', change: '-2000' },
        { address: B, before: '0', after: '2000', change: '2000' },
      ]),
    );
    expect(first!.balance_updates).toEqual(
      expect.arrayContaining([
        { address: A, change: '-1000' },
        { address: B, change: '1000' },
      ]),
    );
    // gas as the node counts it: manager 100 + call 1175 + the caller's script, then 100 + 1175 + the adder's
    expect(first!.consumed_milligas).toBe(
      100_000 + 1_175_000 + first!.script_milligas + first!.operations[0]!.consumed_milligas,
    );
    expect(first!.operations[0]!.consumed_milligas).toBeGreaterThan(1_275_000);
    expect(first!.fees).toMatchObject({ paid_storage_size_diff: 0, burn: '0', allocations: 0 });
  });

  it('a failing internal call fails the whole call: backtracked, and it says which operation failed', () => {
    const poor = { ...caller, balance: 500n };
    const r = run(task(A, poor, [{ parameter: { int: '5' } }]), chainOf({ [A]: poor, [B]: adder }));
    expect(r.status).toBe('failed');
    expect(r.calls[0]!.failure).toMatchObject({ kind: 'balance_too_low', operation: 0 });
    expect(r.calls[0]!.failure!.message).toContain('500');
    expect(r.calls[0]!.operations[0]!.status).toBe('failed');
    // nothing changed
    expect(r.contracts.find((c) => c.address === B)).toBeUndefined();
    expect(r.balance_changes).toEqual([]);
  });

  it('a contract calling itself ends by gas or the operation cap, backtracked, with a clear message', () => {
    const loop: Contract = { script: parseMichelsonScript(LOOP), storage: { int: '0' }, balance: 0n };
    const r = run(task(A, loop, [{}]), chainOf({ [A]: loop }));
    expect(r.status).toBe('failed');
    const f = r.calls[0]!.failure!;
    expect(f.message).toMatch(/gas|internal operations/);
    expect(f.operation).toBeGreaterThan(0);
    const ops = r.calls[0]!.operations;
    expect(ops.length).toBeLessThanOrEqual(MAX_INTERNAL_OPERATIONS);
    expect(ops[f.operation!]!.status).toBe('failed');
    expect(ops[0]!.status).toBe('backtracked');
    // depth first: each self-call is emitted by the one before
    expect(ops.slice(0, 3).map((o) => o.depth)).toEqual([1, 2, 3]);
    expect(r.contracts[0]!.storage_after).toEqual({ int: '0' });
    // a smaller gas limit ends it sooner, still by gas
    const small = run(task(A, loop, [{ gasLimit: 20_000_000 }]), chainOf({ [A]: loop }));
    expect(small.calls[0]!.failure!.kind).toMatch(/gas_exhausted/);
  });

  it('the storage limit: a call growing another contract past it fails with the limit, the use and the contract', () => {
    const fwd: Contract = { script: parseMichelsonScript(FORWARDER), storage: { string: B }, balance: 0n };
    const chain = chainOf({ [A]: fwd, [B]: adder });
    // "" → "abcdefghij": 10 more bytes in the adder's storage
    const call = { parameter: { string: 'abcdefghij' } };
    const tight = run(task(A, fwd, [{ ...call, storageLimit: 9 }]), chain);
    expect(tight.status).toBe('failed');
    expect(tight.calls[0]!.failure).toMatchObject({
      kind: 'storage_exhausted',
      storage: {
        limit: 9,
        used: 10,
        contracts: [{ address: B, paid_storage_size_diff: 10 }],
        allocations: 0,
      },
    });
    expect(tight.calls[0]!.failure!.message).toContain('10 bytes');
    const enough = run(task(A, fwd, [{ ...call, storageLimit: 10 }]), chain);
    expect(enough.status).toBe('applied');
    expect(enough.calls[0]!.fees).toMatchObject({
      paid_storage_size_diff: 10,
      storage_burn: '2500',
      allocation_burn: '0',
      burn: '2500',
    });
    expect(enough.totals).toMatchObject({ paid_storage_size_diff: 10, burn: '2500' });
    // with a storage limit, the payer's balance must cover the burn
    const broke = run(
      task(A, fwd, [{ ...call, storageLimit: 100 }]),
      chainOf({ [A]: fwd, [B]: adder }, { [ALICE]: 2000n }),
    );
    expect(broke.calls[0]!.failure).toMatchObject({ kind: 'cannot_pay_storage_fee' });
  });

  it("a copy of a chain big map costs the map's bytes on the chain; dropping one frees its bytes", () => {
    // the second map becomes a copy of the first: map 8 is removed, map 7 copied (Octez lazy_storage_diff.ml)
    const COPIER = `parameter unit; storage (pair (big_map nat nat) (big_map nat nat));
      code { CDR; CAR; DUP; PAIR; NIL operation; PAIR };`;
    const copier: Contract = {
      script: parseMichelsonScript(COPIER),
      storage: { prim: 'Pair', args: [{ int: '7' }, { int: '8' }] },
      balance: 0n,
    };
    const nat = { prim: 'nat' };
    const withMaps = (bytes: Record<string, bigint>): WhatIfChain => ({
      ...chainOf({ [A]: copier }),
      bigMapTypes: (id) => (id === 7n || id === 8n ? { key: toTy(nat), value: toTy(nat) } : null),
      bigMapBytes: (id) => bytes[String(id)] ?? null,
    });
    const paid = (chain: WhatIfChain) => {
      const r = run(task(A, copier, [{}]), chain);
      expect(r.status).toBe('applied');
      return r.calls[0]!.fees.paid_storage_size_diff;
    };
    // the maps' bytes as the node counts them: the copy adds 1,000, the removal frees 300
    expect(paid(withMaps({ '7': 1000n, '8': 300n }))).toBe(700);
    // a copy of a larger map, nothing freed
    expect(paid(withMaps({ '7': 5000n, '8': 0n }))).toBe(5000);
    // unknown sizes (no node): nothing counted, as before
    expect(paid(withMaps({}))).toBe(0);
  });

  it('an origination: the address the protocol computes, its storage, size and allocation burns', () => {
    const factory: Contract = { script: parseMichelsonScript(FACTORY), storage: [], balance: 100n };
    const r = run(task(A, factory, [{ parameter: { int: '42' } }]), chainOf({ [A]: factory }));
    expect(r.calls[0]!.failure).toBeUndefined();
    expect(r.status).toBe('applied');
    const kt = originatedContractAddress(whatIfOperationHash(`what-if/${A}/100/0`), 0);
    const ops = r.calls[0]!.operations;
    expect(ops.map((o) => o.kind)).toEqual(['transaction', 'origination']);
    expect(ops[0]).toMatchObject({ destination: FRESH, allocated_destination_contract: true });
    expect(ops[1]).toMatchObject({ originated_contract: kt, status: 'applied' });
    const created = r.contracts.find((c) => c.address === kt)!;
    expect(created).toMatchObject({ originated: true, storage_before: null, storage_after: { int: '42' } });
    expect(r.contracts.find((c) => c.address === A)!.storage_after).toEqual([{ string: kt }]);
    // two allocations (the contract, the new account) × 257 bytes × 250 mutez, plus the new contract's bytes
    const fees = r.calls[0]!.fees as { paid_storage_size_diff: number; storage_burn: string };
    expect(r.calls[0]!.fees).toMatchObject({ allocations: 2, allocation_burn: String(2 * 257 * 250) });
    expect(fees.paid_storage_size_diff).toBeGreaterThan(20);
    expect(fees.storage_burn).toBe(String(fees.paid_storage_size_diff * 250));
    expect(r.balance_changes).toEqual(expect.arrayContaining([{ address: FRESH, change: '5' }]));
  });

  it("the fee is Taquito's estimate for the call's gas, storage and size", () => {
    const e = estimateFee({
      milligas: 2_500_000,
      storage: 10,
      costPerByte: 250,
      amount: '0',
      entrypoint: 'default',
      parameter: { string: 'abcdefghij' },
    });
    // gas 2,500 + 100 buffer; storage 10 + 20; fee = 100 × 1.2 + 0.1 × gas + 1 × bytes, rounded up
    expect(e).toMatchObject({ gasLimit: 2600, storageLimit: 30 });
    expect(e.fee).toBe(Math.ceil(120 + 260 + e.opSize));
    expect(e.opSize).toBeGreaterThan(150);
  });
});
