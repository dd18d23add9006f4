/**
 * The operation flow graph (issue 37), built from a group's operations in execution order: one edge per
 * operation (capped), nodes for every address involved, token movements read from FA1.2/FA2 `transfer`
 * parameters (checked against the ledger deltas the caller read from the operation's big-map diffs), ticket
 * movements and events; per-node sums over the applied edges only (and the emitted ones of a debugger
 * recording, which are not run). One pass, O(n) in the operations.
 */
import type {
  FlowEdge,
  FlowGraph,
  FlowNode,
  FlowTicketMovement,
  FlowTokenMovement,
  FlowTokenRef,
  MiguelNode,
} from '@michelscope/api-types';

/** At most this many edges: a group of hundreds of internal operations is cut (`truncated`). */
export const FLOW_EDGE_CAP = 500;

/** An operation as the builder reads it (from an indexed row, a node receipt or a what-if run). */
export interface FlowOp {
  kind: string;
  status: string;
  source?: string | null;
  destination?: string | null;
  delegate?: string | null;
  amount?: string | number | null;
  entrypoint?: string | null;
  parameters?: MiguelNode[];
  tag?: string | null;
  payload?: MiguelNode[];
  internal: boolean;
  content_index?: number;
  counter?: number | null;
  nonce?: number | null;
  id?: number;
  /** The fee of a top-level content (paid whatever its status). */
  fee?: string | number | null;
  /** Storage burned by this operation (counted when applied, paid by its top-level content's source). */
  burned?: string | number | null;
  /** Ticket balance changes of this operation. */
  tickets?: FlowTicketMovement[];
  /**
   * The token ledger's balance changes this operation wrote (`holder|token_id` → signed delta), when the
   * destination's ledger big map was found; undefined when unknown (movements stay unchecked).
   */
  ledger?: Map<string, bigint>;
}

/** What the API knows about the addresses and tokens (filled after the build by {@link enrichFlow}). */
export interface FlowLookup {
  aliases?: Map<string, string>;
  tags?: Map<string, string[]>;
  tokens?: Map<string, { symbol?: string; decimals?: number; name?: string }>;
}

const STATUSES = new Set(['applied', 'failed', 'backtracked', 'skipped', 'emitted']);
/** Statuses whose movements count in the node sums: applied, and emitted (what a debugged call sends on). */
const COUNTED = new Set(['applied', 'emitted']);
const big = (v: string | number | null | undefined): bigint => {
  try {
    return BigInt(v ?? 0);
  } catch {
    return 0n;
  }
};

export const tokenKey = (contract: string, tokenId: string) => `${contract}|${tokenId}`;
export const ledgerKey = (holder: string, tokenId: string) => `${holder}|${tokenId}`;

/** The leaves of a value, right-comb pairs flattened (lists and other nodes kept whole). */
function leaves(n: MiguelNode | undefined): MiguelNode[] {
  if (!n) return [];
  if (n.prim === 'pair' && n.children) return n.children.flatMap(leaves);
  return [n];
}

const str = (n: MiguelNode | undefined): string | undefined =>
  n && (typeof n.value === 'string' || typeof n.value === 'number') ? String(n.value) : undefined;
const isAddr = (n: MiguelNode | undefined) => n?.prim === 'address' && typeof n.value === 'string';
const isNat = (n: MiguelNode | undefined) => n?.prim === 'nat' && /^\d+$/.test(str(n) ?? '');

/**
 * Token transfers a call's decoded parameter describes: FA1.2 `transfer(from, to, value)` and FA2
 * `transfer(list (from_, list (to_, token_id, amount)))`. Unchecked; an unrecognised shape gives [].
 */
