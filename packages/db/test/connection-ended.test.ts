/**
 * A PostgreSQL server that ends the pool's idle connections (a restart, pg_terminate_backend, an idle timeout,
 * a test database dropped WITH (FORCE)) must not take the process down: the pool's clients emit 'error', which
 * without a listener is an uncaught exception (it failed a CI run). The next query works on a new connection.
 */
import pg from 'pg';
import { describeDb } from '../src/testing';
import { expect, it } from 'vitest';

// PostgreSQL only in effect: PGlite has no server to end connections; on PGlite the suite checks the handle
// still answers after the same steps (there is nothing to terminate).
describeDb('idle connections ended by the server', { backends: 'both' }, ({ db, kind, databaseUrl }) => {
  it('keeps the process up and answers the next query on a new connection', async () => {
    const before = await db().selectFrom('indexer_state').select('network').execute();
    expect(Array.isArray(before)).toBe(true);
    const url = databaseUrl();
    if (kind === 'postgres') {
      expect(url).toBeTruthy();
      const uncaught: unknown[] = [];
      const onUncaught = (e: unknown) => uncaught.push(e);
      process.on('uncaughtException', onUncaught);
      try {
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        const ended = await admin.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()) t`,
        );
        await admin.end();
        expect(Number(ended.rows[0]!.n)).toBeGreaterThan(0); // the pool's idle client was there
        await new Promise((r) => setTimeout(r, 200)); // the 'error' events arrive
      } finally {
        process.off('uncaughtException', onUncaught);
      }
      expect(uncaught).toEqual([]);
    }
    const after = await db().selectFrom('indexer_state').select('network').execute();
    expect(after).toEqual(before);
  });
});
