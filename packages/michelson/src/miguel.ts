/**
 * Miguel trees: decoded values (storage, parameters, big-map keys and values) as the explorer
 * renders them (bcd-api.md §5.4).
 */
import { readableBytes } from './bytes';
import { formatMichelson, formatMichelsonInline } from './format';
import { isInt, isPrim, isString, MichelsonDataError } from './micheline-core';
import type { Micheline } from './micheline-core';
import { buildTypeTree, isSynthetic } from './type-tree';
import type { TypeNode } from './type-tree';
import { eltParts, mismatch, pairParts, readableScalar, seqItems } from './value';
import { compareValues } from './compare';
import { normalizeValue } from './value-forms';

export type DiffType = 'create' | 'update' | 'delete';

export interface MiguelNode {
  prim?: string;
  type?: string;
  name?: string;
  from?: unknown;
  diff_type?: DiffType;
  value?: unknown;
  children?: MiguelNode[];
}

/** Builds a node with the reference's key order (prim, type, name, from, diff_type, value, children). */
export function mk(
  prim: string | undefined,
  type: string | undefined,
  name: string,
  rest: {
    from?: unknown;
    diff_type?: DiffType | undefined;
    value?: unknown;
    children?: MiguelNode[] | undefined;
  } = {},
): MiguelNode {
  const n: MiguelNode = {};
  if (prim !== undefined) n.prim = prim;
  if (type !== undefined) n.type = type;
  n.name = name;
  if (rest.from !== undefined) n.from = rest.from;
  if (rest.diff_type !== undefined) n.diff_type = rest.diff_type;
  if (rest.value !== undefined) n.value = rest.value;
  if (rest.children !== undefined && rest.children.length > 0) n.children = rest.children;
  return n;
}

/** Copies a subtree marking every node with `dt` (a created / deleted subtree). */
export function stamp(n: MiguelNode, dt: DiffType): MiguelNode {
  return mk(n.prim, n.type, n.name ?? '', {
    from: n.from,
    diff_type: dt,
    value: n.value,
    children: n.children?.map((c) => stamp(c, dt)),
  });
}

export function miguelType(n: TypeNode): string {
  if (n.prim === 'pair') return 'namedtuple';
  if (n.prim === 'or') {
    const leaves = orLeaves(n);
    if (leaves.every((l) => l.prim === 'unit') && leaves.some((l) => !isSynthetic(l.name)))
      return 'namedenum';
    if (leaves.some((l) => !isSynthetic(l.name))) return 'namedunion';
    return 'or';
  }
  return n.prim;
}

function orLeaves(n: TypeNode): TypeNode[] {
  const out: TypeNode[] = [];
  const visit = (o: TypeNode): void => {
    for (const a of o.args)
      if (a.prim === 'or') visit(a);
      else out.push(a);
  };
  visit(n);
  return out;
}

/**
 * A value of `type` in its readable form: addresses, key hashes, keys, signatures, chain ids (base58) and
 * timestamps (RFC 3339) instead of their optimized bytes / int, contracts with their entrypoint. A value that
 * does not match the type comes back unchanged. The one decoder of typed values for display (API and web).
 */
export function readableValue(type: Micheline | TypeNode, value: Micheline): Micheline {
  try {
    return normalizeValue(type, value, 'readable');
  } catch {
    return value;
  }
}

/** {@link readableValue} as one line of Michelson (`Pair "tz1…" 1`). */
export function readableText(type: Micheline | TypeNode, value: Micheline): string {
  return formatMichelsonInline(readableValue(type, value));
}

/** Text naming a map entry: the key's scalar value, or readable inline Michelson for complex keys. */
export function keyText(keyType: TypeNode, key: Micheline): string {
  if (keyType.prim === 'bytes' && isString(key)) return key.string;
  if (keyType.prim === 'bytes' && !isString(key) && !isInt(key) && !isPrim(key) && !Array.isArray(key))
    return readableBytes(key.bytes);
  if (isString(key)) return key.string === '' ? '""' : key.string;
  const v = scalarValue(keyType, key);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return readableText(keyType, key);
}

/** Scalar value of a leaf as Miguel shows it; undefined for unit. */
export function scalarValue(n: TypeNode, v: Micheline): unknown {
  switch (n.prim) {
    case 'unit':
      return undefined;
    case 'bytes':
      if (isString(v)) return v.string;
      if (!isInt(v) && !isPrim(v) && !Array.isArray(v)) return readableBytes(v.bytes);
      throw mismatch('bytes', v);
    case 'lambda':
      return formatMichelson(v);
    default:
      return readableScalar(n.prim, v);
  }
}

