/**
 * Miguel trees (bcd-api.md §5.4) as rows of a tree view (bcd-frontend.md §3.2): root named tuples are
 * flattened into their fields, containers say "N items" (big maps in diffs "N diffs"), empty names show
 * `@empty`, leaf values are formatted (mutez as ꜩ, numbers with separators, timestamps as dates).
 */
import type { MiguelDiffType as DiffType, MiguelNode } from '@michelscope/api-types';
import { formatAbsolute, formatNumber, formatTez, parseTime } from '../format/format';
import { isGeneratedName } from './generated-names';

export interface TreeRow {
  /** Stable id: the path of child indexes from the root ("0.3.1"). */
  id: string;
  depth: number;
  label: string;
  /** Formatted value; '' for containers. */
  value: string;
  /** Previous value of an update ('' when none). */
  from: string;
  /** "N items" / "N diffs" for containers. */
  count: string;
  diff: DiffType | null;
  hasChildren: boolean;
  expanded: boolean;
  node: MiguelNode;
  /** Position among its siblings (1-based) and number of siblings, for aria-posinset / aria-setsize. */
  pos: number;
  size: number;
}

const CONTAINERS = new Set([
  'namedtuple',
  'tuple',
  'namedunion',
  'union',
  'or',
  'namedenum',
  'list',
  'set',
  'map',
  'big_map',
  'option',
  'pair',
  'ticket',
  'lambda',
]);
const NUMERIC = new Set(['nat', 'int']);
/**
 * One formatter for every number of a tree: `BigInt#toLocaleString` sets up a number format on each call
 * (~40 µs in Chromium: 10,000 leaves of a storage took a second of a slow phone's CPU per toggle).
 */
const INTEGER = new Intl.NumberFormat('en-US');

/** Trees are shown this deep at most (a hostile answer must not blow the stack or the page). */
export const MAX_TREE_DEPTH = 256;

/** The children of a node (absent: none). */
export const childrenOf = (node: MiguelNode): MiguelNode[] => node.children ?? [];
/** The Michelson type of a node ('' when the API left it out). */
export const typeOf = (node: MiguelNode): string => node.type ?? '';

/** Text of a scalar: strings as they are, numbers and booleans printed, other JSON stringified. */
function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A leaf value formatted for display. */
export function formatLeaf(type: string, value: unknown): string {
  const raw = scalarText(value);
  // a big map a simulation allocated has a temporary id (-1, -2…) that no chain gives: it is a new big map
  if (type === 'big_map' && /^-\d+$/.test(raw)) return 'new big map';
  if (raw === '') return type === 'unit' ? 'Unit' : '';
  if (type === 'mutez' && /^-?\d+$/.test(raw)) return formatTez(raw);
  if (NUMERIC.has(type) && /^-?\d+$/.test(raw)) {
    try {
      return INTEGER.format(BigInt(raw));
    } catch {
      return raw;
    }
  }
  if (type === 'timestamp') {
    const date = parseTime(raw);
    return date ? formatAbsolute(date) : raw;
  }
  return raw;
}

function isContainer(node: MiguelNode): boolean {
  return (
    childrenOf(node).length > 0 ||
    (CONTAINERS.has(typeOf(node)) && node.value == null && node.type !== 'option')
  );
}

function countText(node: MiguelNode, diffMode: boolean): string {
  if (!isContainer(node)) return '';
  const n = childrenOf(node).length;
  // a big map created whole (a simulation's new one, an origination's): its keys, not diffs of an old one
  if (node.type === 'big_map' && diffMode && node.diff_type === 'create')
    return `new big map · ${formatNumber(n)} ${n === 1 ? 'key' : 'keys'}`;
  if (node.type === 'big_map' && diffMode) return `${formatNumber(n)} diffs`;
  if (['list', 'set', 'map', 'big_map'].includes(typeOf(node))) return `${formatNumber(n)} items`;
  return '';
}

/** Children of the roots: root named tuples are flattened into their fields. */
export function rootNodes(roots: readonly MiguelNode[]): MiguelNode[] {
  return roots.flatMap((r) => (r.type === 'namedtuple' && r.children?.length ? r.children : [r]));
}

/**
 * Child labels: list/set/tuple/union children are named by index, map children by their key, fields by their
 * annotation, else by their type: the names the API generates for unannotated types ('@nat_1', '@pair_25')
 * never show.
 */
function childLabel(parent: MiguelNode | null, child: MiguelNode, index: number): string {
  if (parent && ['list', 'set', 'tuple', 'union'].includes(typeOf(parent))) return String(index);
  const isKey = parent !== null && (parent.type === 'map' || parent.type === 'big_map');
  const name = child.name ?? '';
  if (!isKey && isGeneratedName(name)) return child.prim || typeOf(child);
  return name === '' ? '@empty' : name;
}

/** Ids of every container node (used to open all nodes, as the storage tab does). */
export function allContainerIds(roots: readonly MiguelNode[]): Set<string> {
  const out = new Set<string>();
  const walk = (nodes: readonly MiguelNode[], prefix: string, depth: number) => {
    nodes.forEach((n, i) => {
      const id = prefix === '' ? String(i) : `${prefix}.${i}`;
      if (n.children?.length && depth < MAX_TREE_DEPTH) {
        out.add(id);
        walk(n.children, id, depth + 1);
      }
    });
  };
  walk(rootNodes(roots), '', 0);
  return out;
}

