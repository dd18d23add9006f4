/**
 * The flow graph's layout (issue 37): nodes and edge labels as boxes of text lines, placed by dagre's layered
 * layout (top to bottom, in execution order). Loaded with the Flow view only (./LazyFlowView.tsx).
 */
import dagre from '@dagrejs/dagre';
import type { FlowEdge, FlowGraph, FlowNode } from '@michelscope/api-types';
import { truncate } from '../../../shared/format/format';
import {
  edgeAction,
  edgeNumber,
  nodeChanges,
  nodeKind,
  nodeName,
  signedTicket,
  statusMark,
  tezAmount,
  tokenAmount,
} from './flow-model';

/** The graph's text: 12 px monospace, so that a box's width follows from its longest line. */
export const CHAR_WIDTH = 7.3;
export const LINE_HEIGHT = 16;
export const PADDING = 8;
/** A line on the graph is cut to this many characters (the table and the accessible names have it whole). */
export const LINE_MAX = 34;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  lines: string[];
}
export interface LaidNode extends Box {
  id: string;
  node?: FlowNode | undefined;
}
export interface LaidEdge {
  /** position in the graph's edges */
  at: number;
  edge: FlowEdge;
  from: string;
  to: string;
  points: { x: number; y: number }[];
  label: Box;
}
export interface FlowLayout {
  width: number;
  height: number;
  nodes: LaidNode[];
  edges: LaidEdge[];
}

const boxOf = (lines: string[]) => {
  const cut = lines.map((l) => truncate(l, LINE_MAX));
  const longest = Math.max(...cut.map((l) => Array.from(l).length), 8);
  return {
    lines: cut,
    width: Math.ceil(longest * CHAR_WIDTH + 2 * PADDING),
    height: cut.length * LINE_HEIGHT + 2 * PADDING,
  };
};

/** A node's lines: its name, its kind and tags, its summed changes. */
export function nodeLines(n: FlowNode): string[] {
  const tags = n.tags?.length ? ` · ${n.tags.join(', ')}` : '';
  return [nodeName(n, n.address), `${nodeKind(n)}${tags}`, ...nodeChanges(n)];
}

/** An edge label's lines: "#3 transfer", the tez, tokens, tickets, and its status unless applied. */
export function edgeLines(e: FlowEdge): string[] {
  const lines = [`#${edgeNumber(e)} ${edgeAction(e)}`];
  if (e.amount !== '0' && /^[0-9]+$/.test(e.amount)) lines.push(tezAmount(e.amount));
  for (const t of e.tokens)
    lines.push(`${tokenAmount(t.token, t.amount)}${t.checked ? '' : ' (unconfirmed)'}`);
  for (const t of e.tickets) lines.push(signedTicket(t.ticketer, t.amount, t.content));
  const mark = statusMark(e);
  if (mark) lines.push(mark);
  return lines;
}

/** Where an edge with no destination (an event, a delegate removal) ends: a small node of its own. */
const sinkId = (at: number) => `\u0000sink:${at}`;

/** Lays the graph out (dagre, top to bottom). */
export function layoutFlow(graph: FlowGraph): FlowLayout {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 32, edgesep: 24, ranksep: 48, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  const byAddress = new Map(graph.nodes.map((n) => [n.address, n]));
  const nodeIds: string[] = [];
  const addNode = (id: string, lines: string[], node?: FlowNode) => {
    if (g.hasNode(id)) return;
    nodeIds.push(id);
    g.setNode(id, { ...boxOf(lines), node });
  };
  for (const n of graph.nodes) addNode(n.address, nodeLines(n), n);
  const ends = graph.edges.map((e, at) => {
    if (!g.hasNode(e.from)) addNode(e.from, [nodeName(undefined, e.from)]);
    const to = e.to ?? sinkId(at);
    if (e.to === undefined) addNode(to, [e.kind === 'event' ? 'event' : 'none']);
    else if (!g.hasNode(to)) addNode(to, [nodeName(undefined, to)]);
    const label = boxOf(edgeLines(e));
    g.setEdge(
      e.from,
      to,
      { width: label.width, height: label.height, labelpos: 'c', lines: label.lines },
      String(at),
    );
    return { from: e.from, to, label };
  });
  dagre.layout(g);
  const nodes: LaidNode[] = nodeIds.map((id) => {
    const n = g.node(id) as {
      x: number;
      y: number;
      width: number;
      height: number;
      lines: string[];
      node?: FlowNode;
    };
    return {
      id,
      node: n.node ?? byAddress.get(id),
      x: n.x - n.width / 2,
      y: n.y - n.height / 2,
      width: n.width,
      height: n.height,
      lines: n.lines,
    };
  });
  const edges: LaidEdge[] = graph.edges.map((edge, at) => {
    const { from, to, label } = ends[at]!;
    const e = g.edge({ v: from, w: to, name: String(at) }) as {
      points?: { x: number; y: number }[];
      x?: number;
      y?: number;
    };
    const points = e.points ?? [];
    const cx = e.x ?? points[Math.floor(points.length / 2)]?.x ?? 0;
    const cy = e.y ?? points[Math.floor(points.length / 2)]?.y ?? 0;
    return {
      at,
      edge,
      from,
      to,
      points,
      label: { ...label, x: cx - label.width / 2, y: cy - label.height / 2 },
    };
  });
  const size = g.graph() as { width?: number; height?: number };
  return { width: Math.ceil(size.width ?? 0), height: Math.ceil(size.height ?? 0), nodes, edges };
}

/** An SVG path through the points (straight segments with rounded corners by quadratic curves). */
export function pathOf(points: readonly { x: number; y: number }[]): string {
  if (points.length === 0) return '';
  const [first, ...rest] = points;
  if (rest.length === 0) return `M${first!.x},${first!.y}`;
  let d = `M${first!.x},${first!.y}`;
  for (let i = 0; i < rest.length - 1; i++) {
    const p = rest[i]!;
    const q = rest[i + 1]!;
    d += ` Q${p.x},${p.y} ${(p.x + q.x) / 2},${(p.y + q.y) / 2}`;
  }
  const last = rest[rest.length - 1]!;
  return `${d} L${last.x},${last.y}`;
}
