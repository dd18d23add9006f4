/**
 * One operation's application by kind, shared by the sandbox and the what-if (issue 35): a transaction to a
 * contract (its script runs over the chain state, its lazy storage diff is applied, its used and paid bytes
 * follow), a transaction to an implicit account (tez move, allocation), an origination (the script and storage
 * typechecked, the contract created at its address, its bytes all paid), a delegation and an event, with the gas
 * of each (the interpreter's `OPERATION_COST`). The state is a `ChainState` each implements (the sandbox over its
 * store, the what-if over its overlay of our index and the node); what differs between them is written as an
 * `ApplyPolicy` (the sandbox checks delegates, refuses parameters other than Unit to an implicit account and
 * empty transactions, lets tickets go to implicit accounts); failures are described as a `Failure` that the
 * caller turns into its own error (`fail`), so each keeps its error texts. Results are each caller's: these
 * functions return what the operation did.
 */
import {
  OPERATION_COST,
  originateContract,
  runContract,
  type ChainContext,
  type Expr,
  type LazyStorageDiffItem,
  type V,
} from '@michelscope/interpreter';
import { originatedBytes, afterCall } from './contract-storage';
import { exprBytes } from './lazy-storage';

export type ContractRun = ReturnType<typeof runContract>;
export type OkRun = Extract<ContractRun, { ok: true }>;
export type OriginationRun = ReturnType<typeof originateContract>;
export type OkOrigination = Extract<OriginationRun, { ok: true }>;

/** A contract as the state holds it: what a call reads and its storage accounting. */
export interface ContractRecord {
  code: Expr;
  storage: Expr;
  /** Bytes of the storage value (its Optimized binary form). */
  storageBytes: bigint;
  used: bigint;
  paid: bigint;
}

/** The chain an operation is applied to. */
export interface ChainState {
  /** An originated contract (null: none). */
  contract(address: string): ContractRecord | null;
  /** A contract's balance (what its script's BALANCE reads). */
  balance(address: string): bigint;
  /**
   * Moves tez (no source: credited from nowhere, the what-if's call without a sender), or throws the state's
   * failure when the source cannot pay. `external`: the manager operation's own source (not emitted by a
   * contract).
   */
  move(from: string | undefined, to: string, amount: bigint, external: boolean): void;
  /** Whether crediting `amount` to this implicit account allocates it (it does not exist yet). */
  allocates(address: string, amount: bigint): boolean;
  /** Creates an implicit account credited nothing (an allocation by a transaction of 0). */
  openAccount?(address: string): void;
  /** Applies a run's lazy storage diff for its owner; the change of bytes the owner's storage uses. */
  applyLazy(diff: LazyStorageDiffItem[], owner: string): bigint;
  /** Sets a contract's storage (with its bytes) and its used and paid bytes. */
  update(address: string, c: { storage?: Expr; storageBytes?: bigint; used: bigint; paid: bigint }): void;
  /** Creates an originated contract (balance 0, used and paid 0); returns its storage value's bytes. */
  create(address: string, o: { code: Expr; run: OkOrigination; delegate?: string }): bigint;
  /** The address of the next contract the operation originates. */
  nextAddress(): string;
  /** Sets or withdraws a contract's delegate (absent: delegations are noted only). */
  setDelegate?(source: string, delegate: string | null): void;
  allocateBigMapId(): bigint;
  allocateTemporaryBigMapId(): bigint;
  allocateSaplingId(): bigint;
  allocateTemporarySaplingId(): bigint;
}

/** Where the sandbox and the what-if differ, each rule named. */
export interface ApplyPolicy {
  /**
   * What an implicit account accepts: 'unit' only Unit to %default (the protocol's rule, the sandbox's),
   * 'default' any parameter to %default (the what-if's).
   */
  implicitParameter: 'unit' | 'default';
  /** Whether an operation's own transaction of 0 tez to an implicit account fails (empty_transaction). */
  emptyTransactionFails: boolean;
  /** Whether a contract may send tickets to an implicit account (which then holds them; the sandbox). */
  implicitTickets: boolean;
  /** Checks that a delegate is registered (absent: not checked). */
  isDelegate?(address: string): boolean;
}

