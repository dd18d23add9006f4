// Execution of what a manager operation does once its fees are paid: tez transfers, contract calls
// through the interpreter, originations (including CREATE_CONTRACT), delegations, events, and the
// depth-first run of the internal operations that contracts emit.
// Over ~400 lines because transfer, originate and the internal-operation host share the Exec context and its
// failure and gas rules (OpFailure, consume), and each is a single protocol operation kind with its checks in
// Octez's order.
import { afterCall, applyInternalOperations, originatedBytes } from '@michelscope/engine';
import { originatedContractAddress } from '@michelscope/michelson';
import {
  OPERATION_COST,
  originateContract,
  parseData,
  runContract,
  toTy,
  type EmittedOperation,
  type Expr,
  type V,
} from '@michelscope/interpreter';
import { chainContext } from './chain-context';
import {
  adjustTicketBalances,
  adjustTicketStorage,
  normalizeToken,
  ticketHoldings,
  ticketsOfValue,
  ticketUpdates,
  tokenOf,
  type Holdings,
  type TicketBalanceChange,
  type TicketToken,
} from './tickets';
import { applyLazyStorageDiff, exprSize, reportedDiff } from './lazy-storage';
import type {
  BalanceUpdate,
  InternalResult,
  ManagerContent,
  NodeError,
  OperationResult,
} from './operation-types';
import { CHAIN_ID, PROTO_ERROR_PREFIX as P } from './protocol';
import type { Listings } from './voting';
import { isOriginated, type State } from './state';

export type Origin = 'block' | 'simulation';
const PROTO = P.slice('proto.'.length, -1);

/** Gas of the parts the interpreter does not meter: its `OPERATION_COST` parameters, as bigints. */
export const MANAGER_MILLIGAS = BigInt(OPERATION_COST.manager);
export const CALL_MILLIGAS = BigInt(OPERATION_COST.call);
export const ORIGINATION_MILLIGAS = BigInt(OPERATION_COST.origination);
export const INTERNAL_TRANSFER_MILLIGAS = BigInt(OPERATION_COST.internalTransfer);
export const EVENT_MILLIGAS = BigInt(OPERATION_COST.event);

/** What one operation group shares: its hash and the index of the next originated contract. */
export interface Group {
  hash: string;
  originations: number;
}

/** What one manager content shares while it runs. */
export interface Exec {
  state: State;
  group: Group;
  payer: string;
  origin: Origin;
  level: number;
  /** Block timestamp, seconds. */
  now: bigint;
  /** The voting listings of the block's context (VOTING_POWER). */
  listings?: () => Listings;
  gasLeft: bigint;
  nonce: number;
  /** Last temporary big-map id given out in this manager content (0, then -1, -2, …). */
  lastTemporaryBigMap: bigint;
  /** The same for Sapling states (a counter of their own, as Octez's Temp_ids). */
  lastTemporarySapling?: bigint;
}

export class OpFailure extends Error {
  constructor(
    readonly errors: NodeError[],
    /** Gas used before failing (reported on `failed` results). */
    readonly milligas?: bigint,
  ) {
    super(errors.map((e) => e.id).join(', '));
  }
}

export function fail(
  id: string,
  fields: Record<string, unknown> = {},
  kind: NodeError['kind'] = 'temporary',
): never {
  throw new OpFailure([{ kind, id: `${P}${id}`, ...fields }]);
}

export function consume(ex: Exec, milligas: bigint): void {
  ex.gasLeft -= milligas;
  if (ex.gasLeft < 0n) fail('gas_exhausted.operation');
}

/** KT1 address of the n-th contract originated by an operation: michelson's (Octez Contract_hash.of_nonce). */
export const originatedAddress = originatedContractAddress;

export function nextAddress(group: Group): string {
  return originatedAddress(group.hash, group.originations++);
}

export function balanceTooLow(contract: string, balance: bigint, amount: bigint): NodeError[] {
  return [
    {
      kind: 'temporary',
      id: `${P}contract.balance_too_low`,
      contract,
      balance: String(balance),
      amount: String(amount),
    },
    { kind: 'temporary', id: `${P}tez.subtraction_underflow`, amounts: [String(balance), String(amount)] },
  ];
}

