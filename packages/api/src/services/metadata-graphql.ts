/**
 * The metadata GraphQL service (Hasura style): `token_metadata` and `contract_metadata` with `where`,
 * `order_by`, `limit` and `offset`, as the web client's GetContractMetadata, GetTokenMetadata and
 * FindTokenMetadata send them.
 */
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  type ASTNode,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type ValueNode,
} from 'graphql';
import {
  queryMetadata,
  type Db,
  type MetadataColumn,
  type MetadataFilter,
  type MetadataOp,
  type MetadataQuery,
} from '@michelscope/db/read';

export const MAX_LIMIT = 1000;
/** Bounds on one request: query text length, nesting of selections/values, and root fields. */
export const MAX_QUERY_LENGTH = 20_000;
export const MAX_DEPTH = 12;
export const MAX_ROOT_FIELDS = 10;

const anyJson = (v: unknown): unknown => v;
function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value)]));
    case Kind.LIST:
      return node.values.map(literal);
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    default:
      return null;
  }
}
const Jsonb = new GraphQLScalarType({
  name: 'jsonb',
  serialize: anyJson,
  parseValue: anyJson,
  parseLiteral: literal,
});
/** numeric as a decimal string (token ids exceed 2^53). */
const Numeric = new GraphQLScalarType({
  name: 'numeric',
  serialize: (v) =>
    typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? String(v) : null,
  parseValue: (v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null),
  parseLiteral: (n) => (n.kind === Kind.INT || n.kind === Kind.STRING ? n.value : null),
});

const OP_NAMES: Record<string, MetadataOp> = {
  _eq: 'eq',
  _neq: 'neq',
  _in: 'in',
  _nin: 'nin',
  _gt: 'gt',
  _gte: 'gte',
  _lt: 'lt',
  _lte: 'lte',
  _like: 'like',
  _ilike: 'ilike',
};

function comparison(name: string, scalar: GraphQLInputType, text: boolean) {
  const fields: GraphQLInputFieldConfigMap = {};
  for (const op of Object.keys(OP_NAMES)) {
    if ((op === '_like' || op === '_ilike') && !text) continue;
    fields[op] = {
      type: op === '_in' || op === '_nin' ? new GraphQLList(new GraphQLNonNull(scalar)) : scalar,
    };
  }
  return new GraphQLInputObjectType({ name, fields });
}
const StringCmp = comparison('String_comparison_exp', GraphQLString, true);
const IntCmp = comparison('Int_comparison_exp', GraphQLInt, false);
// token_id takes strings too: FindTokenMetadata compares it with a String variable
const NumericCmp = comparison('numeric_comparison_exp', GraphQLString, false);
const JsonbCast = new GraphQLInputObjectType({
  name: 'jsonb_cast_exp',
  fields: { String: { type: StringCmp } },
});
const JsonbCmp = new GraphQLInputObjectType({
  name: 'jsonb_comparison_exp',
  fields: { _cast: { type: JsonbCast } },
});

const OrderBy = new GraphQLEnumType({
  name: 'order_by',
  values: { asc: { value: 'asc' }, desc: { value: 'desc' } },
});

const COLUMNS: { name: MetadataColumn; cmp: GraphQLInputObjectType; tokenOnly?: boolean }[] = [
  { name: 'network', cmp: StringCmp },
  { name: 'contract', cmp: StringCmp },
  { name: 'token_id', cmp: NumericCmp, tokenOnly: true },
  { name: 'name', cmp: StringCmp, tokenOnly: true },
  { name: 'symbol', cmp: StringCmp, tokenOnly: true },
  { name: 'status', cmp: IntCmp },
  { name: 'retry_count', cmp: IntCmp },
  { name: 'link', cmp: StringCmp },
  { name: 'error', cmp: StringCmp },
];

type Where = Record<string, unknown>;

/** An error whose message the client sees (others are masked). */
export class MetadataQueryError extends Error {}

function checked<T>(v: T): T {
  if (typeof v === 'string' && v.includes('\u0000'))
    throw new MetadataQueryError('strings must not contain NUL');
  if (Array.isArray(v)) v.forEach(checked);
  return v;
}

