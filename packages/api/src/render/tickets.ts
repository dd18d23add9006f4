import type { MiguelNode, TicketUpdate } from '@michelscope/api-types';
import type { TicketUpdateRow } from '@michelscope/db/read';
import { toMicheline, toMiguel, typedef } from '@michelscope/michelson';
import { formatTime } from '../time';

/** `content_type` as Typedef and `content` as a Miguel node (left out when they cannot be decoded). */
export function ticketContent(
  contentType: unknown,
  content: unknown,
): { content_type: TicketUpdate['content_type']; content?: MiguelNode } {
  try {
    const type = toMicheline(contentType);
    const out: { content_type: TicketUpdate['content_type']; content?: MiguelNode } = {
      content_type: typedef(type) ?? [],
    };
    try {
      out.content = toMiguel(type, toMicheline(content))[0];
    } catch {
      /* content does not match its type */
    }
    return out;
  } catch {
    return { content_type: [] };
  }
}

export function ticketUpdate(r: TicketUpdateRow): TicketUpdate {
  return {
    id: r.id,
    level: r.level,
    timestamp: formatTime(r.timestamp),
    ticket_id: r.ticket_id,
    ticketer: r.ticketer,
    address: r.account,
    amount: r.amount,
    operation_hash: r.operation_hash ?? '',
    ...ticketContent(r.content_type, r.content),
  };
}
