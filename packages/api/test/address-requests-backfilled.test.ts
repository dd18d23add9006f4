/**
 * A contract stored by another address's history backfill (issue 32): the backfill of the seeded FA1.2 on a
 * network started at the node's head writes whole blocks, among them the one that originated the FA1.2 and,
 * in the same block, the counter. The counter is then stored (its origination, and its calls in the FA1.2's
 * blocks) without a history of its own. Asked for, it must not pass for fully indexed: it is adopted again,
 * which opens its own backfill, it is answered partial with the backfill's progress until that is done, and
 * then every block below the floor that names it is stored.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getHistoryBackfill } from '@michelscope/db/address-requests';
import { describeDb } from '@michelscope/db/testing';
import { startIndexer, type IndexerHandle } from '@michelscope/indexer';
import { Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApi } from '../src/index';
import { openSeededSandbox } from '@michelscope/sandbox/testing';

const NET = 'remotenet';

const until = async (what: string, check: () => Promise<boolean>, ms = 60_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describeDb('a contract stored by another address’s history backfill', { backends: 'both' }, ({ db }) => {
  let dir: string;
  let sandbox: Sandbox;
  let node: FastifyInstance;
  let indexer: IndexerHandle;
  let app: FastifyInstance;
  let rpcUrl = '';
  let floor = 0;
  const contracts: Record<string, string> = {};

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ms-adopt-bf-'));
    sandbox = await openSeededSandbox({
      dataDir: dir,
      blockTimeMs: 3_600_000,
      log: (line) => {
        for (const m of line.matchAll(/(\w+)=(KT1\w{33})/g)) contracts[m[1]!] = m[2]!;
      },
    });
    node = Fastify({ forceCloseConnections: true });
    await node.register(sandboxRpcPlugin(sandbox), { prefix: '/rpc/x' });
    rpcUrl = `${await node.listen({ host: '127.0.0.1', port: 0 })}/rpc/x`;
    indexer = startIndexer({
      db: db(),
      network: NET,
      rpcUrl,
      startLevel: 'head',
      pollIntervalMs: 50,
      historySource: { kind: 'scan' },
      log: () => {},
    });
    floor = sandbox.headLevel;
    await until('the indexer to store the head', async () => indexer.status().level === floor);
    app = await buildApi({
      db: db(),
      networks: [{ name: NET, rpcUrl, publicRpcUrl: rpcUrl, statsEnabled: false }],
      onAddressRequest: () => indexer.wake(),
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await indexer?.stop();
    await node?.close();
    await sandbox?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const contract = async (address: string) =>
    (await app.inject({ method: 'GET', url: `/v1/contract/${NET}/${address}` })).json<{
      level: number;
      partial?: boolean;
      indexed_from?: number;
      history?: { state: string };
    }>();
  /** Bakes blocks (the backfill waits for a final head) until `address`'s backfill is done. */
  const backfilled = async (address: string) => {
    await until(
      `the history of ${address} backfilled`,
      async () => {
        if ((await getHistoryBackfill(db(), NET, address))?.state === 'done') return true;
        await sandbox.bakeBlock();
        return false;
      },
      120_000,
    );
  };

  it('adopts it again when asked for: partial with its own backfill, then every block naming it stored', async () => {
    const { fa12, counter } = contracts;
    expect(fa12).toMatch(/^KT1/);
    expect(counter).toMatch(/^KT1/);
    const partial = await contract(fa12!);
    expect(partial).toMatchObject({ partial: true, indexed_from: floor });
    // its token routes say so too: the holders (a map in the reference's shape) in headers, the count in its body
    const holders = async () =>
      app.inject({ method: 'GET', url: `/v1/contract/${NET}/${fa12}/tokens/holders` });
    const count = async () =>
      (await app.inject({ method: 'GET', url: `/v1/contract/${NET}/${fa12}/tokens/count` })).json<object>();
    const h = await holders();
    expect(h.statusCode).toBe(200);
    expect(h.headers['x-partial']).toBe('true');
    expect(h.headers['x-indexed-from']).toBe(String(floor));
    expect(Object.keys(h.json<object>())).not.toContain('partial');
    expect(await count()).toMatchObject({ partial: true, indexed_from: floor });
    for (const route of ['tokens', 'tokens/export', 'tokens/holders/export?format=json']) {
      const r = await app.inject({ method: 'GET', url: `/v1/contract/${NET}/${fa12}/${route}` });
      expect(r.statusCode, route).toBe(200);
      expect(r.headers['x-partial'], route).toBe('true');
      expect(r.headers['x-indexed-from'], route).toBe(String(floor));
    }
    await backfilled(fa12!);
    const f = await contract(fa12!);
    expect(f.partial).toBeUndefined();
    // done: complete, no marker
    const done = await holders();
    expect(done.headers['x-partial']).toBeUndefined();
    expect(done.headers['x-indexed-from']).toBeUndefined();
    expect(Object.keys(done.json<object>()).length).toBeGreaterThan(0);
    expect(await count()).not.toHaveProperty('partial');
    // the counter was originated in the FA1.2's origination block, stored whole by the FA1.2's backfill
    const stored = await db()
      .selectFrom('contracts')
      .select('level')
      .where('network', '=', NET)
      .where('address', '=', counter!)
      .executeTakeFirst();
    expect(stored?.level).toBe(f.level);
    expect(await getHistoryBackfill(db(), NET, counter!)).toBeUndefined();

    // the levels below the floor whose blocks name the counter, and those stored
    const naming: number[] = [];
    for (let l = f.level; l < floor; l++)
      if ((await (await fetch(`${rpcUrl}/chains/main/blocks/${l}`)).text()).includes(counter!))
        naming.push(l);
    expect(naming.length).toBeGreaterThan(5);
    const storedBelowFloor = async () =>
      new Set(
        (
          await db()
            .selectFrom('blocks')
            .select('level')
            .where('network', '=', NET)
            .where('level', '<', floor)
            .execute()
        ).map((r) => r.level),
      );
    /** `indexed_from` says the truth: every block naming the counter from it up is stored (above the floor, all). */
    const truthful = async (from: number) => {
      expect(from).toBeLessThanOrEqual(floor);
      const stored = await storedBelowFloor();
      expect(naming.filter((l) => l >= from && !stored.has(l))).toEqual([]);
    };

    // asked for: not answered as complete, but with the progress of its own backfill
    const c = await contract(counter!);
    expect(c).toMatchObject({ level: f.level, partial: true });
    // complete from the forward floor (every block from it up is stored whole), not from the level it was
    // read at again, which is above it (blocks were baked while the FA1.2 was backfilled)
    expect(c.indexed_from).toBe(floor);
    await truthful(c.indexed_from!);
    // its big map's count says it is a lower bound too (the big map came with its backfilled origination)
    const notes = await db()
      .selectFrom('big_maps')
      .select('ptr')
      .where('network', '=', NET)
      .where('contract', '=', counter!)
      .executeTakeFirstOrThrow();
    const notesCount = async () =>
      (await app.inject({ method: 'GET', url: `/v1/bigmap/${NET}/${notes.ptr}/count` })).json<object>();
    expect(await notesCount()).toMatchObject({ partial: true });
    await until('its backfill opened', async () => (await contract(counter!)).history !== undefined);
    const opened = await contract(counter!);
    if (opened.history!.state !== 'done') {
      expect(opened.partial).toBe(true);
      await truthful(opened.indexed_from!);
    }
    // while it runs (a scan, from the floor down), `indexed_from` goes down as levels are gone through
    const seen = new Set<number>();
    await until(
      `the history of ${counter} backfilled`,
      async () => {
        const now = await contract(counter!);
        if (now.history?.state === 'done') return true;
        if (now.indexed_from !== undefined && !seen.has(now.indexed_from)) {
          seen.add(now.indexed_from);
          await truthful(now.indexed_from);
        }
        await sandbox.bakeBlock();
        return false;
      },
      120_000,
    );
    expect(await contract(counter!)).toMatchObject({ level: f.level, history: { state: 'done' } });
    expect((await contract(counter!)).partial).toBeUndefined();
    expect((await contract(counter!)).indexed_from).toBeUndefined();
    expect(await notesCount()).not.toHaveProperty('partial');
    // every block below the floor that names it is stored
    expect([...(await storedBelowFloor())]).toEqual(expect.arrayContaining(naming));
  }, 240_000);
});
