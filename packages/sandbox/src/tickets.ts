// Tickets held in a contract's storage (including the values of its big maps), for `all_ticket_balances` and for the
// `ticket_updates` / `ticket_receipt` of receipts (the change of the called contract's holdings).
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

type Holdings = Map<string, { token: TicketToken; amount: bigint }>;

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
      // A stored big map: its values as stored. Tickets never sit in a not-yet-stored one here.
      if (read && v.id !== null && v.id >= 0n) for (const x of read(v.id, v.t)) collect(x, out, read);
      break;
    default:
      break;
  }
}

function hasTicketType(e: unknown): boolean {
  return JSON.stringify(e).includes('"prim":"ticket"');
}

/** Tickets in a contract's storage value, by token. Empty when its storage type has none. */
export function ticketHoldings(state: State, code: unknown, storage: unknown): Holdings {
  const out: Holdings = new Map();
  const type = scriptSections(expandedCode(state, code)).storage;
  if (!type || !hasTicketType(type)) return out;
  try {
    const it = new Interpreter({ env: defaultEnv({ chainId: CHAIN_ID }), chain: chainContext(state) });
    const ctx = { ...it.dataContext(), allowTickets: true };
    const read: BigMapReader = (id, t) => {
      const valueTy = t.args[1];
      if (!valueTy || !hasTicketType(tyToExpr(valueTy))) return [];
      const values: V[] = [];
      for (const h of state.bigMapKeyHashes(String(id))) {
        const entry = state.bigMapEntry(String(id), h);
        if (entry) values.push(parseData(entry.value, valueTy, ctx));
      }
      return values;
    };
    collect(parseData(storage as Expr, toTy(type), ctx), out, read);
  } catch {
    // a storage we cannot read back has no ticket we can report
  }
  return out;
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
