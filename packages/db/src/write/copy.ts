/**
 * `COPY … FROM STDIN` for the writer's bulk rows on PostgreSQL (node-postgres), through the same kysely
 * transaction. PostgreSQL spends about half the CPU on a `COPY` of the indexer's operations and big-map
 * diffs that it spends on `INSERT … SELECT FROM jsonb_populate_recordset($1::jsonb)` of the same rows: the
 * JSON parameter is parsed as a whole into jsonb and then taken apart again row by row and field by field
 * (bench/RESULTS.md, indexer). kysely cannot send a COPY, so a query whose text starts with {@link COPY}
 * is run by the hooked client ({@link useCopy}, `pool.on('connect', …)`) as a COPY with its one parameter
 * as the data. PGlite has no such hook: {@link canCopy} tells the writer to keep its INSERT there.
 */
import { finished } from 'node:stream/promises';
import { sql, type Transaction } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from '../schema';

const COPY = '/*copy*/';
const PROBE = `${COPY} SELECT false AS copy`;
/** After the statement, before its one parameter (kysely renders it as `$1`). */
const DATA = ' -- ';

interface QueryableClient {
  query: (...args: unknown[]) => unknown;
}

/**
 * Hooks a node-postgres client: `query('/*copy*\/ COPY t (…) FROM STDIN -- $1', [data])` sends the COPY and
 * `data` (text format, one line per row) and resolves like an INSERT; the probe of {@link canCopy} answers
 * true without a round trip.
 */
export function useCopy(client: QueryableClient): void {
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text !== 'string' || !text.startsWith(COPY)) return query(...args);
    if (text === PROBE) return Promise.resolve({ command: 'SELECT', rowCount: 1, rows: [{ copy: true }] });
    const data = (values as unknown[] | undefined)?.[0];
    const at = text.lastIndexOf(DATA);
    if (typeof data !== 'string' || at < 0) return Promise.reject(new Error('COPY without its data'));
    return (async () => {
      const stream = query(copyFrom(text.slice(COPY.length, at))) as ReturnType<typeof copyFrom>;
      stream.end(data);
      await finished(stream);
      return { command: 'COPY', rowCount: stream.rowCount, rows: [] };
    })();
  };
}

/** True when this transaction's connection runs {@link copyRows} (PostgreSQL with {@link useCopy}). */
export async function canCopy(trx: Transaction<Database>): Promise<boolean> {
  const r = await sql<{ copy: boolean }>`${sql.raw(PROBE)}`.execute(trx);
  return r.rows[0]?.copy === true;
}

/** Appends rows (COPY text format, see {@link copyLine}) to `table`'s `columns`; only where {@link canCopy}. */
export async function copyRows(
  trx: Transaction<Database>,
  table: string,
  columns: readonly string[],
  data: string,
): Promise<void> {
  if (data === '') return;
  const cols = sql.join(columns.map((c) => sql.ref(c)));
  await sql`${sql.raw(COPY)} COPY ${sql.table(table)} (${cols}) FROM STDIN${sql.raw(DATA)}${data}`.execute(
    trx,
  );
}

const SPECIAL = /[\\\t\n\r]/;
const escapeText = (s: string): string =>
  SPECIAL.test(s)
    ? s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : s;

/**
 * One value in COPY text format: null/undefined → `\N`, strings escaped, numbers and booleans as text,
 * other values as JSON (whose text has no raw tab or line break: only its backslashes are doubled).
 */
export function copyValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return escapeText(v);
    case 'number':
    case 'bigint':
      return String(v);
    case 'boolean':
      return v ? 't' : 'f';
    case 'undefined':
      return '\\N';
    default: {
      if (v === null) return '\\N';
      const j = JSON.stringify(v);
      return j.includes('\\') ? j.replace(/\\/g, '\\\\') : j;
    }
  }
}