/** Why an operation failed; the caller makes its error of it (`ApplyContext.fail`). */
export type Failure =
  | { kind: 'gas_exhausted' }
  | { kind: 'non_existing_contract'; contract: string }
  | { kind: 'bad_contract_parameter'; contract: string; entrypoint: string }
  | { kind: 'empty_transaction'; contract: string }
  /** The script failed; milligas: what the transaction used up to the failure. */
  | {
      kind: 'script_failed';
      contract: string;
      run: Extract<ContractRun, { ok: false }>;
      milligas: bigint;
      internal: boolean;
    }
  | { kind: 'origination_failed'; run: Extract<OriginationRun, { ok: false }> }
  | { kind: 'unregistered_delegate'; delegate: string }
  | { kind: 'duplicate_contract'; contract: string };

/** What one manager operation's application shares. */
export interface ApplyContext {
  state: ChainState;
  policy: ApplyPolicy;
  /** Milligas left (each function takes its operation's from it). */
  gas: { left: bigint };
  /** The caller's error for a failure (thrown by these functions). */
  fail(f: Failure): unknown;
  /** The chain a script sees: a call's (CREATE_CONTRACT's addresses among it) or an origination's. */
  chain(purpose: 'call' | 'origination'): ChainContext;
  /** The run's environment. */
  env: {
    now: bigint;
    level: bigint;
    chainId: string;
    /** The manager operation's source (SOURCE). */
    source?: string;
    unparsingMode?: 'Optimized' | 'Readable';
  };
}

export function consume(ctx: ApplyContext, milligas: bigint): void {
  ctx.gas.left -= milligas;
  if (ctx.gas.left < 0n) throw ctx.fail({ kind: 'gas_exhausted' });
}

export const isContractAddress = (address: string): boolean => address.startsWith('KT1');

export interface Transaction {
  /** absent: the what-if's call without a sender (the amount is credited from nowhere) */
  source?: string;
  destination: string;
  amount: bigint;
  entrypoint: string;
  parameter?: Expr;
  /** The typed parameter of an internal transaction (it may carry tickets). */
  carried?: V;
  internal: boolean;
}

export type TransactionResult =
  | { kind: 'implicit'; allocated: boolean; ticket?: Extract<V, { k: 'ticket' }> }
  | { kind: 'contract'; run: OkRun; used: bigint; paidDiff: bigint };

function isUnitDefault(entrypoint: string, value: unknown): boolean {
  const v = value as { prim?: string; args?: unknown[] } | undefined;
  return entrypoint === 'default' && (v === undefined || (v.prim === 'Unit' && !v.args?.length));
}

/**
 * A transaction: an internal one costs its 100 gas first; to an implicit account it moves tez (and may allocate
 * the account), to a contract it runs the script (1000 gas more, the script's own) and applies its storage.
 */
export function applyTransaction(ctx: ApplyContext, t: Transaction): TransactionResult {
  const { state, policy } = ctx;
  const gasBefore = ctx.gas.left;
  if (t.internal) consume(ctx, BigInt(OPERATION_COST.internalTransfer));
  if (!isContractAddress(t.destination)) {
    const source = t.source ?? '';
    if (policy.implicitTickets && t.carried?.k === 'ticket' && t.internal && t.entrypoint === 'default') {
      // Since Mumbai, contracts may send tickets to implicit accounts, which hold them.
      state.move(source, t.destination, t.amount, false);
      return { kind: 'implicit', allocated: false, ticket: t.carried };
    }
    const accepted =
      policy.implicitParameter === 'unit'
        ? isUnitDefault(t.entrypoint, t.parameter)
        : t.entrypoint === 'default';
    if (!accepted)
      throw ctx.fail({ kind: 'bad_contract_parameter', contract: t.destination, entrypoint: t.entrypoint });
    if (policy.emptyTransactionFails && t.amount === 0n && !t.internal)
      throw ctx.fail({ kind: 'empty_transaction', contract: t.destination });
    const allocated = state.allocates(t.destination, t.amount);
    state.move(source, t.destination, t.amount, !t.internal);
    if (allocated && t.amount === 0n) state.openAccount?.(t.destination);
    return { kind: 'implicit', allocated };
  }
  const contract = state.contract(t.destination);
  if (!contract) throw ctx.fail({ kind: 'non_existing_contract', contract: t.destination });
  consume(ctx, BigInt(OPERATION_COST.call));
  state.move(t.source, t.destination, t.amount, !t.internal);
  const { env } = ctx;
  const run = runContract({
    script: contract.code,
    storage: contract.storage,
    parameter: t.parameter ?? { prim: 'Unit' },
    entrypoint: t.entrypoint,
    amount: t.amount,
    balance: state.balance(t.destination),
    ...(env.source ? { source: env.source } : {}),
    ...(t.source ? { sender: t.source } : {}),
    self: t.destination,
    now: env.now,
    level: env.level,
    chainId: env.chainId,
    gasLimit: Number(ctx.gas.left),
    chain: ctx.chain('call'),
    allocateBigMapId: () => state.allocateBigMapId(),
    // Big maps passed on to other contracts get temporary negative ids, as in Octez.
    allocateTemporaryBigMapId: () => state.allocateTemporaryBigMapId(),
    allocateSaplingId: () => state.allocateSaplingId(),
    allocateTemporarySaplingId: () => state.allocateTemporarySaplingId(),
    ...(env.unparsingMode ? { unparsingMode: env.unparsingMode } : {}),
    ticketsInParameter: t.internal,
  });
  ctx.gas.left -= BigInt(run.consumedMilligas);
  if (!run.ok)
    throw ctx.fail({
      kind: 'script_failed',
      contract: t.destination,
      run,
      milligas: gasBefore - ctx.gas.left,
      internal: t.internal,
    });
  const lazyBytes = state.applyLazy(run.lazyStorageDiff, t.destination);
  const after = state.contract(t.destination)!;
  const newStorageBytes = BigInt(run.storageSize);
  const { used, paid, paidDiff } = afterCall({
    used: after.used,
    paid: after.paid,
    oldStorageBytes: contract.storageBytes,
    newStorageBytes,
    lazyBytes,
  });
  state.update(t.destination, { storage: run.storage, storageBytes: newStorageBytes, used, paid });
  return { kind: 'contract', run, used, paidDiff };
}

