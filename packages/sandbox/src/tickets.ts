// Tickets held in a contract's storage (including the values of its big maps), for `all_ticket_balances` and for the
// `ticket_updates` / `ticket_receipt` of receipts (the change of the called contract's holdings); tickets carried
// by a value (a call's argument, an emitted operation); and Octez' ticket-balance table (`t:<owner>:<token>`, for
// implicit accounts and contracts alike) with its used and paid bytes.
import {
  defaultEnv,
  Interpreter,
  parseData,
  toTy,
  tyToExpr,
  unparse,
  type Expr,
  type Ty,
  type V,
} from '@michelscope/interpreter';
import { chainContext, expandedCode, scriptSections } from './chain-context';
import { CHAIN_ID } from './protocol';
import type { State } from './state';

export interface TicketToken {
  ticketer: string;
  content_type: Expr;
  content: Expr;
}

export interface TicketUpdate {
  ticket_token: TicketToken;
  updates: Array<{ account: string; amount: string }>;
}

export type Holdings = Map<string, { token: TicketToken; amount: bigint }>;

/** The token of a ticket value, as receipts write it. */
export function tokenOf(v: Extract<V, { k: 'ticket' }>): TicketToken {
  return {
    ticketer: v.ticketer,
    content_type: tyToExpr(v.t.args[0]!),
    content: unparse(v.content, 'Readable'),
  };
}

/** A token given by a client (transfer_ticket), normalised like `tokenOf`; throws when ill-typed. */
export function normalizeToken(ticketer: string, type: Expr, content: Expr): TicketToken {
  const ty = toTy(type);
  const v = parseData(content, ty, {});
  return { ticketer, content_type: tyToExpr(ty), content: unparse(v, 'Readable') };
}

/** Reads the stored values of big map `id` (a value type holding tickets) as values. */
type BigMapReader = (id: bigint, bigMapTy: Ty) => V[];

function collect(v: V, out: Holdings, read?: BigMapReader): void {
  switch (v.k) {
    case 'ticket': {
      const token = tokenOf(v);
      const key = JSON.stringify(token);
      const held = out.get(key);
      out.set(key, { token, amount: (held?.amount ?? 0n) + v.amount });
      break;
    }
    case 'pair':
      collect(v.a, out, read);
      collect(v.b, out, read);
      break;
    case 'or':
      collect(v.v, out, read);
      break;
    case 'option':
      if (v.v) collect(v.v, out, read);
      break;
    case 'list':
    case 'set':
      for (const x of v.v) collect(x, out, read);
      break;
    case 'map':
      for (const [, x] of v.v) collect(x, out, read);
      break;
    case 'big_map':
      // A stored big map (or a temporary one, negative id): its values as stored. Tickets never sit
      // in a not-yet-stored one here.
      if (read && v.id !== null) for (const x of read(v.id, v.t)) collect(x, out, read);
      break;
    default:
      break;
  }
}

function hasTicketType(e: unknown): boolean {
  return JSON.stringify(e).includes('"prim":"ticket"');
}

/** Reads the values of stored big maps (those whose value type holds tickets) from `state`. */
function bigMapReader(state: State, ctx: ReturnType<Interpreter['dataContext']>): BigMapReader {
  return (id, t) => {
    const valueTy = t.args[1];
    if (!valueTy || !hasTicketType(tyToExpr(valueTy))) return [];
    const values: V[] = [];
    for (const h of state.bigMapKeyHashes(String(id))) {
      const entry = state.bigMapEntry(String(id), h);
      if (entry) values.push(parseData(entry.value, valueTy, ctx));
    }
    return values;
  };
}

function ticketContext(state: State): ReturnType<Interpreter['dataContext']> {
  const it = new Interpreter({ env: defaultEnv({ chainId: CHAIN_ID }), chain: chainContext(state) });
  return { ...it.dataContext(), allowTickets: true };
}

