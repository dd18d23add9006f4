// Storage faults of the indexer's database (issue 34 item 5): the database becomes unreachable, or its disk
// fills up. The indexer enters the 'failed' state with the error and when it began, retries with back-off, and
// once the cause is gone goes on from its stored head: every level once, none lost, none twice.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DbHandle } from '@michelscope/db';
import { describeDb } from '@michelscope/db/testing';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startIndexer } from '../src/index';
import { FakeNode, freePort, TALLINN, waitFor } from './fake-node';

type Handle = ReturnType<typeof startIndexer>;

/** A TCP proxy to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored. */
class CuttableProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async open(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

// PostgreSQL only in substance: a server can be cut off and its disk filled while the indexer runs; PGlite is
// in the indexer's own process (its cases say so and skip).
describeDb('indexer storage faults', { backends: 'both' }, ({ kind, databaseUrl }) => {
  let node: FakeNode;
  let running: Handle[] = [];
  let handles: DbHandle[] = [];
  let lines: string[] = [];
  let network = '';
  let counter = 0;

  beforeEach(() => {
    node = new FakeNode();
    lines = [];
    network = `faultnet${++counter}`;
  });
  afterEach(async () => {
    await Promise.all(running.map((h) => h.stop()));
    running = [];
    await node.stop();
    for (const h of handles.splice(0)) await h.close().catch(() => undefined);
  });

  function start(db: DbHandle['db'], rpcUrl: string): Handle {
    const h = startIndexer({
      db,
      network,
      rpcUrl,
      pollIntervalMs: 30,
      startLevel: 1,
      log: (l) => lines.push(l),
      backoff: { initialMs: 50, maxMs: 400 },
    });
    running.push(h);
    return h;
  }

  async function levels(db: DbHandle['db']): Promise<Array<{ level: number; hash: string }>> {
    return db
      .selectFrom('blocks')
      .select(['level', 'hash'])
      .where('network', '=', network)
      .orderBy('level')
      .execute();
  }

  const expected = (to: number) =>
    Array.from({ length: to }, (_, i) => ({ level: i + 1, hash: node.hashAt(i + 1) }));

  it('an unreachable database: failed state with the error, then recovery from the stored head', async (ctx) => {
    if (kind !== 'postgres') {
      console.log(
        'skipped on PGlite: the embedded database cannot become unreachable; see the PostgreSQL run',
      );
      ctx.skip();
      return;
    }
    const url = new URL(databaseUrl()!);
    const proxy = new CuttableProxy(await freePort(), {
      host: url.hostname,
      port: Number(url.port || 5432),
    });
    await proxy.open();
    const viaProxy = new URL(url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const handle = await openDatabase({ databaseUrl: viaProxy.toString(), maxConnections: 2 });
    handles.push(handle);
    const direct = await openDatabase({ databaseUrl: url.toString(), maxConnections: 1 });
    handles.push(direct);

    node.build({ branch: 'a', from: 1, to: 5, protocols: [{ hash: TALLINN, from: 1 }] });
    const h = start(handle.db, await node.start());
    await waitFor(() => h.status().level === 5 && h.status().state === 'following', 15_000, 'level 5');

    await proxy.cut();
    node.build({ branch: 'a', from: 1, to: 12, protocols: [{ hash: TALLINN, from: 1 }] });
    await waitFor(() => h.status().state === 'failed', 15_000, 'the failed state');
    const failed = h.status();
    expect(failed.lastError).toBeTruthy();
    expect(failed.failedSince).toBeGreaterThan(0);
    expect(failed.recentError?.message).toBe(failed.lastError);
    // several retries, backing off; one line per distinct error, not one per retry
    await new Promise((r) => setTimeout(r, 1200));
    expect(h.status().state).toBe('failed');
    expect(lines.filter((l) => l.includes('retrying in')).length).toBeLessThanOrEqual(3);

    await proxy.open();
    await waitFor(() => h.status().level === 12 && h.status().state === 'following', 20_000, 'level 12');
    expect(h.status().lastError).toBeUndefined();
    expect(h.status().failedSince).toBeUndefined();
    // the latest error (connection refused while the proxy was down), kept with its time
    expect(h.status().recentError?.message).toMatch(/ECONNREFUSED|terminated|closed/);
    expect(h.status().recentError!.at).toBeGreaterThanOrEqual(failed.failedSince!);
    expect(lines.some((l) => l.includes('(recovered from:'))).toBe(true);
    expect(await levels(direct.db)).toEqual(expected(12));
    await proxy.cut();
  });

  it('a full disk (its tables on a small tmpfs, filled up): failed state, then recovery once space is freed', async (ctx) => {
    if (kind !== 'postgres') {
      console.log('skipped on PGlite: see the PostgreSQL run');
      ctx.skip();
      return;
    }
    const url = new URL(databaseUrl()!);
    const local = ['127.0.0.1', 'localhost', '::1'].includes(url.hostname);
    let pgUid: number | undefined;
    try {
      pgUid = Number(execFileSync('id', ['-u', 'postgres'], { stdio: 'pipe' }).toString().trim());
    } catch {
      // no postgres user here
    }
    const mount = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-pgfull-'));
    let mounted = false;
    if (local && pgUid !== undefined && process.getuid?.() === 0) {
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', `size=8m,uid=${pgUid},mode=0700`, 'tmpfs', mount], {
          stdio: 'pipe',
        });
        mounted = true;
      } catch {
        // below
      }
    }
    if (!mounted) {
      fs.rmdirSync(mount);
      console.log(
        'skipped: a full disk needs root, a local PostgreSQL server run by the user postgres and a tmpfs mount; the unreachable case covers recovery',
      );
      ctx.skip();
      return;
    }
    const tablespace = `ms_full_${process.pid}`;
    const handle = await openDatabase({ databaseUrl: url.toString(), maxConnections: 2 });
    handles.push(handle);
    const db = handle.db;
    const filler = path.join(mount, 'filler');
    try {
      await sql.raw(`CREATE TABLESPACE ${tablespace} LOCATION '${mount}'`).execute(db);
      await sql.raw(`ALTER TABLE ALL IN TABLESPACE pg_default SET TABLESPACE ${tablespace}`).execute(db);
      await sql.raw(`ALTER INDEX ALL IN TABLESPACE pg_default SET TABLESPACE ${tablespace}`).execute(db);

      node.build({ branch: 'a', from: 1, to: 3, protocols: [{ hash: TALLINN, from: 1 }] });
      const h = start(db, await node.start());
      await waitFor(
        () => h.status().level === 3 && h.status().state === 'following',
        15_000,
        'level 3',
      ).catch((e: unknown) => {
        throw new Error(`${String(e)}: ${lines.join(' | ')}`);
      });

      // fill the tmpfs (as root: the limit is the mount's size, for every user)
      const fd = fs.openSync(filler, 'w');
      try {
        for (const chunk = Buffer.alloc(64 * 1024, 1); ;) fs.writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        fs.closeSync(fd);
      }
      node.build({ branch: 'a', from: 1, to: 200, protocols: [{ hash: TALLINN, from: 1 }] });
      await waitFor(() => h.status().state === 'failed', 30_000, 'the failed state');
      expect(h.status().lastError).toMatch(/No space left on device|could not extend/);
      const stuck = h.status().level!;
      expect(stuck).toBeLessThan(200);

      fs.rmSync(filler);
      await waitFor(() => h.status().level === 200 && h.status().state === 'following', 60_000, 'level 200');
      expect(h.status().recentError?.message).toMatch(/No space left on device|could not extend/);
      expect(await levels(db)).toEqual(expected(200));
      await h.stop();
    } finally {
      fs.rmSync(filler, { force: true });
      await sql
        .raw(`ALTER TABLE ALL IN TABLESPACE ${tablespace} SET TABLESPACE pg_default`)
        .execute(db)
        .catch(() => undefined);
      await sql
        .raw(`ALTER INDEX ALL IN TABLESPACE ${tablespace} SET TABLESPACE pg_default`)
        .execute(db)
        .catch(() => undefined);
      await handle.close();
      handles = handles.filter((x) => x !== handle);
      const admin = await openDatabase({ databaseUrl: url.toString(), maxConnections: 1 });
      await sql
        .raw(`DROP TABLESPACE IF EXISTS ${tablespace}`)
        .execute(admin.db)
        .catch((e: unknown) => console.warn(`tablespace ${tablespace} not dropped: ${String(e)}`));
      await admin.close();
      try {
        execFileSync('umount', [mount]);
        fs.rmdirSync(mount);
      } catch {
        // left for the system's tmp cleaning
      }
    }
  });
});
