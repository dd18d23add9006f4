/**
 * Fewer round trips for the writer on PostgreSQL (node-postgres), through the same kysely transaction:
 *
 * - `COPY … FROM STDIN` for its bulk rows. PostgreSQL spends about half the CPU on a `COPY` of the indexer's
 *   operations and big-map diffs that it spends on `INSERT … SELECT FROM jsonb_populate_recordset($1::jsonb)`
 *   of the same rows: the JSON parameter is parsed as a whole into jsonb and then taken apart again row by
 *   row and field by field (bench/RESULTS.md, indexer). kysely cannot send a COPY, so a query whose text
 *   starts with {@link COPY} is run by the hooked client as a COPY with its one parameter as the data.
 * - Deferred statements ({@link deferred}): a write whose result is not read is not sent on its own; it goes
 *   with the next statement of the transaction that is (one simple-protocol query, its parameters written as
 *   literals exactly as node-postgres would send them). A block's ~25 statements each waited for a turn of
 *   the thread that parses the next block (tens of milliseconds per block in all, the database idle);
 *   now a block costs about eight round trips. An error of a deferred statement is thrown by that next
 *   statement (the transaction fails either way).
 *
 * PGlite has no such hook: the markers are comments there, {@link canCopy} tells the writer to keep its
 * INSERT, and deferred statements run at once.
 */
import { createRequire } from 'node:module';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from '../schema';

const COPY = '/*copy*/';
const DEFER = '/*defer*/';
const PROBE = `${COPY} SELECT false AS copy`;
/** After the statement, before its one parameter (kysely renders it as `$1`). */
const DATA = ' -- ';

const pgUtils = createRequire(import.meta.url)('pg/lib/utils') as {
  prepareValue: (v: unknown) => unknown;
  escapeLiteral: (s: string) => string;
};

/** A parameter as a literal: the text node-postgres would send for it, quoted (an untyped literal, as the parameter). */
function literal(v: unknown): string {
  const p = pgUtils.prepareValue(v);
  if (p === null || p === undefined) return 'NULL';
  if (typeof p !== 'string') throw new Error('deferred statement: unsupported parameter');
  return pgUtils.escapeLiteral(p);
}

/** `text` with `$n` replaced by the literals of `values` (outside quoted literals). */
function inline(text: string, values: unknown): string {
  const vs = Array.isArray(values) ? values : [];
  return text.replace(/'(?:[^']|'')*'|\$(\d+)/g, (m, n: string | undefined) => {
    if (n === undefined) return m;
    const i = Number(n) - 1;
    if (i >= vs.length) throw new Error(`deferred statement: no parameter $${n}`);
    return literal(vs[i]);
  });
}

interface QueryableClient {
  query: (...args: unknown[]) => unknown;
}

type Result = { command: string; rowCount: number | null; rows: unknown[] };

/**
 * Hooks a node-postgres client (`pool.on('connect', …)`): `query('/*copy*\/ COPY t (…) FROM STDIN -- $1',
 * [chunks])` sends the COPY and its data (text format, one line per row, in chunks of whole lines) and
 * resolves like an INSERT; the probe of {@link canCopy} answers true without a round trip; {@link deferred}
 * statements inside a transaction wait for the next other statement, which carries them.
 */
export function useBulkWrites(client: QueryableClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<Result | Result[]>;
  let inTransaction = false;
  let pending: string[] = [];
  const take = () => {
    const text = pending.join(';\n');
    pending = [];
    return text;
  };
  const copy = async (text: string, values: unknown): Promise<Result> => {
    const chunks = (values as unknown[] | undefined)?.[0];
    const at = text.lastIndexOf(DATA);
    if (!Array.isArray(chunks) || !chunks.every((c) => typeof c === 'string') || at < 0)
      throw new Error('COPY without its data');
    const stream = query(copyFrom(text.slice(COPY.length, at))) as unknown as ReturnType<typeof copyFrom>;
    // Chunk by chunk, with a turn of the event loop between two: the server works on the first rows while
    // the next are encoded, and the thread is never held for the whole transaction's data at once.
    // After a failure (the server's error arrives as the stream's) nothing more is written: pg-copy-streams
    // has let go of the connection by then, and a write would throw.
    let failed = false;
    const done = finished(stream);
    done.catch(() => (failed = true)); // awaited below; a failure must not go unhandled meanwhile
    for (const [i, chunk] of chunks.entries()) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      if (failed || stream.destroyed) break;
      if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), done]);
    }
    if (!failed && !stream.destroyed) stream.end();
    await done;
    return { command: 'COPY', rowCount: stream.rowCount, rows: [] };
  };
  client.query = (...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text !== 'string' || args.length > 2) return query(...args);
    if (text === PROBE) return Promise.resolve({ command: 'SELECT', rowCount: 1, rows: [{ copy: true }] });
    if (text.startsWith(DEFER) && inTransaction) {
      pending.push(inline(text, values));
      return Promise.resolve({ command: 'DEFERRED', rowCount: 0, rows: [] });
    }
    const verb = /^\s*(begin|commit|rollback)\b/i.exec(text)?.[1]?.toLowerCase();
    if (verb) inTransaction = verb === 'begin';
    if (verb === 'rollback') pending = [];
    if (pending.length === 0) return text.startsWith(COPY) ? copy(text, values) : query(...args);
    const before = take();
    if (text.startsWith(COPY)) return query(before).then(() => copy(text, values));
    // the deferred statements and this one in one simple-protocol query: its result is the last one
    return query(`${before};\n${inline(text, values)}`).then((r) =>
      Array.isArray(r) ? r[r.length - 1]! : r,
    );
  };
}

/** A write whose result is not read, sent with the transaction's next statement on PostgreSQL (see above). */
export function deferred(statement: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`${sql.raw(DEFER)} ${statement}`;
}

const bulk = new WeakMap<Kysely<Database>, Promise<boolean>>();

/** True when the connection runs {@link copyRows} (PostgreSQL with {@link useBulkWrites}); no round trip there. */
export function canCopy(db: Kysely<Database>): Promise<boolean> {
  if (db.isTransaction) return probe(db);
  let p = bulk.get(db);
  if (!p) {
    p = probe(db);
    bulk.set(db, p);
  }
  return p;
}

async function probe(db: Kysely<Database>): Promise<boolean> {
  const r = await sql<{ copy: boolean }>`${sql.raw(PROBE)}`.execute(db);
  return r.rows[0]?.copy === true;
}

/**
 * Appends rows (COPY text format, see {@link copyValue}) to `table`'s `columns`; only where {@link canCopy}.
 * `chunks` hold whole lines (the writer's: one per block), sent one after the other in one COPY.
 */
export async function copyRows(
  trx: Transaction<Database>,
  table: string,
  columns: readonly string[],
  chunks: readonly string[],
): Promise<void> {
  const data = chunks.filter((c) => c !== '');
  if (data.length === 0) return;
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