export function tokenTransfers(
  contract: string,
  entrypoint: string | null | undefined,
  parameters: MiguelNode[] | undefined,
): FlowTokenMovement[] {
  if (entrypoint !== 'transfer' || !parameters?.[0]) return [];
  const root = parameters[0];
  const flat = leaves(root);
  if (flat.length === 3 && isAddr(flat[0]) && isAddr(flat[1]) && isNat(flat[2]))
    return [
      {
        token: { contract, token_id: '0', standard: 'fa1.2' },
        from: str(flat[0])!,
        to: str(flat[1])!,
        amount: str(flat[2])!,
        checked: false,
      },
    ];
  if (root.prim !== 'list') return [];
  const out: FlowTokenMovement[] = [];
  for (const item of root.children ?? []) {
    const [from, txs, ...rest] = leaves(item);
    if (!isAddr(from) || txs?.prim !== 'list' || rest.length) return [];
    for (const tx of txs.children ?? []) {
      const [to, id, amount, ...more] = leaves(tx);
      if (!isAddr(to) || !isNat(id) || !isNat(amount) || more.length) return [];
      out.push({
        token: { contract, token_id: str(id)!, standard: 'fa2' },
        from: str(from)!,
        to: str(to)!,
        amount: str(amount)!,
        checked: false,
      });
    }
  }
  return out;
}

/** Marks the movements checked when their net change per holder is what the ledger diffs show. */
function check(moves: FlowTokenMovement[], ledger: Map<string, bigint> | undefined): void {
  if (!ledger || moves.length === 0) return;
  const want = new Map<string, bigint>();
  const add = (k: string, d: bigint) => want.set(k, (want.get(k) ?? 0n) + d);
  for (const m of moves) {
    add(ledgerKey(m.from, m.token.token_id), -BigInt(m.amount));
    add(ledgerKey(m.to, m.token.token_id), BigInt(m.amount));
  }
  let ok = true;
  for (const [k, d] of want) if ((ledger.get(k) ?? 0n) !== d) ok = false;
  for (const m of moves) m.checked = ok;
}

const nodeKind = (a: string): FlowNode['kind'] =>
  a.startsWith('KT1') ? 'contract' : a.startsWith('sr1') ? 'smart_rollup' : 'implicit';

interface Acc {
  node: FlowNode;
  tez: bigint;
  fees: bigint;
  burned: bigint;
  tokens: Map<string, { token: FlowTokenRef; change: bigint }>;
  tickets: Map<string, { t: FlowTicketMovement; change: bigint }>;
}

