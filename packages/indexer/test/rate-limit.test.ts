import { describeDb } from '@michelscope/db/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startIndexer } from '../src/index';
import { Prefetcher } from '../src/sync/follower';
import { FakeNode, SEOUL, TALLINN, waitFor } from './fake-node';

// The RPC side of a backfill: PGlite is enough (the writes are those of indexer.test.ts).
describeDb('indexer against a node that limits parallel requests', { backends: 'pglite' }, ({ db }) => {
  let node: FakeNode;
  let handle: ReturnType<typeof startIndexer> | undefined;
  afterEach(async () => {
    await handle?.stop();
    await node.stop();
  });

  it('backs off, and still stores every block from genesis in order', async () => {
    node = new FakeNode().build({
      branch: 'a',
      from: 1,
      to: 40,
      protocols: [
        { hash: SEOUL, from: 1 },
        { hash: TALLINN, from: 20 },
      ],
    });
    // 2 requests at once at most, each answered after 20 ms; the indexer asks for 8 blocks at once
    node.limit = { concurrent: 2 };
    node.latencyMs = 20;
    const url = await node.start();
    const lines: string[] = [];
    const levels: number[] = [];
    handle = startIndexer({
      db: db(),
      network: 'limited',
      rpcUrl: url,
      startLevel: 'genesis',
      fetchAhead: 8,
      pollIntervalMs: 30,
      log: (l) => lines.push(l),
      backoff: { initialMs: 50, maxMs: 200 },
      rpcThrottle: { initialMs: 20, maxMs: 200, retries: 20 },
    });
    handle.onProgress((s) => {
      if (s.level !== null && s.level !== levels[levels.length - 1]) levels.push(s.level);
    });
    await waitFor(() => handle!.status().level === 40, 30_000, 'level 40');

    expect(node.refused).toBeGreaterThan(0);
    expect(node.maxInFlight).toBeLessThanOrEqual(2);
    // the stored level only moved up, and every block is there, each linked to the one below
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    const blocks = await db()
      .selectFrom('blocks')
      .select(['level', 'hash', 'predecessor'])
      .where('network', '=', 'limited')
      .orderBy('level')
      .execute();
    expect(blocks.map((b) => b.level)).toEqual([...Array(40).keys()].map((i) => i + 1));
    for (const b of blocks) expect(b.hash).toBe(node.hashAt(b.level));
    for (const [i, b] of blocks.entries()) if (i > 0) expect(b.predecessor).toBe(blocks[i - 1]!.hash);
    expect(lines.some((l) => l.includes('starting at level 1'))).toBe(true);
    expect(lines.some((l) => /\[indexer limited\] RPC .* is rate-limiting \(HTTP 429\)/.test(l))).toBe(true);
    // each refusal episode logs one line, not one per refused request
    expect(lines.filter((l) => l.includes('rate-limiting')).length).toBeLessThan(node.refused);
    expect(lines.some((l) => l.includes('unreachable'))).toBe(false);
  });
});

describe('Prefetcher', () => {
  const deferred = () => {
    let resolve: (v: number) => void = () => {};
    let reject: (e: unknown) => void = () => {};
    const promise = new Promise<number>((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };

  it('keeps `ahead` requests in flight as answers arrive, with at most as many waiting to be taken', async () => {
    const asked = new Map<number, ReturnType<typeof deferred>>();
    const p = new Prefetcher((level) => {
      const d = deferred();
      asked.set(level, d);
      return d.promise;
    }, 3);
    const first = p.take(1, 100);
    expect([...asked.keys()]).toEqual([1, 2, 3]);
    // an answer starts the next request before anything is taken
    asked.get(2)!.resolve(2);
    await Promise.resolve();
    expect([...asked.keys()]).toEqual([1, 2, 3, 4]);
    for (const l of [3, 4, 5, 6]) {
      asked.get(l)!.resolve(l);
      await Promise.resolve();
    }
    // levels 2–7 are waiting or in flight: up to 2 × 3 beyond the block taken
    expect([...asked.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    asked.get(1)!.resolve(1);
    expect(await first).toBe(1);
    expect(await p.take(2, 100)).toBe(2);
    expect([...asked.keys()].at(-1)).toBe(8);
    // never above the last level
    const q = new Prefetcher((level) => Promise.resolve(level), 8);
    expect(await q.take(5, 6)).toBe(5);
    expect(await q.take(6, 6)).toBe(6);
  });

  it('starts nothing new after a failed request; take() throws it in its turn', async () => {
    const asked: number[] = [];
    const p = new Prefetcher(
      (level) => (
        asked.push(level),
        level === 2 ? Promise.reject(new Error('boom')) : Promise.resolve(level)
      ),
      2,
    );
    expect(await p.take(1, 100)).toBe(1);
    await new Promise((r) => setTimeout(r, 10));
    const before = asked.length;
    await expect(p.take(2, 100)).rejects.toThrow('boom');
    await new Promise((r) => setTimeout(r, 10));
    expect(asked.length).toBe(before);
    p.discard();
  });
});
