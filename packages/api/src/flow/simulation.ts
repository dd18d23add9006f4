/**
 * What a node simulation's receipt adds to its flow graph (issue 37): each operation's ticket receipt as ticket
 * movements, and for a token transfer the ledger big maps' changes it made (its `lazy_storage_diff` against
 * the values at the block the node ran on, then against what the operations before it wrote).
 */
import type { FlowTicketMovement } from '@michelscope/api-types';
import { getScriptTypes } from '@michelscope/db/read';
import { toMicheline } from '@michelscope/michelson';
import type { ApiContext } from '../context';
import { nodeKeyValuesAt, type NodeBlock } from '../routes/simulate-node-state';
import { ticketContent } from '../render/tickets';
import { ledgerKey, tokenTransfers, type FlowOp } from './build';
import { ledgerBigMaps } from './ledger';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The results of a run_operation answer's first content: its own, then its internal operations'. */
export function receiptResults(res: { contents?: unknown[] }): Obj[] {
  const meta = obj(obj(res.contents?.[0]).metadata);
  return [
    obj(meta.operation_result),
    ...arr(meta.internal_operation_results)
      .slice(0, 1000)
      .map((x) => obj(obj(x).result)),
  ];
}

function tickets(result: Obj): FlowTicketMovement[] {
  const out: FlowTicketMovement[] = [];
  for (const r of arr(result.ticket_receipt ?? result.ticket_updates)) {
    const t = obj(obj(r).ticket_token);
    if (typeof t.ticketer !== 'string') continue;
    const { content } = ticketContent(t.content_type, t.content);
    for (const u of arr(obj(r).updates)) {
      const { account, amount } = obj(u);
      if (typeof account !== 'string') continue;
      out.push({
        ticketer: t.ticketer,
        content_type: t.content_type,
        ...(content ? { content } : {}),
        account,
        amount: String(amount),
      });
    }
  }
  return out;
}

const natOf = (v: unknown): bigint => {
  const i = obj(v).int;
  try {
    return typeof i === 'string' ? BigInt(i) : 0n;
  } catch {
    return 0n;
  }
};

/**
 * Adds ticket movements and ledger deltas to `ops` (the flow ops of the simulated call and its internal
 * operations, in the receipt's order) from the receipt `res` the node answered at `block`.
 */
export async function addReceiptFacts(
  ctx: ApiContext,
  network: string,
  ops: FlowOp[],
  res: { contents?: unknown[] },
  block: NodeBlock,
): Promise<void> {
  const results = receiptResults(res);
  if (results.length !== ops.length) return;
  const dests = ops.map((o) => o.destination).filter((d): d is string => !!d?.startsWith('KT1'));
  const types = await getScriptTypes(ctx.readDb, network, dests);
  /** What the operations so far wrote (`ptr:key_hash` → value, null when removed). */
  const current = new Map<string, unknown>();
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const r = results[i]!;
    const t = tickets(r);
    if (t.length) op.tickets = t;
    const updates: Array<{ ptr: number; key_hash: string; key: unknown; value: unknown }> = [];
    for (const d of arr(r.lazy_storage_diff)) {
      const { kind, id, diff } = obj(d);
      if (kind !== 'big_map') continue;
      for (const u of arr(obj(diff).updates)) {
        const { key_hash, key, value } = obj(u);
        if (typeof key_hash === 'string') updates.push({ ptr: Number(id), key_hash, key, value });
      }
    }
    const type = op.destination ? types.get(op.destination) : undefined;
    if (
      type &&
      op.status === 'applied' &&
      r.storage !== undefined &&
      tokenTransfers(op.destination!, op.entrypoint, op.parameters).length
    ) {
      try {
        const ledgers = new Map(
          ledgerBigMaps(toMicheline(type.storage), toMicheline(r.storage)).map((l) => [l.ptr, l]),
        );
        if (ledgers.size) {
          const mine = updates.filter((u) => ledgers.has(u.ptr));
          const unseen = mine.filter((u) => !current.has(`${u.ptr}:${u.key_hash}`));
          const before = await nodeKeyValuesAt(ctx, network, block, unseen);
          const ledger = new Map<string, bigint>();
          for (const u of mine) {
            const k = `${u.ptr}:${u.key_hash}`;
            const prev = current.has(k) ? current.get(k) : (before.get(k) ?? null);
            const h = ledgers.get(u.ptr)!.holder(toMicheline(u.key));
            if (!h) continue;
            const lk = ledgerKey(h.address, h.tokenId);
            ledger.set(lk, (ledger.get(lk) ?? 0n) + natOf(u.value) - natOf(prev));
            current.set(k, u.value ?? null);
          }
          op.ledger = ledger;
        }
      } catch {
        /* an undecodable storage: the movements stay unchecked */
      }
    }
    for (const u of updates) current.set(`${u.ptr}:${u.key_hash}`, u.value ?? null);
  }
}
