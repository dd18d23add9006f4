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

/** The visible rows of a tree with the given expanded ids (iterative: deep trees cannot overflow the stack). */
export function flattenTree(
  roots: readonly MiguelNode[],
  expanded: ReadonlySet<string>,
  diffMode = false,
): TreeRow[] {
  const rows: TreeRow[] = [];
  const top = rootNodes(roots);
  const stack: {
    node: MiguelNode;
    parent: MiguelNode | null;
    id: string;
    depth: number;
    index: number;
    size: number;
  }[] = [];
  for (let i = top.length - 1; i >= 0; i -= 1) {
    stack.push({
      node: top[i] as MiguelNode,
      parent: null,
      id: String(i),
      depth: 0,
      index: i,
      size: top.length,
    });
  }
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    const { node, parent, id, depth, index, size } = item;
    const children = depth < MAX_TREE_DEPTH ? childrenOf(node) : [];
    const hasChildren = children.length > 0;
    const open = hasChildren && expanded.has(id);
    rows.push({
      id,
      depth,
      label: childLabel(parent, node, index),
      value: hasChildren ? '' : formatLeaf(node.type || node.prim || '', node.value),
      from:
        node.diff_type === 'update' && node.from != null
          ? formatLeaf(node.type || node.prim || '', node.from)
          : '',
      count: countText(node, diffMode),
      diff: node.diff_type ?? null,
      hasChildren,
      expanded: open,
      node,
      pos: index + 1,
      size,
    });
    if (open) {
      for (let i = children.length - 1; i >= 0; i -= 1) {
        stack.push({
          node: children[i] as MiguelNode,
          parent: node,
          id: `${id}.${i}`,
          depth: depth + 1,
          index: i,
          size: children.length,
        });
      }
    }
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
