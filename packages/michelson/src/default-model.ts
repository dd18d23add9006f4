/**
 * default_model (`GetJSONModel`): form data of the schema's shape, filled from a current value
 * (storage, the latest call) or from the schema's defaults.
 */
import { formatMichelson } from './format';
import { isInt, isPrim } from './micheline-core';
import type { Micheline } from './micheline-core';
import type { JsonSchema } from './json-schema';
import { nowRfc3339 } from './json-schema';
import { orBranch, sortedEntries } from './miguel';
import { buildTypeTree, entrypointLeaves } from './type-tree';
import type { TypeNode } from './type-tree';
import { pairParts, readableScalar, seqItems } from './value';

export type FormModel = Record<string, unknown>;

function orPath(n: TypeNode, leaf: TypeNode): string {
  const walk = (t: TypeNode, path: string): string | undefined => {
    if (t === leaf) return path;
    if (t.prim !== 'or') return undefined;
    return walk(t.args[0]!, `${path}L`) ?? walk(t.args[1]!, `${path}R`);
  };
  return walk(n, '') ?? '';
}

/** Writes the model of `v` (typed by `n`) into `out` under the node's name (pairs: nested object). */
function fill(n: TypeNode, v: Micheline, out: FormModel): void {
  switch (n.prim) {
    case 'unit':
      return;
    case 'pair': {
      const obj: FormModel = {};
      const [l, r] = pairParts(v);
      fill(n.args[0]!, l, obj);
      fill(n.args[1]!, r, obj);
      out[n.name] = obj;
      return;
    }
    case 'or': {
      const [leaf, inner] = orBranch(n, v);
      const obj: FormModel = { schemaKey: orPath(n, leaf) };
      fill(leaf, inner, obj);
      out[n.name] = obj;
      return;
    }
    case 'option': {
      if (isPrim(v) && v.prim === 'Some' && v.args?.[0] !== undefined) {
        const obj: FormModel = { schemaKey: 'Some' };
        fill(n.args[0]!, v.args[0], obj);
        out[n.name] = obj;
      } else out[n.name] = { schemaKey: 'None' };
      return;
    }
    case 'list':
    case 'set':
      out[n.name] = seqItems(v, n.prim).map((x) => {
        const item: FormModel = {};
        fill(n.args[0]!, x, item);
        return item;
      });
      return;
    case 'map':
    case 'big_map':
      if (isInt(v)) {
        out[n.name] = [];
        return;
      }
      out[n.name] = sortedEntries(n, seqItems(v, n.prim))
        .filter(([, val]) => val !== null)
        .map(([k, val]) => {
          const item: FormModel = {};
          fill(n.args[0]!, k, item);
          fill(n.args[1]!, val!, item);
          return item;
        });
      return;
    case 'ticket':
      fill(n.ticketPair!, v, out);
      return;
    case 'lambda':
      out[n.name] = formatMichelson(v);
      return;
    default:
      out[n.name] = readableScalar(n.prim, v);
  }
}

/** Model of a value: `{ <root name>: … }` (entrypoint style). */
export function modelOf(n: TypeNode, value: Micheline): FormModel {
  const out: FormModel = {};
  fill(n, value, out);
  return out;
}

/** Storage default_model: the root pair's fields lifted to the top level. */
export function storageModel(storageType: Micheline | TypeNode, value: Micheline): FormModel {
  const tree = 'id' in (storageType as object) ? (storageType as TypeNode) : buildTypeTree(storageType);
  const m = modelOf(tree, value);
  return tree.prim === 'pair' ? (m[tree.name] as FormModel) : m;
}

/** Entrypoint default_model from a call's value, keyed by the entrypoint node (e.g. `{ "approve": {…} }`). */
export function entrypointModel(
  parameterType: Micheline | TypeNode,
  entrypoint: string,
  value: Micheline,
): FormModel | undefined {
  const tree = 'id' in (parameterType as object) ? (parameterType as TypeNode) : buildTypeTree(parameterType);
  const leaf = entrypointLeaves(tree).find((l) => l.name === entrypoint);
  return leaf ? modelOf(leaf.node, value) : undefined;
}

/** Model holding the schema's defaults (empty strings, 0, false, [], None, the first or branch). */
export function emptyModel(schema: JsonSchema | null): FormModel {
  const out: FormModel = {};
  if (!schema?.properties) return out;
  for (const [k, p] of Object.entries(schema.properties)) {
    if (k === 'schemaKey') continue;
    out[k] = emptyValue(p);
  }
  return out;
}

function emptyValue(p: JsonSchema): unknown {
  if (p.prim === 'option') return { schemaKey: 'None' };
  if (p.oneOf && p.oneOf.length > 0) {
    const first = p.oneOf[0]!;
    return { ...emptyModel(first), schemaKey: first.properties?.schemaKey?.const };
  }
  if (p.type === 'array') return [];
  if (p.type === 'object') return emptyModel(p);
  if (p.prim === 'timestamp') return nowRfc3339();
  return p.default ?? '';
}
