/**
 * What a what-if call does on the chain (issue 20, capability 5): the called contract runs, then the internal
 * operations it emits are applied depth first as in Octez (each operation's own emissions right after it, before
 * its next sibling): a transaction to a contract runs that contract against the overlay (its code read from our
 * index, its storage, balance and big maps as the bundle left them), to an implicit account moves tez, an
 * origination creates the contract in the overlay at the address the protocol computes, a delegation is noted
 * and an event is listed. The first failure fails the whole call (its effects are dropped, as the chain
 * backtracks it) and says which operation failed and why. Gas and storage are accounted as the node does:
 * milligas per operation, each contract's used and paid bytes, new accounts and originations, and the call's
 * storage limit (storage exhaustion) and the payer's balance for the burn.
 *
 * The state it runs against is the bundle's Overlay (whatif-overlay.ts).
 */
import {
  applyDelegation,
  applyEvent,
  applyInternalOperations,
  applyOrigination,
  applyTransaction,
  backtrack,
  consume,
  type ApplyContext,
  type Failure,
  type OperationHost,
} from '@michelscope/engine';
import { OPERATION_COST, type EmittedOperation, type runContract } from '@michelscope/interpreter';
import { createHash } from 'node:crypto';
import {
  formatMichelson,
  formatTezosErrors,
  operationHashFromBytes,
  originatedContractAddress,
  type Micheline,
} from '@michelscope/michelson';
import {
  OpFailure,
  safe,
  section,
  valueBytes,
  viewsOf,
  type CallFailure,
  type Overlay,
} from './whatif-overlay';

/** Most internal operations one call may apply (the protocol has no such cap; a cycle ends here or by gas). */
export const MAX_INTERNAL_OPERATIONS = 1000;

/** One operation of a call as the answer lists it (Octez's internal operation result, decoded by the caller). */
export interface AppliedOperation {
  kind: string;
  source: string;
  destination?: string;
  amount?: string;
  entrypoint?: string;
  parameter?: Micheline;
  delegate?: string | null;
  tag?: string;
  type?: Micheline;
  payload?: Micheline;
  status: 'applied' | 'failed' | 'skipped' | 'backtracked';
  /** Nesting: 1 for what the called contract emits, 2 for what those emit, … */
  depth: number;
  consumed_milligas: number;
  originated_contract?: string;
  storage_size?: number;
  paid_storage_size_diff?: number;
  allocated_destination_contract?: boolean;
}

export interface CallInput {
  self: string;
  entrypoint: string;
  parameter: Micheline;
  amount: bigint;
  sender?: string | undefined;
  source?: string | undefined;
  now: bigint;
  level: bigint;
  chainId: string;
  /** milligas */
  gasLimit: number;
  /** bytes; absent: not checked */
  storageLimit?: number | undefined;
  /** the `o…` hash standing for the operation's (the addresses of the contracts it originates) */
  operationHash: string;
  costPerByte: bigint;
  originationSize: bigint;
}

export interface CallRun {
  ok: boolean;
  /** The called contract's own run: storage, events and the script's milligas (the debugger's figure). */
  main?: ReturnType<typeof runContract>;
  failure?: CallFailure;
  operations: AppliedOperation[];
  /** Milligas of the whole call as the node counts it (manager operation, calls, scripts, internal operations). */
  consumedMilligas: number;
  /** Bytes of new paid storage, by contract (the storage each call made grow), and new accounts / contracts. */
  paid: Map<string, bigint>;
  allocations: number;
  /** The contracts this call ran or originated, in order. */
  contracts: string[];
}

/** A pseudo operation hash (`o…`) for a what-if call: the protocol would use the signed operation's. */
export function whatIfOperationHash(seed: string): string {
  return operationHashFromBytes(
    createHash('blake2b512').update(seed).digest().subarray(0, 32).toString('hex'),
  );
}

/**
 * Runs one call with its internal operations on the overlay. A failure leaves the overlay as it was before the
 * call (backtracked) and says which operation failed.
 */
