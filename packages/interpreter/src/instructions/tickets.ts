/** Tickets: TICKET, READ_TICKET, SPLIT_TICKET, JOIN_TICKETS (ticketer = the running contract). */
import { addressToHex } from '../encoding';
import { staticError } from '../errors';
import type { Handler } from '../interpreter';
import { peek, pop, register } from '../interpreter';
import type { Ty } from '../types';
import { T, checkComparable, pairT, tyEq } from '../types';
import type { TicketV, V } from '../values';
import { asKind, nat, none, pair, some } from '../values';
import { compareTyped } from '../compare';

const ticketT = (t: Ty): Ty => ({ prim: 'ticket', args: [t] });

const table: Record<string, Handler> = {
  TICKET(it, _ins, s) {
    const content = pop(s);
    const amount = asKind(pop(s), 'num');
    if (amount.t.prim !== 'nat') throw staticError('bad_stack', 'TICKET amount must be a nat');
    checkComparable(content.t);
    const t = ticketT(content.t);
    if (amount.v === 0n) {
      s.push(none(t));
      return;
    }
    s.push(some({ k: 'ticket', t, ticketer: it.env.self, content, amount: amount.v }));
  },
  READ_TICKET(_it, _ins, s) {
    const tk = asKind(peek(s), 'ticket');
    const addr: V = { k: 'address', t: T.address, hex: addressToHex(tk.ticketer), str: tk.ticketer, ep: '' };
    s.push(pair(addr, pair(tk.content, nat(tk.amount))));
  },
  SPLIT_TICKET(_it, _ins, s) {
    const tk = asKind(pop(s), 'ticket');
    const amounts = asKind(pop(s), 'pair');
    const a = asKind(amounts.a, 'num').v;
    const b = asKind(amounts.b, 'num').v;
    if (a === 0n || b === 0n || a + b !== tk.amount) {
      s.push(none(pairT(tk.t, tk.t)));
      return;
    }
    const part = (amount: bigint): TicketV => ({ ...tk, amount });
    s.push(some(pair(part(a), part(b))));
  },
  JOIN_TICKETS(_it, _ins, s) {
    const p = asKind(pop(s), 'pair');
    const x = asKind(p.a, 'ticket');
    const y = asKind(p.b, 'ticket');
    if (!tyEq(x.t, y.t)) throw staticError('inconsistent_types', 'JOIN_TICKETS of different ticket types');
    if (x.ticketer !== y.ticketer || compareTyped(x.content, y.content) !== 0) {
      s.push(none(x.t));
      return;
    }
    s.push(some({ ...x, amount: x.amount + y.amount }));
  },
};

register(table);