function moveTez(ex: Exec, from: string, to: string, amount: bigint): BalanceUpdate[] {
  const balance = ex.state.balance(from);
  if (balance < amount) throw new OpFailure(balanceTooLow(from, balance, amount));
  if (amount === 0n) return [];
  ex.state.credit(from, -amount);
  ex.state.credit(to, amount);
  return [
    { kind: 'contract', contract: from, change: `-${amount}`, origin: ex.origin },
    { kind: 'contract', contract: to, change: String(amount), origin: ex.origin },
  ];
}

function scriptErrors(address: string, errors: NodeError[], kind: string): NodeError[] {
  if (kind === 'gas_exhausted' || kind === 'bad_contract_parameter') return errors;
  return [
    {
      kind: 'temporary',
      id: `${P}michelson_v1.runtime_error`,
      contract_handle: address,
      contract_code: 'Deprecated',
    },
    ...errors,
  ];
}

export interface Applied {
  result: OperationResult;
  emitted: EmittedOperation[];
  /** Source of the emitted operations. */
  self?: string;
}

function isUnitDefault(entrypoint: string, value: unknown): boolean {
  const v = value as { prim?: string; args?: unknown[] } | undefined;
  return entrypoint === 'default' && (v === undefined || (v.prim === 'Unit' && !v.args?.length));
}

/**
 * The called contract's own entries in the ticket-balance table (`Ticket_accounting.ticket_diffs`):
 * the change of the tickets in its storage minus those that came in the argument, which the sender
 * already credited to it.
 */
function selfTicketChanges(
  self: string,
  before: Holdings,
  after: Holdings,
  state: State,
  carried: V | undefined,
): TicketBalanceChange[] {
  const arg = carried ? ticketsOfValue(state, carried) : new Map<string, never>();
  const out: TicketBalanceChange[] = [];
  for (const key of new Set([...before.keys(), ...after.keys(), ...arg.keys()])) {
    const token = (after.get(key) ?? before.get(key) ?? arg.get(key))!.token;
    const delta =
      (after.get(key)?.amount ?? 0n) - (before.get(key)?.amount ?? 0n) - (arg.get(key)?.amount ?? 0n);
    if (delta !== 0n) out.push({ owner: self, token, delta });
  }
  return out;
}

/**
 * The receivers' entries for the tickets that a contract's operations carry
 * (`Ticket_operations_diff`): a transaction's parameter (to a contract or an implicit account) and
 * an origination's storage, credited when the emitting contract's call is applied.
 */
function emittedTicketChanges(state: State, operations: EmittedOperation[]): TicketBalanceChange[] {
  const out: TicketBalanceChange[] = [];
  for (const { raw } of operations) {
    const carried =
      raw.kind === 'transaction'
        ? { owner: raw.destination, value: raw.parameter }
        : raw.kind === 'origination'
          ? { owner: raw.address, value: raw.storage }
          : undefined;
    if (!carried) continue;
    for (const { token, amount } of ticketsOfValue(state, carried.value).values())
      out.push({ owner: carried.owner, token, delta: amount });
  }
  return out;
}

