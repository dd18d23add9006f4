/**
 * Entrypoints of a parameter type: names, lookup, resolution of stored calls, and conversion
 * between `{entrypoint, value}` and the full parameter value.
 */
import { isPrim, MichelsonDataError } from './micheline-core';
import type { Micheline } from './micheline-core';
import { toMiguelNode } from './miguel';
import type { MiguelNode } from './miguel';
import { buildTypeTree, entrypointLeaves, typeToMicheline } from './type-tree';
import type { TypeNode } from './type-tree';

/**
 * Entrypoints Octez's binary encoding of a transaction writes as one tag byte (their index here); any other
 * name is 0xff followed by its length and bytes.
 */
export const NAMED_ENTRYPOINTS: readonly string[] = [
  'default',
  'root',
  'do',
  'set_delegate',
  'remove_delegate',
  'deposit',
  'stake',
  'unstake',
  'finalize_unstake',
  'set_delegate_parameters',
];

export interface Parameters {
  entrypoint: string;
  value: Micheline;
}

const tree = (t: Micheline | TypeNode): TypeNode =>
  'id' in (t as object) ? (t as TypeNode) : buildTypeTree(t);

/** Entrypoint names (`GetEntrypoints`): leaves of the root or; unnamed ones `entrypoint_<n>`; else `default`. */
export function entrypointNames(parameterType: Micheline | TypeNode): string[] {
  return entrypointLeaves(tree(parameterType)).map((l) => l.name);
}

export interface FoundEntrypoint {
  node: TypeNode;
  /** Left/Right steps from the root, as `L`/`R`. */
  path: string;
}

export interface FindEntrypointOptions {
  /**
   * Whether unnamed leaves answer to their generated `entrypoint_<n>` names (true, the explorer's
   * naming, as `entrypointNames` lists them). Octez only knows field annotations: the interpreter
   * passes false, so `CONTRACT %entrypoint_0` or `SELF %entrypoint_1` finds nothing, as on chain.
   */
  generatedNames?: boolean;
}

/**
 * Finds a node of the root-or tree by field annotation (named inner ors included, left first);
 * `default` falls back to the root; see `FindEntrypointOptions` for unnamed leaves.
 */
export function findEntrypoint(
  parameterType: Micheline | TypeNode,
  name: string,
  { generatedNames = true }: FindEntrypointOptions = {},
): FoundEntrypoint | undefined {
  const root = tree(parameterType);
  const stack: FoundEntrypoint[] = [{ node: root, path: '' }];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.node.fieldName === name) return f;
    if (f.node.prim === 'or') {
      stack.push({ node: f.node.args[1]!, path: `${f.path}R` });
      stack.push({ node: f.node.args[0]!, path: `${f.path}L` });
    }
  }
  if (name === 'default') return { node: root, path: '' };
  if (!generatedNames) return undefined;
  const leaf = entrypointLeaves(root).find((l) => l.name === name);
  return leaf ? { node: leaf.node, path: leaf.path } : undefined;
}

/** Micheline type of an entrypoint (root annotation removed), or undefined. */
export function entrypointType(parameterType: Micheline | TypeNode, name: string): Micheline | undefined {
  const f = findEntrypoint(parameterType, name);
  if (!f) return undefined;
  const m = typeToMicheline(f.node);
  const annots = m.annots?.filter((a) => !a.startsWith('%'));
  if (annots && annots.length > 0) return { ...m, annots };
  const { annots: _drop, ...bare } = m;
  return bare;
}

/**
 * Name the indexer stores for a call: the entrypoint given, or for `default` the entrypoint its value
 * selects, named as `entrypointNames` lists it (field annotation, else `entrypoint_<n>`; a parameter that
 * is not an `or` is `default`). One name per entrypoint everywhere: the reference stored unnamed leaves as
 * `@entrypoint_<k>` (k = the Left/Right path as a binary number), which matched nothing in its own list.
 */
