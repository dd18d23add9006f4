/**
 * The flow graph of an indexed operation group (`GET /v1/opg/{network}/{hash}/flow`): the group's rows in
 * execution order, rendered as the group route renders them (decoded parameters and payloads), with the
 * token ledgers' big-map deltas, the ticket updates, aliases, contract tags and token metadata.
 */
import type { FlowGraph, FlowTicketMovement } from '@michelscope/api-types';
import {
  aliasesOf,
  bigMapDiffsOfOperation,
  contractTagsOf,
  getScriptTypes,
  operationsByHash,
  previousKeyValues,
  ticketUpdatesOfOperations,
  tokenMetadataOf,
  type Db,
  type OperationRow,
  type TicketUpdateRow,
} from '@michelscope/db/read';
import { tagsFromMask, toMicheline, type Micheline } from '@michelscope/michelson';
import { renderOperations } from '../render/operation';
import { ticketContent } from '../render/tickets';
import {
  buildFlow,
  enrichFlow,
  flowTokens,
  FLOW_EDGE_CAP,
  ledgerKey,
  tokenKey,
  tokenTransfers,
  type FlowLookup,
  type FlowOp,
} from './build';
import { ledgerBigMaps, type LedgerBigMap } from './ledger';

/** Rows read for one group at most (the edges are capped lower). */
const ROW_LIMIT = 2000;

/** The group's rows in execution order: content by content, each followed by its internal operations. */
export function executionOrder(rows: readonly OperationRow[]): OperationRow[] {
  return [...rows].sort((a, b) => a.content_index - b.content_index || a.id - b.id);
}

/** The flow graph of group `hash`, or undefined when the index has no operation of it. */
export async function opgFlow(
  db: Db,
  network: string,
  hash: string,
  cap = FLOW_EDGE_CAP,
): Promise<FlowGraph | undefined> {
  const all = executionOrder(await operationsByHash(db, network, hash, ROW_LIMIT));
  if (all.length === 0) return undefined;
  const rows = all.slice(0, cap);
  const rendered = await renderOperations(db, network, rows);
  const types = await getScriptTypes(
    db,
    network,
    rows.map((r) => r.destination).filter((d): d is string => !!d && d.startsWith('KT1')),
  );
  // the ticket updates of every operation that has some, in one statement
  const tickets = await ticketUpdatesOfOperations(
    db,
    network,
    rows.filter((r) => r.ticket_updates_count > 0).map((r) => r.id),
  );
  const ops: FlowOp[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const r = rendered[i]!;
    const op: FlowOp = {
      kind: row.kind,
      status: row.status,
      source: row.source,
      destination: row.destination,
      delegate: row.delegate,
      amount: row.amount,
      entrypoint: row.entrypoint,
      parameters: r.parameters,
      tag: row.tag,
      payload: r.payload,
      internal: row.internal,
      content_index: row.content_index,
      counter: row.counter,
      nonce: row.nonce,
      id: row.id,
      ...(row.internal ? {} : { fee: row.fee }),
      burned: String(BigInt(row.burned ?? 0) + BigInt(row.allocated_destination_contract_burned ?? 0)),
    };
    if (row.ticket_updates_count > 0) op.tickets = ticketMovements(tickets.get(row.id) ?? []);
    const t = row.destination ? types.get(row.destination) : undefined;
    if (
      t &&
      row.status === 'applied' &&
      row.storage != null &&
      tokenTransfers(row.destination!, row.entrypoint, r.parameters).length > 0
    )
      op.ledger = await ledgerDeltas(db, network, row, toMicheline(t.storage));
    ops.push(op);
  }
  const graph = buildFlow(ops, cap);
  graph.truncated = all.length > cap;
  graph.total_operations = all.length;
  return enrichFlow(graph, await flowLookup(db, network, graph));
}

function ticketMovements(rows: readonly TicketUpdateRow[]): FlowTicketMovement[] {
  return rows.map((u) => {
    const { content } = ticketContent(u.content_type, u.content);
    return {
      ticketer: u.ticketer,
      content_type: u.content_type,
      ...(content ? { content } : {}),
      account: u.account,
      amount: String(u.amount),
    };
  });
}

/**
 * What an applied call wrote to its token ledger(s): `holder|token_id` → new balance minus the balance
 * before (a removed key is 0). Undefined when the storage has no ledger big map.
 */
export async function ledgerDeltas(
  db: Db,
  network: string,
  row: OperationRow,
  storageType: Micheline,
): Promise<Map<string, bigint> | undefined> {
  let ledgers: LedgerBigMap[];
  try {
    ledgers = ledgerBigMaps(storageType, toMicheline(row.storage));
  } catch {
    return undefined;
  }
  if (ledgers.length === 0) return undefined;
  const byPtr = new Map(ledgers.map((l) => [l.ptr, l]));
  const out = new Map<string, bigint>();
  if (row.big_map_diffs_count === 0) return out;
  const diffs = (await bigMapDiffsOfOperation(db, row.id)).filter((d) => byPtr.has(d.ptr));
  if (diffs.length === 0) return out;
  const before = await previousKeyValues(db, network, diffs, diffs[0]!.id);
  const last = new Map<string, (typeof diffs)[number]>();
  for (const d of diffs) last.set(`${d.ptr}:${d.key_hash}`, d);
  for (const [k, d] of last) {
    const holder = byPtr.get(d.ptr)!.holder(toMicheline(d.key));
    if (!holder) continue;
    const after = natOf(d.value);
    const prev = natOf(before.get(k));
    const key = ledgerKey(holder.address, holder.tokenId);
    out.set(key, (out.get(key) ?? 0n) + after - prev);
  }
  return out;
}

const natOf = (v: unknown): bigint => {
  const m = v == null ? undefined : (toMicheline(v) as { int?: string });
  try {
    return m?.int != null ? BigInt(m.int) : 0n;
  } catch {
    return 0n;
  }
};

/** Aliases, tags and token metadata of a graph's nodes and tokens. */
export async function flowLookup(db: Db, network: string, g: FlowGraph): Promise<FlowLookup> {
  const aliases = new Map<string, string>();
  for (const a of await aliasesOf(
    db,
    g.nodes.map((n) => ({ network, address: n.address })),
  ))
    if (a.metadata) aliases.set(a.address, a.metadata);
  const tags = new Map<string, string[]>();
  const masks = await contractTagsOf(
    db,
    network,
    g.nodes.filter((n) => n.kind === 'contract').map((n) => n.address),
  );
  for (const [address, mask] of masks) {
    const t = tagsFromMask(mask);
    if (t.length) tags.set(address, t);
  }
  const tokens: FlowLookup['tokens'] = new Map();
  const meta = await tokenMetadataOf(
    db,
    flowTokens(g).map((t) => ({ network, contract: t.contract, tokenId: t.token_id })),
  );
  for (const m of meta) {
    const j = (m.metadata ?? {}) as Record<string, unknown>;
    const decimals = Number(j.decimals);
    tokens.set(tokenKey(m.contract, m.tokenId), {
      ...(typeof j.symbol === 'string' ? { symbol: j.symbol } : {}),
      ...(typeof j.name === 'string' ? { name: j.name } : {}),
      ...(j.decimals != null && Number.isInteger(decimals) && decimals >= 0 ? { decimals } : {}),
    });
  }
  return { aliases, tags, tokens };
}