/** A transaction from `source` (implicit or contract); calls the destination's script if any. */
export function transfer(
  ex: Exec,
  t: {
    source: string;
    destination: string;
    amount: bigint;
    entrypoint: string;
    parameter?: Expr;
    internal: boolean;
    /** The typed parameter of an internal call (it may carry tickets). */
    carried?: V;
  },
): Applied {
  // Everything charged from here on is reported in this result's consumed_milligas (including an
  // internal call's own 100 gas), so the receipts' sum is what the gas limit must cover.
  const gasBefore = ex.gasLeft;
  if (t.internal) consume(ex, INTERNAL_TRANSFER_MILLIGAS);
  if (!isOriginated(t.destination)) {
    if (t.carried?.k === 'ticket' && t.internal && t.entrypoint === 'default') {
      // Since Mumbai, contracts may send tickets to implicit accounts, which hold them. The sender's
      // application already credited them in the ticket-balance table (and paid its growth).
      const ticket = t.carried;
      const token = tokenOf(ticket);
      const updates = moveTez(ex, t.source, t.destination, t.amount);
      const result: OperationResult = { status: 'applied' };
      if (updates.length > 0) result.balance_updates = updates;
      result.ticket_receipt = [
        { ticket_token: token, updates: [{ account: t.destination, amount: String(ticket.amount) }] },
      ];
      result.consumed_milligas = String(INTERNAL_TRANSFER_MILLIGAS);
      return { result, emitted: [] };
    }
    if (!isUnitDefault(t.entrypoint, t.parameter))
      fail('michelson_v1.bad_contract_parameter', { contract: t.destination }, 'permanent');
    if (t.amount === 0n && !t.internal)
      fail('contract.empty_transaction', { contract: t.destination }, 'branch');
    const allocate = ex.state.implicit(t.destination) === undefined;
    const updates = moveTez(ex, t.source, t.destination, t.amount);
    if (allocate && t.amount === 0n) ex.state.credit(t.destination, 0n);
    const result: OperationResult = { status: 'applied' };
    if (updates.length > 0) result.balance_updates = updates;
    result.consumed_milligas = String(t.internal ? INTERNAL_TRANSFER_MILLIGAS : MANAGER_MILLIGAS);
    if (allocate) result.allocated_destination_contract = true;
    return { result, emitted: [] };
  }
  const contract = ex.state.contract(t.destination);
  if (!contract) fail('contract.non_existing_contract', { contract: t.destination });
  consume(ex, CALL_MILLIGAS);
  const updates = moveTez(ex, t.source, t.destination, t.amount);
  const oldStorageSize = exprSize(contract.storage);
  const ticketsBefore = ticketHoldings(ex.state, contract.code, contract.storage);
  const indexed: Array<{ address: string; index: string }> = [];
  const run = runContract({
    script: contract.code,
    storage: contract.storage,
    parameter: t.parameter ?? { prim: 'Unit' },
    entrypoint: t.entrypoint,
    amount: t.amount,
    balance: ex.state.balance(t.destination),
    source: ex.payer,
    sender: t.source,
    self: t.destination,
    now: ex.now,
    level: BigInt(ex.level),
    chainId: CHAIN_ID,
    gasLimit: Number(ex.gasLeft),
    chain: chainContext(ex.state, {
      nextOriginatedAddress: () => nextAddress(ex.group),
      ...(ex.listings ? { listings: ex.listings } : {}),
      onAddressIndexed: (address, index) => indexed.push({ address, index: String(index) }),
    }),
    allocateBigMapId: () => ex.state.nextBigMapId(),
    // Big maps passed on to other contracts get temporary negative ids, as in Octez.
    allocateTemporaryBigMapId: () => (ex.lastTemporaryBigMap -= 1n),
    allocateSaplingId: () => ex.state.nextSaplingId(),
    allocateTemporarySaplingId: () => (ex.lastTemporarySapling = (ex.lastTemporarySapling ?? 0n) - 1n),
    unparsingMode: 'Optimized',
    ticketsInParameter: t.internal,
  });
  ex.gasLeft -= BigInt(run.consumedMilligas);
  if (!run.ok) {
    throw new OpFailure(
      scriptErrors(t.destination, run.error.toOctez(PROTO), run.error.kind),
      gasBefore - ex.gasLeft,
    );
  }
  const lazyDelta = applyLazyStorageDiff(ex.state, run.lazyStorageDiff);
  const after = ex.state.contract(t.destination)!;
  const { used, paid, paidDiff } = afterCall({
    used: BigInt(after.used),
    paid: BigInt(after.paid),
    oldStorageBytes: oldStorageSize,
    newStorageBytes: exprSize(run.storage),
    lazyBytes: lazyDelta,
  });
  ex.state.setContract(t.destination, {
    ...after,
    storage: run.storage,
    used: String(used),
    paid: String(paid),
  });
  const ticketsAfter = ticketHoldings(ex.state, contract.code, run.storage);
  const ticketPaid = adjustTicketStorage(
    ex.state,
    adjustTicketBalances(ex.state, [
      ...selfTicketChanges(t.destination, ticketsBefore, ticketsAfter, ex.state, t.carried),
      ...emittedTicketChanges(ex.state, run.operations),
    ]),
  );
  const result: OperationResult = { status: 'applied', storage: run.storage };
  if (updates.length > 0) result.balance_updates = updates;
  const tickets = ticketUpdates(t.destination, ticketsBefore, ticketsAfter);
  if (tickets.length > 0) result[t.internal ? 'ticket_receipt' : 'ticket_updates'] = tickets;
  result.consumed_milligas = String(gasBefore - ex.gasLeft + (t.internal ? 0n : MANAGER_MILLIGAS));
  result.storage_size = String(used);
  // As in Octez: the contract's own growth plus the growth of the ticket-balance table.
  if (paidDiff + ticketPaid > 0n) result.paid_storage_size_diff = String(paidDiff + ticketPaid);
  if (run.lazyStorageDiff.length > 0) result.lazy_storage_diff = run.lazyStorageDiff;
  // Octez's apply_results.ml: the registry entries this call added, after lazy_storage_diff
  if (indexed.length > 0) result.address_registry_diff = indexed;
  return { result, emitted: run.operations, self: t.destination };
}

