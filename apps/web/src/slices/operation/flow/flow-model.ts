/**
 * The operation flow graph's texts (issue 37): what a node and an edge say, on the graph, in their accessible
 * names and in the table that is the graph's text alternative. Pure functions of the API's FlowGraph; every
 * string from the API is shown as text only, and links are built only from addresses that have an address's
 * shape.
 */
import type {
  MiguelNode,
  FlowEdge,
  FlowGraph,
  FlowNode,
  FlowTicketMovement,
  FlowTokenMovement,
  FlowTokenRef,
} from '@michelscope/api-types';
import { isAddress } from '../../../shared/chain/patterns';
import { shortAddress } from '../../../shared/entities/explorer-links';
import { formatTez, truncate } from '../../../shared/format/format';

/** An alias on the graph and in the table is cut to this many characters. */
export const FLOW_ALIAS_MAX = 32;
const MINUS = '−';
const plain = new Intl.NumberFormat('en-US');

/** A raw integer amount (any size) as a decimal with `decimals` applied: "1002000", 3 → "1,002". */
export function formatUnits(raw: string, decimals = 0): string {
  let value: bigint;
  try {
    value = BigInt(raw.trim());
  } catch {
    return '—';
  }
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const d = Number.isInteger(decimals) && decimals > 0 && decimals <= 255 ? decimals : 0;
  const scale = 10n ** BigInt(d);
  const whole = plain.format(abs / scale);
  const fraction = d === 0 ? '' : (abs % scale).toString().padStart(d, '0').replace(/0+$/, '');
  return `${negative ? MINUS : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A signed change: "+1,002" / "−0.5" (zero has no sign). */
const signed = (text: string, raw: string) =>
  text.startsWith(MINUS) || /^0(\.0*)?$/.test(text) || raw.trim() === '0' ? text : `+${text}`;

/** A token's unit: its symbol, else its contract (short) and id. */
export function tokenUnit(t: FlowTokenRef): string {
  if (t.symbol) return truncate(t.symbol, 16);
  return t.standard === 'fa2' ? `${shortAddress(t.contract)} #${t.token_id}` : shortAddress(t.contract);
}

/** A token amount with its decimals and unit: "1,002 DMC". */
export const tokenAmount = (token: FlowTokenRef, raw: string) =>
  `${formatUnits(raw, token.decimals)} ${tokenUnit(token)}`;

/** A tez amount: "1.5 ꜩ" (mutez in). */
export const tezAmount = (mutez: string) => formatTez(mutez).replace(/^-/, MINUS);

/** A signed tez change: "+1.5 ꜩ" / "−1.5 ꜩ". */
export const signedTez = (mutez: string) => signed(tezAmount(mutez), mutez);

/** A signed token change with its unit. */
export const signedToken = (token: FlowTokenRef, raw: string) =>
  `${signed(formatUnits(raw, token.decimals), raw)} ${tokenUnit(token)}`;

/** A ticket's content in a few characters: a string quoted, a number or bytes as it is, else its type. */
export function ticketContent(content: MiguelNode | undefined): string {
  if (!content) return '';
  const v = content.value;
  if (!content.children?.length && (typeof v === 'string' || typeof v === 'number')) {
    const text = truncate(String(v), 20);
    return content.prim === 'string' ? JSON.stringify(text) : text;
  }
  return content.prim ?? content.type ?? '';
}

/** A ticket's unit: 'ticket "demo" of KT1Ab…wxyz'. */
export const ticketUnit = (ticketer: string, content?: MiguelNode) => {
  const c = ticketContent(content);
  return `ticket ${c ? `${c} ` : ''}of ${shortAddress(ticketer)}`;
};

/** A signed ticket change: '+5 ticket "demo" of KT1Ab…wxyz'. */
export const signedTicket = (ticketer: string, raw: string, content?: MiguelNode) =>
  `${signed(formatUnits(raw), raw)} ${ticketUnit(ticketer, content)}`;

/** A node's name: its alias (cut), else its short address; an unknown address is shown as the API gave it. */
export function nodeName(node: Pick<FlowNode, 'address' | 'alias'> | undefined, address: string): string {
  if (node?.alias) return truncate(node.alias, FLOW_ALIAS_MAX);
  return shortAddress(address);
}

/** The in-app page of an account (its operations), only for a string with an address's shape. */
export function accountPath(network: string, address: string): string | null {
  if (!isAddress(address) || !/^[a-z0-9_-]+$/i.test(network)) return null;
  return `/${network}/${address}/operations`;
}

/** A token movement: "1,002 DMC tz1Ab…wxyz → KT1Cd…wxyz" (with "unchecked" when the ledger did not confirm it). */
export function tokenMovementText(m: FlowTokenMovement, names: (a: string) => string): string {
  return (
    `${tokenAmount(m.token, m.amount)} ${names(m.from)} → ${names(m.to)}` +
    (m.checked ? '' : ' (not confirmed by the ledger)')
  );
}