function toFilter(w: Where): MetadataFilter {
  const items: MetadataFilter[] = [];
  for (const [key, value] of Object.entries(w)) {
    if (value === null || value === undefined) continue;
    if (key === '_and' || key === '_or') {
      items.push({ kind: key === '_and' ? 'and' : 'or', items: (value as Where[]).map(toFilter) });
    } else if (key === '_not') {
      items.push({ kind: 'not', item: toFilter(value as Where) });
    } else if (key === 'metadata') {
      const str = ((value as Where)._cast as Where | undefined)?.String as Where | undefined;
      for (const [op, v] of Object.entries(str ?? {})) {
        if (v === null || v === undefined) continue;
        const o = OP_NAMES[op];
        if (o === 'eq' || o === 'like' || o === 'ilike')
          items.push({
            kind: 'metadata_text',
            op: o,
            value: checked(typeof v === 'string' ? v : JSON.stringify(v)),
          });
        else if (o) throw new MetadataQueryError(`metadata: ${op} is not supported`);
      }
    } else {
      for (const [op, v] of Object.entries(value as Where)) {
        const o = OP_NAMES[op];
        if (!o || v === null || v === undefined) continue;
        items.push({
          kind: 'cmp',
          column: key as MetadataColumn,
          op: o,
          value: checked(v as string | number),
        });
      }
    }
  }
  return { kind: 'and', items };
}

function tableField(table: MetadataQuery['table'], db: Db) {
  const token = table === 'token_metadata';
  const cols = COLUMNS.filter((c) => token || !c.tokenOnly);
  const boolExp: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: `${table}_bool_exp`,
    fields: () => ({
      _and: { type: new GraphQLList(new GraphQLNonNull(boolExp)) },
      _or: { type: new GraphQLList(new GraphQLNonNull(boolExp)) },
      _not: { type: boolExp },
      metadata: { type: JsonbCmp },
      ...Object.fromEntries(cols.map((c) => [c.name, { type: c.cmp }])),
    }),
  });
  const orderBy = new GraphQLInputObjectType({
    name: `${table}_order_by`,
    fields: Object.fromEntries(cols.map((c) => [c.name, { type: OrderBy }])),
  });
  const type = new GraphQLObjectType({
    name: table,
    fields: {
      network: { type: new GraphQLNonNull(GraphQLString) },
      contract: { type: new GraphQLNonNull(GraphQLString) },
      ...(token ? { token_id: { type: new GraphQLNonNull(Numeric) } } : {}),
      status: { type: new GraphQLNonNull(GraphQLInt) },
      error: { type: GraphQLString },
      link: { type: GraphQLString },
      metadata: { type: Jsonb },
      retry_count: { type: new GraphQLNonNull(GraphQLInt) },
    },
  });
  const args: GraphQLFieldConfigArgumentMap = {
    where: { type: boolExp },
    order_by: { type: new GraphQLList(new GraphQLNonNull(orderBy)) },
    limit: { type: GraphQLInt },
    offset: { type: GraphQLInt },
  };
  return {
    type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type))),
    args,
    resolve: async (
      _: unknown,
      a: { where?: Where; order_by?: Record<string, string>[]; limit?: number; offset?: number },
    ) => {
      const limit = a.limit ?? MAX_LIMIT;
      const offset = a.offset ?? 0;
      if (limit < 0) throw new MetadataQueryError('"limit" must be non-negative');
      if (offset < 0) throw new MetadataQueryError('"offset" must be non-negative');
      const orderBy = (a.order_by ?? []).flatMap((o) =>
        Object.entries(o).map(([column, dir]) => ({
          column: column as MetadataColumn,
          desc: dir === 'desc',
        })),
      );
      return queryMetadata(db, {
        table,
        where: a.where ? toFilter(a.where) : undefined,
        orderBy,
        limit: Math.min(limit, MAX_LIMIT),
        offset,
      });
    },
  };
}

export function metadataSchema(db: Db): GraphQLSchema {
  return new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'query_root',
      fields: {
        token_metadata: tableField('token_metadata', db),
        contract_metadata: tableField('contract_metadata', db),
      },
    }),
  });
}

/** Deepest nesting of selection sets and input values in a document (bounds work on hostile queries). */
export function documentDepth(node: ASTNode): number {
  let max = 0;
  const walk = (n: unknown, depth: number): void => {
    if (depth > max) max = depth;
    if (depth > MAX_DEPTH + 1 || !n || typeof n !== 'object') return;
    const o = n as Record<string, unknown>;
    const nests = o.kind === Kind.SELECTION_SET || o.kind === Kind.OBJECT || o.kind === Kind.LIST;
    for (const [k, v] of Object.entries(o)) {
      if (k === 'loc') continue;
      if (Array.isArray(v)) for (const c of v) walk(c, depth + (nests ? 1 : 0));
      else if (v && typeof v === 'object') walk(v, depth + (nests ? 1 : 0));
    }
  };
  walk(node, 0);
  return max;
}