/** Originates a contract: code and storage typechecked, big maps allocated, sizes recorded. */
export function originate(
  ex: Exec,
  o: {
    source: string;
    balance: bigint;
    code: unknown;
    storage: unknown;
    delegate?: string;
    address?: string;
    internal: boolean;
  },
): Applied {
  const gasBefore = ex.gasLeft;
  if (!o.code || typeof o.code !== 'object')
    throw new OpFailure([
      {
        kind: 'permanent',
        id: `${P}michelson_v1.ill_formed_type`,
        msg: 'script code must be a Micheline node',
      },
    ]);
  const codeSize = exprSize(o.code);
  consume(ex, ORIGINATION_MILLIGAS);
  const run = originateContract({
    script: o.code as Expr,
    storage: o.storage as Expr,
    chain: chainContext(ex.state),
    gasLimit: Number(ex.gasLeft),
    allocateBigMapId: () => ex.state.nextBigMapId(),
    allocateSaplingId: () => ex.state.nextSaplingId(),
    unparsingMode: 'Optimized',
    ticketsInStorage: o.internal,
  });
  ex.gasLeft -= BigInt(run.consumedMilligas);
  if (!run.ok) throw new OpFailure(run.error.toOctez(PROTO));
  if (o.delegate && !ex.state.isDelegate(o.delegate))
    fail('contract.manager.unregistered_delegate', { hash: o.delegate }, 'permanent');
  const address = o.address ?? nextAddress(ex.group);
  if (ex.state.contract(address)) fail('contract.duplicate_contract', { contract: address }, 'permanent');
  ex.state.setContract(address, {
    balance: '0',
    code: o.code as Expr[],
    storage: run.storage,
    used: '0',
    paid: '0',
    level: ex.level,
    ...(o.delegate ? { delegate: o.delegate } : {}),
  });
  const updates = moveTez(ex, o.source, address, o.balance);
  const diff = o.internal ? reportedDiff(run.lazyStorageDiff) : run.lazyStorageDiff;
  const lazyBytes = applyLazyStorageDiff(ex.state, run.lazyStorageDiff);
  const used = originatedBytes(codeSize, exprSize(run.storage), lazyBytes);
  ex.state.setContract(address, { ...ex.state.contract(address)!, used: String(used), paid: String(used) });
  const result: OperationResult = { status: 'applied' };
  if (updates.length > 0) result.balance_updates = updates;
  result.originated_contracts = [address];
  result.consumed_milligas = String(gasBefore - ex.gasLeft + (o.internal ? 0n : MANAGER_MILLIGAS));
  result.storage_size = String(used);
  result.paid_storage_size_diff = String(used);
  if (diff.length > 0) result.lazy_storage_diff = diff;
  return { result, emitted: [] };
}

/**
 * Runs the operations emitted by a contract with the engine's `applyInternalOperations` (depth first, each one's
 * own emissions before its next sibling), numbering nonces per manager content. On a failure the failing entry
 * gets `failed`, the ones not run yet `skipped`, and the error is rethrown for the caller to backtrack.
 */
