import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect';
import { usePreparedStatements } from './read/prepared';
import { useBulkWrites } from './write/copy';
import { LIVE_CHANNEL_PREFIX } from './live';
import type { Database, Db } from './schema';

export interface OpenDatabaseOptions {
  /** postgres://… — use a PostgreSQL server. Without it the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data folder (`${DATA_DIR}/pglite`); omitted = in memory. Ignored with databaseUrl. */
  dataDir?: string;
  /** PostgreSQL schema to use (created when missing); PostgreSQL only. Default: public. */
  schema?: string;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /**
   * PostgreSQL only: every transaction of the pool is read-only (`default_transaction_read_only`), as on a
   * read replica: the API's read connection (`DATABASE_READ_URL`, issue 36 part 4), so that a write sent to it
   * by mistake fails the same way whether the URL names a replica or the primary.
   */
  readOnly?: boolean;
  /**
   * PGlite only: start from this data directory (a `dumpDataDir()` tarball) instead of an empty database.
   * Tests use it to open an already migrated database (packages/db/test/global-setup.ts).
   */
  loadDataDir?: Blob;
}

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * LISTENs to the live channel of this database's schema (db/src/live.ts): `onPayload` gets each
   * notification's payload. On PostgreSQL a dedicated connection (not one of the pool's) listens and is
   * reopened after a drop (back-off 0.5 s → 10 s), then `onReconnect` runs: notifications sent meanwhile are
   * lost, so the caller compares the stored head with what it last heard. Returns the stop function.
   */
  listen(onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const INT8_OID = 20;
const parseInt8 = (value: string): number => Number(value);

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Opens the database: PGlite (embedded, default) or PostgreSQL when `databaseUrl` is given. */
export async function openDatabase(opts: OpenDatabaseOptions = {}): Promise<DbHandle> {
  if (opts.databaseUrl)
    return openPostgres(opts.databaseUrl, opts.schema, opts.maxConnections, opts.readOnly ?? false);
  const pglite = await createPGlite(opts);
  const dataDir = opts.dataDir ? path.resolve(opts.dataDir) : undefined;
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite, dataDir) });
  return {
    db,
    kind: 'pglite',
    // one session: the indexer's NOTIFY reaches this LISTEN at its COMMIT, in the same process
    listen: async (onPayload) => {
      const stop = await pglite.listen(`${LIVE_CHANNEL_PREFIX}public`, onPayload);
      return () => stop();
    },
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

/** A PGlite instance as {@link openDatabase} opens it (extensions, parsers), for a caller that needs it. */
export async function createPGlite(
  opts: Pick<OpenDatabaseOptions, 'dataDir' | 'loadDataDir'> = {},
): Promise<PGlite> {
  if (opts.dataDir) await mkdir(path.resolve(opts.dataDir), { recursive: true });
  return PGlite.create({
    ...(opts.dataDir ? { dataDir: path.resolve(opts.dataDir) } : {}),
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    extensions: { pg_trgm },
    parsers: { [INT8_OID]: parseInt8 },
  });
}

async function openPostgres(
  url: string,
  schema: string | undefined,
  max = 10,
  readOnly = false,
): Promise<DbHandle> {
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await admin.end();
    }
  }
  const settings = [
    // no JIT compilation: an explorer's statements run in a millisecond, and the planner's row estimates (a
    // word's prefix in the full-text index: 12,000 rows for 9) pass jit_above_cost on statements that then spend
    // 45 ms compiling and 0.5 ms running (/search at 10× mainnet, issue 36)
    '-c jit=off',
    ...(schema ? [`-c search_path="${schema}",public`] : []),
    ...(readOnly ? ['-c default_transaction_read_only=on'] : []),
  ];
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types,
    ...(settings.length ? { options: settings.join(' ') } : {}),
  });
  // An idle client the server ends (a restart, pg_terminate_backend, an idle timeout) emits 'error' on the
  // pool: without a listener that is an uncaught exception that takes the whole process down. The pool drops
  // that client and opens another for the next query, so the error is only worth a line.
  pool.on('error', (err) => {
    console.warn(`[db] an idle PostgreSQL connection ended: ${err.message}; the next query opens another`);
  });
  pool.on('connect', (client) => {
    // A client checked out (between a transaction's statements) whose connection drops emits 'error' too, and
    // the pool listens only while it is idle: the error surfaces in its next query, and its release drops it.
    client.on('error', () => undefined);
    usePreparedStatements(client); // marked queries: named prepared statements (read/prepared.ts)
    useBulkWrites(client); // the writer's COPY and deferred statements (write/copy.ts)
  });
  // Fail fast with a clear message when the server is unreachable.
  const client = await pool.connect().catch((err: unknown) => {
    void pool.end();
    throw new Error(`cannot connect to PostgreSQL at ${redact(url)}: ${(err as Error).message}`);
  });
  client.release();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const listeners = new Set<() => Promise<void>>();
  return {
    db,
    kind: 'postgres',
    listen: async (onPayload, onReconnect) => {
      const stop = await listenPostgres(url, types, schema, onPayload, onReconnect);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    close: async () => {
      await Promise.all([...listeners].map((stop) => stop()));
      await db.destroy();
    },
  };
}

/** One dedicated client LISTENing on the schema's live channel, reopened after a drop until stopped. */
async function listenPostgres(
  url: string,
  types: pg.ClientConfig['types'],
  schema: string | undefined,
  onPayload: (payload: string) => void,
  onReconnect?: () => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let delay = 500;
  const open = async (): Promise<void> => {
    const c = new pg.Client({
      connectionString: url,
      types,
      ...(schema ? { options: `-c search_path="${schema}",public` } : {}),
    });
    c.on('error', () => undefined); // 'end' follows and reopens
    await c.connect();
    const name = (await c.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]?.s ?? 'public';
    const channel = `${LIVE_CHANNEL_PREFIX}${name}`;
    c.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) onPayload(msg.payload);
    });
    c.on('end', () => {
      if (client === c) client = undefined;
      if (!stopped) retry();
    });
    await c.query(`LISTEN "${channel}"`);
    if (stopped) {
      await c.end();
      return;
    }
    client = c;
    delay = 500;
  };
  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      open().then(
        () => onReconnect?.(),
        () => {
          delay = Math.min(delay * 2, 10_000);
          retry();
        },
      );
    }, delay);
  };
  await open();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await client?.end().catch(() => undefined);
    client = undefined;
  };
}

/** The URL without its password, for logs. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}