export function executeCall(overlay: Overlay, c: CallInput): CallRun {
  const restore = overlay.snapshot();
  let originations = 0;
  const run: CallRun = {
    ok: false,
    operations: [],
    consumedMilligas: 0,
    paid: new Map(),
    allocations: 0,
    contracts: [],
  };
  const nextAddress = () => originatedContractAddress(c.operationHash, originations++);
  const chain = overlay.chain(nextAddress);
  const grow = (address: string, bytes: bigint) => {
    if (bytes > 0n) run.paid.set(address, (run.paid.get(address) ?? 0n) + bytes);
  };
  const touch = (address: string) => {
    if (!run.contracts.includes(address)) run.contracts.push(address);
  };
  const gas = { left: BigInt(c.gasLimit) };

  /** The what-if's failures, in its words. */
  const failure = (f: Failure): OpFailure => {
    switch (f.kind) {
      case 'gas_exhausted':
        return new OpFailure({
          kind: 'gas_exhausted',
          message: `gas exhausted: the call's gas limit (${Math.floor(c.gasLimit / 1000)}) does not cover its operations`,
        });
      case 'non_existing_contract':
        return new OpFailure({
          kind: 'non_existing_contract',
          message: `contract ${f.contract} does not exist (not in our index)`,
        });
      case 'bad_contract_parameter':
        return new OpFailure({
          kind: 'bad_contract_parameter',
          message: `implicit account ${f.contract} has no entrypoint %${f.entrypoint}`,
        });
      case 'empty_transaction':
        return new OpFailure({ kind: 'empty_transaction', message: `empty transaction to ${f.contract}` });
      case 'script_failed': {
        const res = f.run;
        if (!f.internal) run.main = res;
        const w = res.error.data.with;
        const errors = formatTezosErrors(res.errors);
        return new OpFailure({
          kind: res.error.kind,
          message: res.error.message,
          ...(w !== undefined ? { with: w, with_text: safe(() => formatMichelson(w)) ?? '' } : {}),
          ...(errors ? { errors } : {}),
        });
      }
      case 'origination_failed':
        return new OpFailure({ kind: f.run.error.kind, message: f.run.error.message });
      case 'unregistered_delegate':
        return new OpFailure({
          kind: 'unregistered_delegate',
          message: `${f.delegate} is not a registered delegate`,
        });
      case 'duplicate_contract':
        return new OpFailure({
          kind: 'duplicate_contract',
          message: `contract ${f.contract} already exists`,
        });
    }
  };

  /**
   * The engine's context over the overlay: the what-if's rules are any parameter to an implicit account's
   * %default, delegates and tickets not checked; the call's sender (the what-if's) is not checked nor loaded.
   */
  const ctx: ApplyContext = {
    state: {
      contract: (address) => overlay.contract(address),
      balance: (address) => overlay.contract(address)!.balance,
      move: (from, to, amount, external) => {
        if (from) overlay.move(from, to, amount, external);
        else overlay.contract(to)!.balance += amount;
      },
      allocates: (address, amount) => amount > 0n && overlay.allocates(address),
      applyLazy: (diff, owner) => overlay.apply(diff, owner),
      update: (address, u) => {
        overlay.set(address, {
          ...overlay.contract(address)!,
          ...(u.storage !== undefined ? { storage: u.storage } : {}),
          ...(u.storageBytes !== undefined ? { storageBytes: u.storageBytes } : {}),
          used: u.used,
          paid: u.paid,
        });
        touch(address);
      },
      create: (address, o) => {
        const code = o.run.code;
        const storageType = section(code, 'storage')!;
        const storageBytes = valueBytes(storageType, o.run.storage);
        overlay.set(address, {
          code,
          parameter: section(code, 'parameter')!,
          storageType,
          storage: o.run.storage,
          balance: 0n,
          storageBytes,
          used: 0n,
          paid: 0n,
          originated: true,
          views: viewsOf(code),
        });
        overlay.startOf.set(address, { storage: null, balance: 0n });
        return storageBytes;
      },
      nextAddress,
      allocateBigMapId: overlay.allocate,
      allocateTemporaryBigMapId: overlay.allocateTemp,
      allocateSaplingId: overlay.allocateSapling,
      allocateTemporarySaplingId: overlay.allocateSaplingTemp,
    },
    policy: { implicitParameter: 'default', emptyTransactionFails: false, implicitTickets: false },
    gas,
    fail: failure,
    chain: () => chain,
    env: {
      now: c.now,
      level: c.level,
      chainId: c.chainId,
      ...(c.source ? { source: c.source } : {}),
    },
  };

  /** What the what-if does with each internal operation, for the engine's depth-first run. */
  const host: OperationHost<AppliedOperation> = {
    entry: (op, depth) => entryOf(op, depth),
    isFailure: (e) => e instanceof OpFailure,
    transaction: (t, entry) => {
      const before = gas.left;
      const r = applyTransaction(ctx, { ...t, internal: true });
      if (r.kind === 'implicit') {
        if (r.allocated) {
          entry.allocated_destination_contract = true;
          run.allocations++;
        }
      } else {
        grow(t.destination, r.paidDiff);
        entry.storage_size = Number(r.used);
      }
      entry.consumed_milligas = Number(before - gas.left);
      entry.status = 'applied';
      return r.kind === 'contract' ? r.run.operations : [];
    },
    origination: (o, entry) => {
      const before = gas.left;
      const { address, used } = applyOrigination(ctx, { ...o, internal: true });
      grow(address, used);
      run.allocations++;
      entry.originated_contract = address;
      entry.storage_size = Number(used);
      entry.paid_storage_size_diff = Number(used);
      entry.consumed_milligas = Number(before - gas.left);
      entry.status = 'applied';
    },
    delegation: (d, entry) => {
      applyDelegation(ctx, d);
      entry.consumed_milligas = Number(OPERATION_COST.internalTransfer);
      entry.status = 'applied';
    },
    event: (_e, entry) => {
      applyEvent(ctx);
      entry.consumed_milligas = Number(OPERATION_COST.event);
      entry.status = 'applied';
    },
  };

  const entryOf = (op: EmittedOperation, depth: number): AppliedOperation => {
    const j = op.json;
    const e: AppliedOperation = {
      kind: j.kind,
      source: j.source,
      status: 'skipped',
      depth,
      consumed_milligas: 0,
    };
    if (j.kind === 'transaction') {
      e.destination = j.destination;
      e.amount = j.amount;
      e.entrypoint = j.parameters?.entrypoint ?? 'default';
      e.parameter = j.parameters?.value ?? { prim: 'Unit' };
    } else if (j.kind === 'origination') {
      e.amount = j.balance;
    } else if (j.kind === 'delegation') {
      e.delegate = j.delegate ?? null;
    } else {
      if (j.tag) e.tag = j.tag;
      e.type = j.type;
      if (j.payload !== undefined) e.payload = j.payload;
    }
    return e;
  };

  /** the internal operation that failed, if one did */
  let failed: AppliedOperation | undefined;
  try {
    consume(ctx, BigInt(OPERATION_COST.manager));
    const sender = c.sender ?? c.source;
    const main = applyTransaction(ctx, {
      ...(sender ? { source: sender } : {}),
      destination: c.self,
      amount: c.amount,
      entrypoint: c.entrypoint,
      parameter: c.parameter,
      internal: false,
    });
    if (main.kind !== 'contract') throw new Error(`what-if call to ${c.self}: not a contract`);
    run.main = main.run;
    grow(c.self, main.paidDiff);
    const inner = applyInternalOperations(host, main.run.operations, {
      max: MAX_INTERNAL_OPERATIONS,
      tooMany: () =>
        new OpFailure({
          kind: 'too_many_internal_operations',
          message: `more than ${MAX_INTERNAL_OPERATIONS} internal operations in one call (a cycle of calls?): stopped`,
        }),
    });
    run.operations = inner.entries;
    if (inner.failure) {
      failed = inner.failure.entry;
      if (failed) failed.status = 'failed';
      throw inner.failure.error;
    }
    // the storage the call pays for: its limit, then the payer's balance
    let paidBytes = 0n;
    for (const b of run.paid.values()) paidBytes += b;
    const needed = paidBytes + BigInt(run.allocations) * c.originationSize;
    if (c.storageLimit !== undefined && needed > BigInt(c.storageLimit))
      throw new OpFailure({
        kind: 'storage_exhausted',
        message: `storage exhausted: the call needs ${needed} bytes of paid storage, its storage limit is ${c.storageLimit}`,
        storage: {
          limit: c.storageLimit,
          used: Number(needed),
          contracts: [...run.paid].map(([address, b]) => ({ address, paid_storage_size_diff: Number(b) })),
          allocations: run.allocations,
        },
      });
    const payer = c.source;
    const burn = needed * c.costPerByte;
    // the payer's balance is checked with the limit (a what-if's source is often a made-up account)
    if (payer && burn > 0n && c.storageLimit !== undefined) {
      const balance = overlay.base.accountBalance?.(payer);
      const spent = -(overlay.balanceChanges().find((b) => b.address === payer)?.change ?? 0n);
      if (balance !== undefined && balance !== null && balance - spent < burn)
        throw new OpFailure({
          kind: 'cannot_pay_storage_fee',
          message: `cannot pay the storage fee: ${payer} holds ${balance - spent} mutez after the call and the burn is ${burn}`,
          burn: { payer, balance: String(balance - spent), burn: String(burn) },
        });
    }
    run.ok = true;
  } catch (e) {
    if (!(e instanceof OpFailure)) throw e;
    restore();
    run.failure = e.failure;
    // listed in run order, then those never run: those applied before the failure are backtracked
    backtrack(run.operations, (o) => o);
    if (failed) run.failure.operation = run.operations.indexOf(failed);
    run.paid = new Map();
    run.allocations = 0;
  }
  run.consumedMilligas = Number(BigInt(c.gasLimit) - gas.left);
  return run;
}