/** Tickets in a contract's storage value, by token. Empty when its storage type has none. */
export function ticketHoldings(state: State, code: unknown, storage: unknown): Holdings {
  const out: Holdings = new Map();
  const type = scriptSections(expandedCode(state, code)).storage;
  if (!type || !hasTicketType(type)) return out;
  try {
    const ctx = ticketContext(state);
    collect(parseData(storage as Expr, toTy(type), ctx), out, bigMapReader(state, ctx));
  } catch {
    // a storage we cannot read back has no ticket we can report
  }
  return out;
}

/**
 * Tickets carried by a typed value (a call's argument, an emitted operation's parameter or storage),
 * including the values of the big maps it refers to (`Ticket_scanner.tickets_of_value ~include_lazy:true`).
 */
export function ticketsOfValue(state: State, value: V): Holdings {
  const out: Holdings = new Map();
  if (!hasTicketType(tyToExpr(value.t))) return out;
  collect(value, out, bigMapReader(state, ticketContext(state)));
  return out;
}

/**
 * Bytes of one entry of Octez' ticket-balance table (`Ticket_balance_storage.set_balance`): 65 for
 * the key plus the balance as a Zarith number (6 bits in the first byte, 7 in each next one); 0 for
 * a zero balance (the entry is removed).
 */
export function ticketEntryBytes(balance: bigint): bigint {
  if (balance === 0n) return 0n;
  let bytes = 1n;
  for (let bits = balance.toString(2).length - 6; bits > 0; bits -= 7) bytes++;
  return 65n + bytes;
}

export interface TicketBalanceChange {
  owner: string;
  token: TicketToken;
  delta: bigint;
}

/**
 * Applies balance changes to the ticket-balance table (`Ticket_balance.adjust_balance` for each) and
 * returns the table's size change in bytes. A balance that would go below zero is set to zero: only
 * a chain created before contracts' entries were kept (their tickets then had no entry) gets there.
 */
export function adjustTicketBalances(state: State, changes: TicketBalanceChange[]): bigint {
  let size = 0n;
  for (const { owner, token, delta } of changes) {
    if (delta === 0n) continue;
    const before = state.ticketBalance(owner, token);
    const after = before + delta < 0n ? 0n : before + delta;
    state.setTicketBalance(owner, token, after);
    size += ticketEntryBytes(after) - ticketEntryBytes(before);
  }
  return size;
}

/**
 * Adds `diff` bytes to the table's used space and returns the growth beyond what was already paid
 * (`Ticket_balance_storage.adjust_storage_space`): the part of `paid_storage_size_diff` to burn.
 */
export function adjustTicketStorage(state: State, diff: bigint): bigint {
  if (diff === 0n) return 0n;
  const used = BigInt((state.kv.get('n:ticket_used') as string | undefined) ?? '0') + diff;
  const paid = BigInt((state.kv.get('n:ticket_paid') as string | undefined) ?? '0');
  state.kv.set('n:ticket_used', String(used < 0n ? 0n : used));
  if (used <= paid) return 0n;
  state.kv.set('n:ticket_paid', String(used));
  return used - paid;
}

/** `[{ticket_token, updates: [{account, amount}]}]` for the change of `account`'s holdings. */
export function ticketUpdates(account: string, before: Holdings, after: Holdings): TicketUpdate[] {
  const out: TicketUpdate[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const delta = (after.get(key)?.amount ?? 0n) - (before.get(key)?.amount ?? 0n);
    if (delta === 0n) continue;
    out.push({
      ticket_token: (after.get(key) ?? before.get(key))!.token,
      updates: [{ account, amount: String(delta) }],
    });
  }
  return out;
}

/** `all_ticket_balances`: `[{ticketer, content_type, content, amount}]`. */
export function ticketBalances(holdings: Holdings): Array<TicketToken & { amount: string }> {
  return [...holdings.values()]
    .filter((h) => h.amount > 0n)
    .map((h) => ({ ...h.token, amount: String(h.amount) }));
}
