/**
 * The BCD-compatible history source across restarts (issue 32): its opg list is newest first, so a walk pages
 * through every group newer than the backfill's ceiling before it reaches the history. A restart must continue
 * where the walk stopped, not page through the newer groups again. The source is a counting stub served over
 * HTTP (many groups above the ceiling, then the FA1.2's real levels on the seeded sandbox); the indexer is
 * stopped while it pages through the newer groups, then started again on the same database.
 */
import { describeDb } from '@michelscope/db/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startIndexer } from '../src';
import { BcdSource } from '../src/history/bcd';
import { adoptAndWait, backfillStateOf } from './adoption';
import { waitFor } from './fake-node';
import { seededNode } from './seeded-node';

/** Groups listed above the ceiling (one per level), and the page size: NEWER / SIZE pages to skip. */
const NEWER = 120;
const SIZE = 5;
/** Ids of the newer groups start here (the real ones are their levels, below). */
const NEWER_IDS = 1_000_000;

describeDb('BCD history source: a restart resumes its walk', { backends: 'pglite' }, ({ db }) => {
  const node = seededNode({ prefix: 'ms-bcd-resume-', timeoutMs: 120_000 });
  let stub: FastifyInstance;
  let base = '';
  let fa12 = '';
  /** The stub's opg requests: the `last_id` each asked after (null: from the top of the list). */
  const asked: (number | null)[] = [];
  let groups: { last_id: number; level: number }[] = [];
  let slowMs = 0;

  beforeAll(async () => {
    fa12 = node.contracts.fa12!;
    stub = Fastify({ forceCloseConnections: true });
    stub.get('/v1/contract/:network/:address', async () => ({
      address: fa12,
      level: groups.at(-1)?.level ?? 1,
    }));
    stub.get<{ Querystring: { size?: string; last_id?: string } }>(
      '/v1/contract/:network/:address/opg',
      async (req) => {
        const below = req.query.last_id ? Number(req.query.last_id) : null;
        asked.push(below);
        if (slowMs) await new Promise((r) => setTimeout(r, slowMs));
        return groups.filter((g) => below === null || g.last_id < below).slice(0, Number(req.query.size));
      },
    );
    base = await stub.listen({ host: '127.0.0.1', port: 0 });
  }, 120_000);
  afterAll(async () => {
    await stub?.close();
  });

  const start = () =>
    startIndexer({
      db: db(),
      network: 'bcdnet',
      rpcUrl: node.rpcUrl,
      startLevel: 'head',
      pollIntervalMs: 50,
      historySource: new BcdSource({ baseUrl: base, network: 'sandboxnet', pageSize: SIZE }),
      log: () => {},
    });

  it('continues after the last saved page, not from the newest group', async () => {
    const floor = node.sandbox.headLevel;
    // the FA1.2's levels below the floor, as the node's blocks have them, then NEWER groups above the ceiling
    const real: number[] = [];
    for (let l = floor - 1; l >= 1; l--)
      if ((await (await fetch(`${node.rpcUrl}/chains/main/blocks/${l}`)).text()).includes(fa12)) real.push(l);
    expect(real.length).toBeGreaterThan(5);
    groups = [
      ...Array.from({ length: NEWER }, (_, i) => ({
        last_id: NEWER_IDS + NEWER - i,
        level: floor + NEWER - i,
      })),
      ...real.map((l) => ({ last_id: l, level: l })),
    ];
    const skipPages = NEWER / SIZE;

    slowMs = 40;
    const first = start();
    try {
      await waitFor(() => first.status().level === floor, 30_000);
      await adoptAndWait(db(), 'bcdnet', fa12);
      for (let i = 0; i < 2; i++) await node.sandbox.bakeBlock();
      // stopped while it pages through the groups newer than the ceiling
      await waitFor(() => asked.length >= skipPages / 2, 30_000);
    } finally {
      await first.stop();
    }
    const saved = (await backfillStateOf(db(), 'bcdnet', fa12))!;
    expect(saved.state).not.toBe('done');
    const firstRun = asked.length;
    expect(firstRun).toBeLessThan(skipPages);

    slowMs = 0;
    const again = start();
    try {
      await waitFor(async () => (await backfillStateOf(db(), 'bcdnet', fa12))?.state === 'done', 60_000);
    } finally {
      await again.stop();
    }
    const resumed = asked.slice(firstRun);
    // not from the top of the list again: right after the last saved page (the page asked when it stopped, if
    // any, is asked again; no other)
    expect(saved.cursor).toMatch(/^bcd:\d+:\d+$/);
    expect(resumed[0]).toBe(Number(saved.cursor!.split(':')[1]));
    expect(resumed.filter((id) => id === null)).toEqual([]);
    const firstAsked = new Set(asked.slice(0, firstRun));
    expect(resumed.filter((id) => firstAsked.has(id)).length).toBeLessThanOrEqual(1);
    expect(new Set(resumed).size).toBe(resumed.length);
    // every level of the history stored
    const stored = new Set(
      (
        await db()
          .selectFrom('blocks')
          .select('level')
          .where('network', '=', 'bcdnet')
          .where('level', '<', floor)
          .execute()
      ).map((r) => r.level),
    );
    expect(real.filter((l) => !stored.has(l))).toEqual([]);
  }, 180_000);
});