export interface Origination {
  source: string;
  balance: bigint;
  code: Expr;
  storage: Expr;
  delegate?: string;
  /** The address the protocol gave an emitted origination (absent: the state's next). */
  address?: string;
  internal: boolean;
}

/**
 * An origination: 1000 gas, the script and storage typechecked (their gas), the delegate checked, the contract
 * created with its balance, its lazy storage applied, and all its bytes used and paid.
 */
export function applyOrigination(
  ctx: ApplyContext,
  o: Origination,
): { address: string; used: bigint; run: OkOrigination } {
  const { state, policy } = ctx;
  const codeBytes = exprBytes(o.code);
  consume(ctx, BigInt(OPERATION_COST.origination));
  const run = originateContract({
    script: o.code,
    storage: o.storage,
    chain: ctx.chain('origination'),
    gasLimit: Number(ctx.gas.left),
    allocateBigMapId: () => state.allocateBigMapId(),
    allocateSaplingId: () => state.allocateSaplingId(),
    ...(ctx.env.unparsingMode ? { unparsingMode: ctx.env.unparsingMode } : {}),
    ticketsInStorage: o.internal,
  });
  ctx.gas.left -= BigInt(run.consumedMilligas);
  if (!run.ok) throw ctx.fail({ kind: 'origination_failed', run });
  if (o.delegate && policy.isDelegate && !policy.isDelegate(o.delegate))
    throw ctx.fail({ kind: 'unregistered_delegate', delegate: o.delegate });
  const address = o.address ?? state.nextAddress();
  if (state.contract(address)) throw ctx.fail({ kind: 'duplicate_contract', contract: address });
  const storageBytes = state.create(address, {
    code: o.code,
    run,
    ...(o.delegate ? { delegate: o.delegate } : {}),
  });
  state.move(o.source, address, o.balance, !o.internal);
  const lazyBytes = state.applyLazy(run.lazyStorageDiff, address);
  const used = originatedBytes(codeBytes, storageBytes, lazyBytes);
  state.update(address, { used, paid: used });
  return { address, used, run };
}

/** A delegation a contract emits: 100 gas, the delegate checked (when the policy does), the delegate set. */
export function applyDelegation(ctx: ApplyContext, d: { source: string; delegate: string | null }): void {
  consume(ctx, BigInt(OPERATION_COST.internalTransfer));
  if (d.delegate && ctx.policy.isDelegate && !ctx.policy.isDelegate(d.delegate))
    throw ctx.fail({ kind: 'unregistered_delegate', delegate: d.delegate });
  ctx.state.setDelegate?.(d.source, d.delegate);
}

/** An event a contract emits: its gas. */
export function applyEvent(ctx: ApplyContext): void {
  consume(ctx, BigInt(OPERATION_COST.event));
}
