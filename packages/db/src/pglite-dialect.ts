import fs from 'node:fs';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Kysely dialect over an embedded PGlite instance.
 *
 * PGlite is a single connection, so the driver hands out one connection at a time: a transaction
 * holds it until COMMIT/ROLLBACK and other queries wait for it. That keeps an indexer transaction
 * from interleaving with API reads in the same process.
 */
export class PGliteDialect implements Dialect {
  /** `dataDir`: the instance's data folder, checked before each use (see `FolderCheck`); none in memory. */
  constructor(
    private readonly pglite: PGlite,
    private readonly dataDir?: string,
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.dataDir ? new FolderCheck(this.dataDir) : undefined);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/**
 * The data folder removed (or replaced) under a running PGlite: its open files still take writes, which are
 * lost with them, and the next file it creates fails ('could not create directory "base/5"'). So the folder
 * is checked (at most every 500 ms) before a connection is handed out: gone or another folder, every query
 * fails with a message that says so (the indexer's 'failed' state, issue 34) until it is back.
 */
class FolderCheck {
  private readonly ino: number;
  private readonly dev: number;
  private checkedAt = 0;
  constructor(private readonly dir: string) {
    const st = fs.statSync(dir);
    this.ino = st.ino;
    this.dev = st.dev;
  }

  check(): void {
    const now = Date.now();
    if (now - this.checkedAt < 500) return;
    let st: fs.Stats;
    try {
      st = fs.statSync(this.dir);
    } catch (e) {
      throw new Error(`the database folder ${this.dir} is gone (${(e as NodeJS.ErrnoException).code ?? e})`);
    }
    if (st.ino !== this.ino || st.dev !== this.dev)
      throw new Error(
        `the database folder ${this.dir} was replaced while the database was open; restart to open the new one`,
      );
    this.checkedAt = now;
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    pglite: PGlite,
    private readonly folder?: FolderCheck,
  ) {
    this.connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.queue;
    this.queue = previous.then(() => next);
    await previous;
    try {
      this.folder?.check();
    } catch (e) {
      release();
      throw e;
    }
    this.connection.release = release;
    return this.connection;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel
      ? ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}`
      : '';
    await conn.executeQuery(CompiledQuery.raw(`BEGIN${isolation}`));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    (conn as PGliteConnection).release?.();
  }

  async destroy(): Promise<void> {}
}

class PGliteConnection implements DatabaseConnection {
  release: (() => void) | undefined;
  constructor(private readonly pglite: PGlite | Transaction) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Parameterless text may hold several statements (migrations): run it with the simple protocol.
    const result =
      query.parameters.length === 0
        ? ((await this.pglite.exec(query.sql)).at(-1) ?? { rows: [], affectedRows: 0, fields: [] })
        : await this.pglite.query<R>(query.sql, query.parameters as unknown[]);
    const affected = result.affectedRows;
    return {
      rows: result.rows as R[],
      ...(affected !== undefined && /^\s*(insert|update|delete|merge)/i.test(query.sql)
        ? { numAffectedRows: BigInt(affected) }
        : {}),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on PGlite');
  }
}