/** A ticket movement: "+5 ticket of KT1… to tz1…". */
export function ticketMovementText(m: FlowTicketMovement, names: (a: string) => string): string {
  return `${signedTicket(m.ticketer, m.amount, m.content)} for ${names(m.account)}`;
}

/** What an edge does: its entrypoint (a call), "event <tag>", or its kind. */
export function edgeAction(e: FlowEdge): string {
  if (e.kind === 'event') return e.event?.tag ? `event ${truncate(e.event.tag, 32)}` : 'event';
  if (e.kind === 'transaction') return e.entrypoint ? truncate(e.entrypoint, 32) : 'transfer';
  return e.entrypoint ? `${e.kind} ${truncate(e.entrypoint, 32)}` : e.kind;
}

/** The edge's 1-based number in execution order. */
export const edgeNumber = (e: FlowEdge) => e.index + 1;

/** The edge's amounts: tez (when any), its tokens, its tickets. */
export function edgeAmounts(e: FlowEdge): string[] {
  const out: string[] = [];
  if (e.amount !== '0' && /^-?[0-9]+$/.test(e.amount)) out.push(tezAmount(e.amount));
  for (const t of e.tokens) out.push(tokenAmount(t.token, t.amount));
  for (const t of e.tickets) out.push(signedTicket(t.ticketer, t.amount, t.content));
  return out;
}

/** Where an edge goes, in words: "from KT1Ab…wxyz to tz1Cd…wxyz" (an event has no destination). */
export function edgeRoute(e: FlowEdge, names: (a: string) => string): string {
  return `from ${names(e.from)}${e.to === undefined ? '' : ` to ${names(e.to)}`}`;
}

/** The graph's lookup of nodes by address. */
export const nodesByAddress = (g: FlowGraph) => new Map(g.nodes.map((n) => [n.address, n]));

/** An edge's accessible name: "3. KT1Ab…wxyz → KT1Cd…wxyz transfer, 1,002 DMC" (and its status unless applied). */
export function edgeLabel(e: FlowEdge, names: (a: string) => string): string {
  const to = e.to === undefined ? '' : ` → ${names(e.to)}`;
  const amounts = edgeAmounts(e);
  return (
    `${edgeNumber(e)}. ${names(e.from)}${to} ${edgeAction(e)}` +
    (amounts.length ? `, ${amounts.join(', ')}` : '') +
    (e.status === 'applied' ? '' : `, ${e.status}`)
  );
}

/** A node's summed changes: tez, tokens, tickets (zero sums are not listed). */
export function nodeChanges(n: FlowNode): string[] {
  const out: string[] = [];
  if (/^-?[0-9]+$/.test(n.tez) && BigInt(n.tez) !== 0n) out.push(signedTez(n.tez));
  for (const t of n.tokens) out.push(signedToken(t.token, t.change));
  for (const t of n.tickets) out.push(signedTicket(t.ticketer, t.change, t.content));
  return out;
}

/** A node's kind in words. */
export const nodeKind = (n: FlowNode) =>
  n.kind === 'implicit' ? 'account' : n.kind === 'smart_rollup' ? 'smart rollup' : 'contract';

/** A node's accessible name: "KT1Ab…wxyz, contract, tags fa1-2, changes +1.5 ꜩ, −1,002 DMC". */
export function nodeLabel(n: FlowNode): string {
  const tags = n.tags?.length ? `, tags ${n.tags.map((t) => truncate(t, 24)).join(', ')}` : '';
  const changes = nodeChanges(n);
  return (
    `${nodeName(n, n.address)}${n.alias ? ` (${shortAddress(n.address)})` : ''}, ${nodeKind(n)}${tags}` +
    (changes.length ? `, changes ${changes.join(', ')}` : ', no balance change')
  );
}

/** What the status of an edge says on the graph (nothing when applied). */
export const statusMark = (e: FlowEdge) =>
  e.status === 'applied' ? '' : e.status === 'emitted' ? 'EMITTED, NOT RUN' : e.status.toUpperCase();

/**
 * Whether an edge did not happen: failed, backtracked or skipped (drawn dashed in the error colour). An
 * `emitted` edge (a debugged call's internal operation, which the debugger does not run) is dashed but neutral.
 */
export const isFailure = (e: FlowEdge) => e.status !== 'applied' && e.status !== 'emitted';

/**
 * The graph's keyboard order: execution order, each edge after the nodes it first reaches (its source, then its
 * destination), so that Tab reads "A, B, 1. A → B, C, 2. B → C".
 */
export type FocusItem = { kind: 'node'; address: string } | { kind: 'edge'; index: number };
export function focusOrder(g: FlowGraph): FocusItem[] {
  const seen = new Set<string>();
  const out: FocusItem[] = [];
  const known = new Set(g.nodes.map((n) => n.address));
  const node = (a: string | undefined) => {
    if (a === undefined || seen.has(a) || !known.has(a)) return;
    seen.add(a);
    out.push({ kind: 'node', address: a });
  };
  g.edges.forEach((e, i) => {
    node(e.from);
    node(e.to);
    out.push({ kind: 'edge', index: i });
  });
  for (const n of g.nodes) node(n.address);
  return out;
}
