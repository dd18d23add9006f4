import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../schema';

/** Filterable columns of the metadata GraphQL service (`contract` is `address` in contract_metadata). */
export type MetadataColumn =
  'network' | 'contract' | 'token_id' | 'status' | 'retry_count' | 'link' | 'error' | 'name' | 'symbol';
export type MetadataOp = 'eq' | 'neq' | 'in' | 'nin' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'ilike';

/** A boolean filter tree (Hasura `where`), built by the API from validated input. */
export type MetadataFilter =
  | { kind: 'and' | 'or'; items: MetadataFilter[] }
  | { kind: 'not'; item: MetadataFilter }
  | { kind: 'cmp'; column: MetadataColumn; op: MetadataOp; value: string | number | (string | number)[] }
  /** The metadata JSON cast to text (`_cast: {String: …}`). */
  | { kind: 'metadata_text'; op: 'eq' | 'like' | 'ilike'; value: string };

export interface MetadataQuery {
  table: 'token_metadata' | 'contract_metadata';
  where?: MetadataFilter;
  orderBy?: { column: MetadataColumn; desc: boolean }[];
  limit: number;
  offset: number;
}

export interface MetadataRow {
  network: string;
  contract: string;
  token_id: string | null;
  status: number;
  error: string | null;
  link: string | null;
  metadata: unknown;
  retry_count: number;
}

const OPS: Record<MetadataOp, string> = {
  eq: '=',
  neq: '<>',
  in: 'IN',
  nin: 'NOT IN',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'LIKE',
  ilike: 'ILIKE',
};

function column(table: MetadataQuery['table'], c: MetadataColumn): RawBuilder<unknown> {
  // qualified: a bare name in ORDER BY would mean the output column (token_id as text)
  if (c === 'contract') return sql.ref(table === 'token_metadata' ? `${table}.contract` : `${table}.address`);
  if (c === 'token_id' && table === 'contract_metadata') return sql`NULL::numeric`;
  if ((c === 'name' || c === 'symbol') && table === 'contract_metadata') return sql`NULL::text`;
  return sql.ref(`${table}.${c}`);
}

/** token_id is numeric: a value that is not a decimal integer matches nothing instead of failing. */
const isNumeric = (v: string | number) => /^\d{1,78}$/.test(String(v));

function condition(table: MetadataQuery['table'], f: MetadataFilter): RawBuilder<unknown> {
  switch (f.kind) {
    case 'and':
    case 'or':
      if (f.items.length === 0) return sql`TRUE`;
      return sql`(${sql.join(
        f.items.map((i) => condition(table, i)),
        f.kind === 'and' ? sql` AND ` : sql` OR `,
      )})`;
    case 'not':
      return sql`(NOT ${condition(table, f.item)})`;
    case 'metadata_text':
      return sql`(metadata::text ${sql.raw(OPS[f.op])} ${f.value})`;
    case 'cmp': {
      const col = column(table, f.column);
      const op = sql.raw(OPS[f.op]);
      if (Array.isArray(f.value)) {
        let values = f.value;
        if (f.column === 'token_id') values = values.filter(isNumeric);
        if (values.length === 0) return f.op === 'nin' ? sql`TRUE` : sql`FALSE`;
        const cast = f.column === 'token_id' ? sql`::numeric` : sql``;
        return sql`(${col} ${op} (${sql.join(values.map((v) => sql`${String(v)}${cast}`))}))`;
      }
      if (f.column === 'token_id' && f.op !== 'like' && f.op !== 'ilike') {
        if (!isNumeric(f.value)) return f.op === 'neq' ? sql`TRUE` : sql`FALSE`;
        return sql`(${col} ${op} ${String(f.value)}::numeric)`;
      }
      if (f.op === 'like' || f.op === 'ilike') return sql`(${col}::text ${op} ${String(f.value)})`;
      return sql`(${col} ${op} ${f.value})`;
    }
  }
}

/** Rows of token_metadata or contract_metadata for the metadata GraphQL service. */
export async function queryMetadata(db: Db, q: MetadataQuery): Promise<MetadataRow[]> {
  const t = q.table;
  const where = q.where ? condition(t, q.where) : sql`TRUE`;
  const order = (q.orderBy ?? []).map((o) => sql`${column(t, o.column)} ${sql.raw(o.desc ? 'DESC' : 'ASC')}`);
  // a stable order for paging: the primary key last
  order.push(
    t === 'token_metadata'
      ? sql`token_metadata.network, token_metadata.contract, token_metadata.token_id`
      : sql`contract_metadata.network, contract_metadata.address`,
  );
  const tokenId = t === 'token_metadata' ? sql`token_id::text` : sql`NULL::text`;
  const contract = t === 'token_metadata' ? sql.ref('contract') : sql.ref('address');
  const res = await sql<MetadataRow>`
    SELECT network, ${contract} AS contract, ${tokenId} AS token_id, status, error, link, metadata, retry_count
    FROM ${sql.table(t)}
    WHERE ${where}
    ORDER BY ${sql.join(order)}
    LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
  return res.rows;
}