/** Ids of the containers on the path to a changed node (diff trees open only those). */
export function changedPathIds(roots: readonly MiguelNode[]): Set<string> {
  const out = new Set<string>();
  const walk = (nodes: readonly MiguelNode[], prefix: string, depth: number): boolean => {
    let any = false;
    nodes.forEach((n, i) => {
      const id = prefix === '' ? String(i) : `${prefix}.${i}`;
      const below = n.children?.length && depth < MAX_TREE_DEPTH ? walk(n.children, id, depth + 1) : false;
      if (below) out.add(id);
      if (below || n.diff_type !== undefined) any = true;
    });
    return any;
  };
  walk(rootNodes(roots), '', 0);
  return out;
}

/**
 * A node's rows (closed and open) where it was last flattened: its texts (label, value, count…) are computed
 * once per node, not on every toggle of a 10,000-node tree. The nodes of a tree are stable objects while its
 * roots are the same (the query's answer); a node met at another place (another parent, index, sibling count)
 * or in the other diff mode gets its rows again.
 */
interface NodeRows {
  parent: MiguelNode | null;
  parentId: string;
  index: number;
  size: number;
  diffMode: boolean;
  closed: TreeRow;
  open: TreeRow | null;
}
const NODE_ROWS = new WeakMap<MiguelNode, NodeRows>();

function nodeRows(
  node: MiguelNode,
  parent: MiguelNode | null,
  parentId: string,
  index: number,
  size: number,
  depth: number,
  diffMode: boolean,
): NodeRows {
  const known = NODE_ROWS.get(node);
  if (
    known &&
    known.parent === parent &&
    known.parentId === parentId &&
    known.index === index &&
    known.size === size &&
    known.diffMode === diffMode
  )
    return known;
  const hasChildren = depth < MAX_TREE_DEPTH && childrenOf(node).length > 0;
  const type = node.type || node.prim || '';
  const rows: NodeRows = {
    parent,
    parentId,
    index,
    size,
    diffMode,
    closed: {
      id: parentId === '' ? String(index) : `${parentId}.${index}`,
      depth,
      label: childLabel(parent, node, index),
      value: hasChildren ? '' : formatLeaf(type, node.value),
      from: node.diff_type === 'update' && node.from != null ? formatLeaf(type, node.from) : '',
      count: countText(node, diffMode),
      diff: node.diff_type ?? null,
      hasChildren,
      expanded: false,
      node,
      pos: index + 1,
      size,
    },
    open: null,
  };
  NODE_ROWS.set(node, rows);
  return rows;
}

/**
 * The visible rows of a tree with the given expanded ids (iterative: deep trees cannot overflow the stack).
 * A node's row objects are the same from one call to the next (while its place in the tree is), so that a
 * toggle costs a walk of the visible nodes, and the rows that did not change need no new rendering.
 */
export function flattenTree(
  roots: readonly MiguelNode[],
  expanded: ReadonlySet<string>,
  diffMode = false,
): TreeRow[] {
  const rows: TreeRow[] = [];
  // the open nodes on the path to the current one, each with its next child to visit
  const frames: {
    parent: MiguelNode | null;
    parentId: string;
    children: readonly MiguelNode[];
    next: number;
  }[] = [{ parent: null, parentId: '', children: rootNodes(roots), next: 0 }];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    if (frame.next >= frame.children.length) {
      frames.pop();
      continue;
    }
    const index = frame.next;
    frame.next += 1;
    const node = frame.children[index]!;
    const known = nodeRows(
      node,
      frame.parent,
      frame.parentId,
      index,
      frame.children.length,
      frames.length - 1,
      diffMode,
    );
    const closed = known.closed;
    if (!closed.hasChildren || !expanded.has(closed.id)) {
      rows.push(closed);
      continue;
    }
    known.open ??= { ...closed, expanded: true };
    rows.push(known.open);
    frames.push({ parent: node, parentId: closed.id, children: childrenOf(node), next: 0 });
  }
  return rows;
}

/** The numeric change of an update, e.g. "(+1,000)", or '' when not numeric. */
export function numericDelta(type: string, from: unknown, to: unknown): string {
  if (!['nat', 'int', 'mutez'].includes(type)) return '';
  const a = scalarText(from);
  const b = scalarText(to);
  if (!/^-?\d+$/.test(a) || !/^-?\d+$/.test(b)) return '';
  const delta = BigInt(b) - BigInt(a);
  if (delta === 0n) return '';
  const text = type === 'mutez' ? formatTez(delta) : INTEGER.format(delta);
  return `(${delta > 0n ? '+' : ''}${text})`;
}

/** Big map pointer of a big_map leaf (value is the pointer), or null. */
export function bigMapPointer(node: MiguelNode): number | null {
  if (node.type !== 'big_map' || childrenOf(node).length > 0) return null;
  const v = node.value;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}