/** Miguel node of `v` typed by `n`; `name` overrides the node's own name (map entries, options). */
export function toMiguelNode(n: TypeNode, v: Micheline, name?: string, depth = 0): MiguelNode {
  if (depth > 5000) throw new MichelsonDataError('value nested too deeply');
  const label = name ?? n.typeLabel;
  switch (n.prim) {
    case 'pair': {
      const children: MiguelNode[] = [];
      pairChildren(n, v, children, depth);
      return mk('pair', 'namedtuple', label, { children });
    }
    case 'or': {
      const [branch, inner] = orBranch(n, v);
      const child = toMiguelNode(branch, inner, undefined, depth + 1);
      return mk('or', miguelType(n), label, { children: [child] });
    }
    case 'option': {
      if (isPrim(v) && v.prim === 'None') return { name: name ?? noneName(n), value: 'None' };
      if (!isPrim(v) || v.prim !== 'Some' || v.args?.length !== 1) throw mismatch('option', v);
      const inner = n.args[0]!;
      const innerName = isSynthetic(n.name) ? undefined : label;
      return toMiguelNode(inner, v.args[0]!, innerName, depth + 1);
    }
    case 'list':
    case 'set':
      return mk(n.prim, n.prim, label, {
        children: seqItems(v, n.prim).map((x) => toMiguelNode(n.args[0]!, x, undefined, depth + 1)),
      });
    case 'map':
    case 'big_map': {
      if (n.prim === 'big_map' && isInt(v)) return mk('big_map', 'big_map', label, { value: Number(v.int) });
      const entries = sortedEntries(n, seqItems(v, n.prim));
      const children: MiguelNode[] = [];
      for (const [k, val] of entries) {
        if (val === null) continue; // a removed big-map key
        children.push(toMiguelNode(n.args[1]!, val, keyText(n.args[0]!, k), depth + 1));
      }
      return mk(n.prim, n.prim, label, { children });
    }
    case 'ticket': {
      const pair = toMiguelNode(n.ticketPair!, ticketValue(v), undefined, depth + 1);
      return mk('ticket', 'ticket', label, { children: [pair] });
    }
    case 'sapling_state':
      if (!isInt(v)) throw mismatch('sapling_state', v);
      return mk('sapling_state', 'sapling_state', label, {
        children: [mk('int', 'int', '@int_0', { value: v.int })],
      });
    default:
      return mk(n.prim, n.prim, label, { value: scalarValue(n, v) });
  }
}

/** Name of a `None` node: the option's name, or its inner type's when only that one is named. */
export function noneName(n: TypeNode): string {
  const inner = n.args[0]!;
  return isSynthetic(n.typeLabel) && !isSynthetic(inner.typeLabel) ? inner.typeLabel : n.typeLabel;
}

/** `Ticket ticketer T content amount` (Paris literal) or the pair form, as `Pair ticketer (Pair content amount)`. */
function ticketValue(v: Micheline): Micheline {
  if (isPrim(v) && v.prim === 'Ticket' && v.args?.length === 4)
    return { prim: 'Pair', args: [v.args[0]!, { prim: 'Pair', args: [v.args[2]!, v.args[3]!] }] };
  return v;
}

function pairChildren(n: TypeNode, v: Micheline, out: MiguelNode[], depth: number): void {
  const [l, r] = pairParts(v);
  for (const [t, x] of [
    [n.args[0]!, l],
    [n.args[1]!, r],
  ] as const) {
    if (t.prim === 'pair' && isSynthetic(t.name)) pairChildren(t, x, out, depth + 1);
    else out.push(toMiguelNode(t, x, undefined, depth + 1));
  }
}

/** The selected leaf branch of an or value (nested ors unwrapped) and its inner value. */
export function orBranch(n: TypeNode, v: Micheline): [TypeNode, Micheline] {
  let t = n;
  let x = v;
  for (;;) {
    if (!isPrim(x) || (x.prim !== 'Left' && x.prim !== 'Right') || x.args?.length !== 1)
      throw mismatch('or', x);
    t = t.args[x.prim === 'Left' ? 0 : 1]!;
    x = x.args[0]!;
    if (t.prim !== 'or') return [t, x];
  }
}

/** Map entries sorted by key (Michelson order); a `null` value marks a removed big-map key. */
export function sortedEntries(n: TypeNode, items: Micheline[]): [Micheline, Micheline | null][] {
  const entries = items.map((e) => {
    if (isPrim(e) && e.prim === 'Elt' && e.args?.length === 2 && e.args[1] === null)
      return [e.args[0]!, null] as [Micheline, null];
    return eltParts(e);
  });
  const keyType = n.args[0]!;
  return entries.sort((a, b) => compareValues(keyType, a[0], b[0]));
}

/** Miguel tree of a value: `[root]`, as the API returns storage and parameters. */
export function toMiguel(type: Micheline | TypeNode, value: Micheline): MiguelNode[] {
  const tree = 'id' in (type as object) ? (type as TypeNode) : buildTypeTree(type);
  return [toMiguelNode(tree, value)];
}
