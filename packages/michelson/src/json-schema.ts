/**
 * JSON schema of a Michelson type for the interact / storage / fork forms (bcd-api.md §5.2):
 * the reference's vjsf dialect (prim, schemaKey oneOf for or/option, x-itemTitle for maps...).
 */
import { isTypeEqualShape } from './type-equal';
import { buildTypeTree, entrypointLeaves, isSynthetic } from './type-tree';
import type { TypeNode } from './type-tree';
import type { Micheline } from './micheline-core';

export interface JsonSchema {
  type?: string;
  title?: string;
  prim?: string;
  tag?: string;
  format?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  oneOf?: JsonSchema[];
  required?: string[];
  'x-itemTitle'?: string;
  const?: string;
  schemaKey?: JsonSchema;
  items?: JsonSchema;
  'x-options'?: { sectionsClass: string };
}

const INTEGER = new Set(['int', 'nat', 'mutez']);
const NESTED = new Set(['pair', 'or', 'option', 'contract']);

/** Current time as RFC 3339 (seconds precision, UTC): the timestamp default. */
export const nowRfc3339 = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

const VIEW_TAGS: [string, Micheline][] = [
  ['view_nat', { prim: 'nat' }],
  ['view_address', { prim: 'address' }],
  [
    'view_balance_of',
    {
      prim: 'list',
      args: [
        {
          prim: 'pair',
          args: [{ prim: 'pair', args: [{ prim: 'address' }, { prim: 'nat' }] }, { prim: 'nat' }],
        },
      ],
    },
  ],
];
const VIEW_TREES = VIEW_TAGS.map(([tag, t]) => [tag, buildTypeTree(t)] as const);

/** Callback-view tag of a `contract T` (view_nat, view_address, view_balance_of), if any. */
export function contractTag(n: TypeNode): string | undefined {
  const param = n.args[0];
  if (!param) return undefined;
  for (const [tag, t] of VIEW_TREES) if (isTypeEqualShape(param, t)) return tag;
  return undefined;
}

function leaf(n: TypeNode): JsonSchema {
  if (INTEGER.has(n.prim)) return { type: 'integer', prim: n.prim, title: n.name, default: 0 };
  if (n.prim === 'bool') return { type: 'boolean', prim: 'bool', title: n.name, default: false };
  if (n.prim === 'timestamp')
    return { type: 'string', prim: 'timestamp', title: n.name, format: 'date-time', default: nowRfc3339() };
  if (n.prim === 'address')
    return { type: 'string', prim: 'address', title: n.name, default: '', minLength: 36, maxLength: 36 };
  return { type: 'string', prim: n.prim, title: n.name, default: '' };
}

const schemaKey = (c: string): JsonSchema => ({ type: 'string', const: c });

/** Adds a child's fields to `props`: pair/or/option/contract nested under its name, unit nothing, others merged. */
function addFields(child: TypeNode, props: Record<string, JsonSchema>): void {
  if (child.prim === 'unit') return;
  const s = schemaOf(child);
  if (!s) return;
  if (NESTED.has(child.prim)) props[child.name] = s;
  else if (s.properties) Object.assign(props, s.properties);
}

function orBranches(n: TypeNode, path: string, out: JsonSchema[]): void {
  n.args.forEach((b, i) => {
    const p = path + (i === 0 ? 'L' : 'R');
    if (b.prim === 'or') return orBranches(b, p, out);
    const properties: Record<string, JsonSchema> = { schemaKey: schemaKey(p) };
    addFields(b, properties);
    out.push({ title: b.name, properties });
  });
}

/** Schema of one node (null for unit). */
export function schemaOf(n: TypeNode): JsonSchema | null {
  switch (n.prim) {
    case 'unit':
      return null;
    case 'pair': {
      const properties: Record<string, JsonSchema> = {};
      for (const a of n.args) addFields(a, properties);
      const s: JsonSchema = { type: 'object', properties };
      if (!isSynthetic(n.name)) {
        s.title = n.name;
        s['x-options'] = { sectionsClass: 'pl-0' };
      }
      return s;
    }
    case 'or': {
      const oneOf: JsonSchema[] = [];
      orBranches(n, '', oneOf);
      return { type: 'object', title: n.name, prim: 'or', oneOf };
    }
    case 'option': {
      const some: Record<string, JsonSchema> = { schemaKey: schemaKey('Some') };
      addFields(n.args[0]!, some);
      return {
        type: 'object',
        title: n.name,
        prim: 'option',
        default: { schemaKey: schemaKey('None') },
        oneOf: [
          { title: 'None', properties: { schemaKey: schemaKey('None') } },
          { title: 'Some', properties: some },
        ],
      };
    }
    case 'list':
    case 'set': {
      const properties: Record<string, JsonSchema> = {};
      addFields(n.args[0]!, properties);
      return {
        type: 'object',
        properties: {
          [n.name]: { type: 'array', prim: n.prim, default: [], items: { type: 'object', properties } },
        },
      };
    }
    case 'map':
    case 'big_map': {
      const properties: Record<string, JsonSchema> = {};
      addFields(n.args[0]!, properties);
      addFields(n.args[1]!, properties);
      const items: JsonSchema = { type: 'object', properties };
      const required = Object.keys(properties);
      if (required.length > 0) items.required = required;
      return {
        type: 'object',
        properties: {
          [n.name]: { type: 'array', title: n.name, default: [], 'x-itemTitle': n.args[0]!.name, items },
        },
      };
    }
    case 'contract': {
      const s: JsonSchema = { type: 'string', prim: 'contract', title: n.name, default: '' };
      const tag = contractTag(n);
      if (tag) s.tag = tag;
      return s;
    }
    case 'ticket':
      return schemaOf(n.ticketPair!);
    default:
      return { type: 'object', properties: { [n.name]: leaf(n) } };
  }
}

/** JSON schema of a whole type (storage, view parameter...). `unit` gives null. */
export function jsonSchema(type: Micheline): JsonSchema | null {
  return schemaOf(buildTypeTree(type));
}

/** Wraps a non-object schema so that every entrypoint form is an object (`WrapEntrypointJSONSchema`). */
export function wrapEntrypointSchema(s: JsonSchema | null, n: TypeNode): JsonSchema {
  if (s === null) return { type: 'object', properties: { '': { prim: n.prim } } };
  if (s.type === 'object') return s;
  return { type: 'object', properties: { [n.name]: s } };
}

/** Schema of one entrypoint of a parameter type; undefined when there is no such entrypoint. */
export function entrypointSchemaOf(tree: TypeNode, entrypoint: string): JsonSchema | undefined {
  const leafNode = entrypointLeaves(tree).find((l) => l.name === entrypoint)?.node;
  return leafNode ? wrapEntrypointSchema(schemaOf(leafNode), leafNode) : undefined;
}