/** The flow graph of operations given in execution order. */
export function buildFlow(ops: readonly FlowOp[], cap = FLOW_EDGE_CAP): FlowGraph {
  const accs = new Map<string, Acc>();
  const acc = (address: string): Acc => {
    let a = accs.get(address);
    if (!a) {
      a = {
        node: { address, kind: nodeKind(address), tez: '0', tokens: [], tickets: [] },
        tez: 0n,
        fees: 0n,
        burned: 0n,
        tokens: new Map(),
        tickets: new Map(),
      };
      accs.set(address, a);
    }
    return a;
  };
  const edges: FlowEdge[] = [];
  let failed = false;
  let contentIndex = -1;
  /** The top-level content's source: it pays the fee and the burns of its internal operations. */
  let payer: string | undefined;
  for (const op of ops.slice(0, cap)) {
    const status = (STATUSES.has(op.status) ? op.status : 'failed') as FlowEdge['status'];
    const applied = COUNTED.has(status);
    if (!applied) failed = true;
    if (!op.internal) {
      contentIndex = op.content_index ?? contentIndex + 1;
      payer = op.source ?? undefined;
    }
    const from = op.source ?? '';
    const to =
      op.kind === 'delegation'
        ? (op.delegate ?? undefined)
        : op.kind === 'event'
          ? undefined
          : (op.destination ?? undefined);
    const amount = big(op.amount);
    const edge: FlowEdge = {
      index: edges.length,
      kind: op.kind,
      from,
      ...(to ? { to } : {}),
      internal: op.internal,
      content_index: op.content_index ?? Math.max(contentIndex, 0),
      ...(op.counter != null && !op.internal ? { counter: Number(op.counter) } : {}),
      ...(op.nonce != null ? { nonce: Number(op.nonce) } : {}),
      ...(op.id != null ? { operation_id: op.id } : {}),
      status,
      ...(op.entrypoint ? { entrypoint: op.entrypoint } : {}),
      ...(op.parameters ? { parameters: op.parameters } : {}),
      amount: String(amount),
      tokens: to ? tokenTransfers(to, op.entrypoint, op.parameters) : [],
      tickets: op.tickets ?? [],
      ...(op.kind === 'event'
        ? { event: { ...(op.tag ? { tag: op.tag } : {}), ...(op.payload ? { payload: op.payload } : {}) } }
        : {}),
    };
    check(edge.tokens, op.ledger);
    edges.push(edge);

    const src = from ? acc(from) : undefined;
    const dst = to ? acc(to) : undefined;
    const pays = payer ? acc(payer) : src;
    if (pays && op.fee != null) pays.fees += big(op.fee);
    if (!applied) continue;
    if (pays && op.burned != null) pays.burned += big(op.burned);
    if (amount !== 0n && src && dst && op.kind !== 'delegation') {
      src.tez -= amount;
      dst.tez += amount;
    }
    for (const m of edge.tokens) {
      const k = tokenKey(m.token.contract, m.token.token_id);
      for (const [who, sign] of [
        [m.from, -1n],
        [m.to, 1n],
      ] as const) {
        const t = acc(who).tokens;
        const cur = t.get(k) ?? { token: m.token, change: 0n };
        cur.change += sign * BigInt(m.amount);
        t.set(k, cur);
      }
    }
    for (const t of edge.tickets) {
      const k = `${t.ticketer}|${JSON.stringify(t.content_type ?? null)}|${JSON.stringify(t.content ?? null)}`;
      const m = acc(t.account).tickets;
      const cur = m.get(k) ?? { t, change: 0n };
      cur.change += big(t.amount);
      m.set(k, cur);
    }
  }
  const nodes = [...accs.values()].map((a) => {
    const n = a.node;
    n.tez = String(a.tez);
    if (a.fees) n.fees = String(a.fees);
    if (a.burned) n.burned = String(a.burned);
    n.tokens = [...a.tokens.values()]
      .filter((x) => x.change !== 0n)
      .map((x) => ({ token: x.token, change: String(x.change) }));
    n.tickets = [...a.tickets.values()]
      .filter((x) => x.change !== 0n)
      .map(({ t, change }) => ({
        ticketer: t.ticketer,
        ...(t.content_type !== undefined ? { content_type: t.content_type } : {}),
        ...(t.content !== undefined ? { content: t.content } : {}),
        change: String(change),
      }));
    return n;
  });
  return {
    nodes,
    edges,
    truncated: ops.length > cap,
    total_operations: ops.length,
    status: failed ? 'failed' : 'applied',
  };
}

/** The token refs of a graph (for a metadata lookup). */
export function flowTokens(g: FlowGraph): Array<{ contract: string; token_id: string }> {
  const seen = new Map<string, { contract: string; token_id: string }>();
  for (const e of g.edges)
    for (const m of e.tokens) seen.set(tokenKey(m.token.contract, m.token.token_id), m.token);
  return [...seen.values()];
}

/** Fills aliases, tags and token metadata in place. */
export function enrichFlow(g: FlowGraph, l: FlowLookup): FlowGraph {
  for (const n of g.nodes) {
    const alias = l.aliases?.get(n.address);
    if (alias) n.alias = alias;
    const tags = l.tags?.get(n.address);
    if (tags) n.tags = tags;
  }
  const fill = (t: FlowTokenRef) => {
    const m = l.tokens?.get(tokenKey(t.contract, t.token_id));
    if (!m) return;
    if (m.symbol != null) t.symbol = m.symbol;
    if (m.decimals != null) t.decimals = m.decimals;
    if (m.name != null) t.name = m.name;
  };
  const done = new Set<FlowTokenRef>();
  const once = (t: FlowTokenRef) => {
    if (!done.has(t)) {
      done.add(t);
      fill(t);
    }
  };
  for (const e of g.edges) for (const m of e.tokens) once(m.token);
  for (const n of g.nodes) for (const t of n.tokens) once(t.token);
  return g;
}
