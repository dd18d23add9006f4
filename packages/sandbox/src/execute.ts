// Execution of what a manager operation does once its fees are paid: tez transfers, contract calls and
// originations (including CREATE_CONTRACT) by the engine's per-kind application (`@michelscope/engine`, over the
// sandbox's ChainState: chain-state.ts), with the sandbox's receipts and its ticket accounting around them;
// delegations, events, and the depth-first run of the internal operations that contracts emit.
import {
  applyDelegation,
  applyEvent,
  applyInternalOperations,
  applyOrigination,
  applyTransaction,
} from '@michelscope/engine';
import { parseData, toTy, type EmittedOperation, type Expr, type V } from '@michelscope/interpreter';
import { applyContext } from './chain-state';
import {
  EVENT_MILLIGAS,
  INTERNAL_TRANSFER_MILLIGAS,
  MANAGER_MILLIGAS,
  OpFailure,
  fail,
  type Exec,
} from './exec-context';
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
import { reportedDiff } from './lazy-storage';
import type { BalanceUpdate, InternalResult, ManagerContent, OperationResult } from './operation-types';
import { PROTO_ERROR_PREFIX as P } from './protocol';
import { isOriginated, type State } from './state';

export * from './exec-context';

/** The receipt's balance updates of a move of tez (none for 0). */
function moved(ex: Exec, from: string, to: string, amount: bigint): BalanceUpdate[] {
  if (amount === 0n) return [];
  return [
    { kind: 'contract', contract: from, change: `-${amount}`, origin: ex.origin },
    { kind: 'contract', contract: to, change: String(amount), origin: ex.origin },
  ];
}

export interface Applied {
  result: OperationResult;
  emitted: EmittedOperation[];
  /** Source of the emitted operations. */
  self?: string;
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
  const indexed: Array<{ address: string; index: string }> = [];
  const contract = isOriginated(t.destination) ? ex.state.contract(t.destination) : undefined;
  const ticketsBefore = contract && ticketHoldings(ex.state, contract.code, contract.storage);
  const applied = applyTransaction(applyContext(ex, indexed), t);
  const updates = moved(ex, t.source, t.destination, t.amount);
  const result: OperationResult = { status: 'applied' };
  if (applied.kind === 'implicit') {
    if (updates.length > 0) result.balance_updates = updates;
    if (applied.ticket) {
      // Since Mumbai, contracts may send tickets to implicit accounts, which hold them. The sender's
      // application already credited them in the ticket-balance table (and paid its growth).
      const ticket = applied.ticket;
      result.ticket_receipt = [
        {
          ticket_token: tokenOf(ticket),
          updates: [{ account: t.destination, amount: String(ticket.amount) }],
        },
      ];
      result.consumed_milligas = String(INTERNAL_TRANSFER_MILLIGAS);
      return { result, emitted: [] };
    }
    result.consumed_milligas = String(t.internal ? INTERNAL_TRANSFER_MILLIGAS : MANAGER_MILLIGAS);
    if (applied.allocated) result.allocated_destination_contract = true;
    return { result, emitted: [] };
  }
  const { run, used, paidDiff } = applied;
  const ticketsAfter = ticketHoldings(ex.state, contract!.code, run.storage);
  const ticketPaid = adjustTicketStorage(
    ex.state,
    adjustTicketBalances(ex.state, [
      ...selfTicketChanges(t.destination, ticketsBefore!, ticketsAfter, ex.state, t.carried),
      ...emittedTicketChanges(ex.state, run.operations),
    ]),
  );
  result.storage = run.storage;
  if (updates.length > 0) result.balance_updates = updates;
  const tickets = ticketUpdates(t.destination, ticketsBefore!, ticketsAfter);
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
  const { address, used, run } = applyOrigination(applyContext(ex), {
    ...o,
    code: o.code as Expr,
    storage: o.storage as Expr,
  });
  const updates = moved(ex, o.source, address, o.balance);
  const diff = o.internal ? reportedDiff(run.lazyStorageDiff) : run.lazyStorageDiff;
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
        applyDelegation(applyContext(ex), d);
        entry.result = { status: 'applied', consumed_milligas: String(INTERNAL_TRANSFER_MILLIGAS) };
      },
      event: (_e, entry) => {
        applyEvent(applyContext(ex));
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
