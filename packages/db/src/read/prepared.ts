import { createHash } from 'node:crypto';
import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import type { Db } from '../schema';

/**
 * Named prepared statements on PostgreSQL, opted into per query. node-postgres sends a statement without a
 * name as Parse + Bind + Execute every time, and PostgreSQL parses, analyses and plans it on each call: for
 * the API's short index reads that is most of the server's work (planning 0.05–0.3 ms for a 0.02–0.1 ms
 * execution, bench/RESULTS.md). A query whose text starts with {@link PREPARED} is sent with a name (from a
 * hash of its text) instead (query builders: `.modifyFront(preparedMarker)` on a select): each pool connection parses it once, and after five executions PostgreSQL keeps
 * a generic plan when it costs no more than the custom ones (plan_cache_mode auto).
 *
 * Only fixed query texts may carry the marker (no variable-length `IN (…)` lists: one prepared statement per
 * distinct text and connection stays in the server for the connection's life). PGlite and other drivers
 * see an SQL comment.
 */
export const PREPARED = '/*prepared*/';

/** A query builder's select with `.modifyFront(preparedMarker)`. */
const SELECT_PREPARED = `select ${PREPARED}`;

/** For `db.selectFrom(…).modifyFront(preparedMarker)`: the compiled text starts with `select` and the marker. */
export const preparedMarker = sql.raw(PREPARED);

/** `sql` with the marker in front (see {@link PREPARED}). */
export function prepared<T>(strings: TemplateStringsArray, ...values: unknown[]): RawBuilder<T> {
  return sql<T>`${sql.raw(PREPARED)} ${sql<T>(strings, ...values)}`;
}

const names = new Map<string, string>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `ms_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    if (names.size < 10_000) names.set(text, name);
  }
  return name;
}

interface QueryableClient {
  query: (...args: unknown[]) => unknown;
}

/**
 * Hooks a node-postgres client (`pool.on('connect', usePreparedStatements)`): `query(text, values)` with a
 * text starting with {@link PREPARED} becomes `query({ name, text, values })`.
 */
export function usePreparedStatements(client: QueryableClient): void {
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const [text, values] = args;
    if (
      typeof text === 'string' &&
      Array.isArray(values) &&
      (text.startsWith(PREPARED) || text.startsWith(SELECT_PREPARED))
    )
      return query({ name: nameOf(text), text, values }, ...args.slice(2));
    return query(...args);
  };
}

/**
 * A fixed SQL text (placeholders `$1…`) run as a named prepared statement on PostgreSQL, without a query
 * builder (building and compiling a kysely query costs more Node CPU than the rest of a short read).
 */
export function preparedQuery<R>(text: string): (db: Db, params: readonly unknown[]) => Promise<R[]> {
  const marked = `${PREPARED} ${text}`;
  return async (db, params) => (await db.executeQuery<R>(CompiledQuery.raw(marked, [...params]))).rows;
}