export function resolveEntrypoint(parameterType: Micheline | TypeNode, params?: Parameters): string {
  if (!params) return 'default';
  if (params.entrypoint !== 'default') return params.entrypoint;
  const root = tree(parameterType);
  if (root.prim !== 'or') return 'default';
  let t = root;
  let v = params.value;
  let path = '';
  while (t.prim === 'or' && isPrim(v) && (v.prim === 'Left' || v.prim === 'Right') && v.args?.length === 1) {
    path += v.prim === 'Left' ? 'L' : 'R';
    t = t.args[v.prim === 'Left' ? 0 : 1]!;
    v = v.args[0]!;
  }
  // the leaf reached (the list descends into named inner ors too); a value that stops early keeps `default`
  return entrypointLeaves(root).find((l) => l.path === path)?.name ?? 'default';
}

/**
 * Names a stored call may carry for entrypoint `name`: itself, plus the reference's `@entrypoint_<k>` of the
 * same leaf (rows indexed before the names were unified, or imported from the reference).
 */
export function storedEntrypointNames(parameterType: Micheline | TypeNode, name: string): string[] {
  const root = tree(parameterType);
  if (root.prim !== 'or') return name === 'default' ? ['default', '@entrypoint_0'] : [name];
  const leaf = entrypointLeaves(root).find((l) => l.name === name);
  if (!leaf || leaf.node.fieldName !== undefined) return [name];
  return [name, `@entrypoint_${BigInt(`0b0${leaf.path.replace(/L/g, '0').replace(/R/g, '1')}`).toString()}`];
}

/** Full parameter value from `{entrypoint, value}` (wraps the value in the Left/Right path of the entrypoint). */
export function fromParameters(parameterType: Micheline | TypeNode, params: Parameters): Micheline {
  const f = findEntrypoint(parameterType, params.entrypoint);
  if (!f) throw new MichelsonDataError(`unknown entrypoint: ${params.entrypoint}`);
  let v = params.value;
  for (let i = f.path.length - 1; i >= 0; i--) v = { prim: f.path[i] === 'L' ? 'Left' : 'Right', args: [v] };
  return v;
}

/** The part of a full parameter value that an entrypoint receives (`ToParameters(entrypoint)`). */
export function toParameters(
  parameterType: Micheline | TypeNode,
  value: Micheline,
  entrypoint = '',
): Micheline {
  if (entrypoint === '' || entrypoint === 'default') return value;
  const f = findEntrypoint(parameterType, entrypoint);
  if (!f) throw new MichelsonDataError(`unknown entrypoint: ${entrypoint}`);
  let v = value;
  for (const step of f.path) {
    const want = step === 'L' ? 'Left' : 'Right';
    if (!isPrim(v) || v.prim !== want || v.args?.length !== 1)
      throw new MichelsonDataError(`value is not a call of entrypoint ${entrypoint}`);
    v = v.args[0]!;
  }
  return v;
}

/**
 * Miguel tree of a call's parameters, decoded under its entrypoint's type. Missing parameters (a
 * plain transfer) mean `default` with `Unit`.
 */
export function decodeParameters(
  parameterType: Micheline | TypeNode,
  params?: Partial<Parameters>,
): MiguelNode[] {
  const entrypoint = params?.entrypoint ?? 'default';
  const f = findEntrypoint(parameterType, entrypoint);
  if (!f) throw new MichelsonDataError(`unknown entrypoint: ${entrypoint}`);
  return [toMiguelNode(f.node, params?.value ?? { prim: 'Unit' })];
}

/** Finds a type node by field annotation (`FindByName`); with `isEntrypoint` only root-or branches are searched. */
export function findByName(
  type: Micheline | TypeNode,
  name: string,
  isEntrypoint = false,
): Micheline | undefined {
  if (isEntrypoint) {
    const f = findEntrypoint(type, name);
    return f && f.node.fieldName === name ? typeToMicheline(f.node) : undefined;
  }
  const stack = [tree(type)];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.fieldName === name) return typeToMicheline(n);
    for (let i = n.args.length - 1; i >= 0; i--) stack.push(n.args[i]!);
  }
  return undefined;
}