export function runInternal(ex: Exec, first: Applied, out: InternalResult[]): void {
  const run = applyInternalOperations<InternalResult>(
    {
      entry: (op) => ({ ...op.json, nonce: ex.nonce++, result: { status: 'skipped' } }),
      transaction: (t, entry) => {
        const applied = transfer(ex, { ...t, internal: true });
        entry.result = applied.result;
        return applied.emitted;
      },
      origination: (o, entry) => {
        entry.result = originate(ex, { ...o, internal: true }).result;
      },
      delegation: (d, entry) => {
        consume(ex, INTERNAL_TRANSFER_MILLIGAS);
        const c = ex.state.contract(d.source)!;
        if (d.delegate && !ex.state.isDelegate(d.delegate))
          fail('contract.manager.unregistered_delegate', { hash: d.delegate }, 'permanent');
        const { delegate: _old, ...rest } = c;
        ex.state.setContract(d.source, d.delegate ? { ...rest, delegate: d.delegate } : rest);
        entry.result = { status: 'applied', consumed_milligas: String(INTERNAL_TRANSFER_MILLIGAS) };
      },
      event: (_e, entry) => {
        consume(ex, EVENT_MILLIGAS);
        entry.result = { status: 'applied', consumed_milligas: String(EVENT_MILLIGAS) };
      },
      isFailure: (e) => e instanceof OpFailure,
    },
    first.emitted,
  );
  out.push(...run.entries);
  if (run.failure) {
    const e = run.failure.error as OpFailure;
    if (run.failure.entry) run.failure.entry.result = { status: 'failed', errors: e.errors };
    throw e;
  }
}

/**
 * transfer_ticket: an implicit account sends tickets it holds. As in Octez' apply, the ticket-balance
 * table moves them from the sender to the destination at once (the growth of the table is the
 * result's `paid_storage_size_diff`, burned like any storage); to an implicit account that is all
 * (the receipt lists both accounts), to a contract an internal transaction carries the ticket to the
 * entrypoint (the receipt lists the sender, the internal result the contract).
 */
export function transferTicket(ex: Exec, c: ManagerContent): Applied {
  const amount = BigInt(c.ticket_amount ?? '0');
  if (amount <= 0n) fail('ticket_transfer.zero_amount', {}, 'permanent');
  let token: TicketToken;
  let content: V;
  try {
    token = normalizeToken(c.ticket_ticketer ?? '', c.ticket_ty as Expr, c.ticket_contents as Expr);
    content = parseData(c.ticket_contents as Expr, toTy(c.ticket_ty as Expr), {});
  } catch (e) {
    throw new OpFailure([
      {
        kind: 'permanent',
        id: `${P}michelson_v1.ill_typed_data`,
        message: e instanceof Error ? e.message : String(e),
      },
    ]);
  }
  const destination = c.destination!;
  const entrypoint = c.entrypoint ?? 'default';
  const held = ex.state.ticketBalance(c.source, token);
  if (held < amount)
    fail('ticket_balance.negative', { owner: c.source, held: String(held), amount: String(amount) });
  if (!isOriginated(destination) && entrypoint !== 'default')
    fail('michelson_v1.no_such_entrypoint', { entrypoint }, 'permanent');
  // `Ticket_transfer.transfer_ticket`: both entries move at once (a contract's before its script runs).
  const paidDiff = adjustTicketStorage(
    ex.state,
    adjustTicketBalances(ex.state, [
      { owner: c.source, token, delta: -amount },
      { owner: destination, token, delta: amount },
    ]),
  );
  const updates = [{ account: c.source, amount: String(-amount) }];
  if (!isOriginated(destination)) updates.push({ account: destination, amount: String(amount) });
  const result: OperationResult = {
    status: 'applied',
    ticket_updates: [{ ticket_token: token, updates }],
    consumed_milligas: String(MANAGER_MILLIGAS),
  };
  if (paidDiff > 0n) result.paid_storage_size_diff = String(paidDiff);
  if (!isOriginated(destination)) return { result, emitted: [] };
  const ticket: Extract<V, { k: 'ticket' }> = {
    k: 'ticket',
    t: { prim: 'ticket', args: [content.t] },
    ticketer: token.ticketer,
    content,
    amount,
  };
  const value: Expr = {
    prim: 'Pair',
    args: [
      { string: token.ticketer },
      { prim: 'Pair', args: [c.ticket_contents as Expr, { int: String(amount) }] },
    ],
  };
  const emitted: EmittedOperation = {
    json: {
      kind: 'transaction',
      source: c.source,
      nonce: 0,
      amount: '0',
      destination,
      parameters: { entrypoint, value },
    },
    raw: {
      kind: 'transaction',
      source: c.source,
      destination,
      entrypoint,
      amount: 0n,
      parameter: ticket,
      nonce: 0,
    },
  };
  return { result, emitted: [emitted] };
}
