/**
 * Backfilled blocks' before-images and the blocks a reorg reverts below the floor (issue 32), over the real
 * seeded sandbox chain served over HTTP. A backfilled block's before-images serve only to revert it when a
 * forward block written before it is reverted (db/write backfill-undo.ts), so they are kept only while such a
 * forward block may still be reorganised (within FINALITY of the head: db/write undo.ts pruneBackfilled):
 * a long backfill under a moving head holds the images of the last few blocks only, ends with the tables of a
 * forward index, and a reorg deeper than that window is refused instead of restoring rows without those
 * blocks. A head that does not move keeps them all: the walk waits at a bound until it moves. The blocks a
 * reorg reverts below the floor (history_redo) are stored again once the follower is caught up, also by an
 * indexer restarted without a history source.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describeDb } from '@michelscope/db/testing';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { startIndexer, type IndexerOptions } from '../src';
import { adoptAndWait, backfillStateOf } from './adoption';
import { waitFor } from './fake-node';
import { dumpTables, expectSameTables } from './table-dump';
import { backfillerOf, seededNode, storedLevelsBelow } from './seeded-node';

describeDb('backfilled blocks: their before-images and their redo', { backends: 'both' }, ({ db }) => {
  const node = seededNode({ prefix: 'ms-backfill-undo-', timeoutMs: 180_000 });

  /** An indexer of `network` following the node (started at its head) and its log lines. */
  const follow = (network: string, opts: Partial<IndexerOptions> = {}) => {
    const lines: string[] = [];
    const ix = startIndexer({
      db: db(),
      network,
      rpcUrl: node.rpcUrl,
      startLevel: 'head',
      pollIntervalMs: 50,
      historySource: false,
      log: (l) => lines.push(l),
      ...opts,
    });
    const why = (err: unknown) => {
      throw new Error(`${String(err)}\n${lines.slice(-30).join('\n')}`);
    };
    /** Until the indexer has stored the node's head. */
    const atHead = () =>
      waitFor(() => ix.status().level === node.sandbox.headLevel, 30_000, 'the head').catch(why);
    return { ix, lines, why, atHead };
  };
  const backfiller = (network: string) => backfillerOf(db(), network, node.rpcUrl);
  const storedBelow = (network: string, floor: number) => storedLevelsBelow(db(), network, floor);
  /** Backfilled blocks that hold before-images. */
  const heldBackfillBlocks = async (network: string) =>
    (
      await sql<{
        n: number;
      }>`SELECT count(DISTINCT u.level)::int AS n FROM undo_log u JOIN history_floor f USING (network)
        WHERE u.network = ${network} AND u.level < f.floor_level`.execute(db())
    ).rows[0]!.n;
  /** Before-images held for backfilled blocks: entries and their size. */
  const heldImages = async (network: string, floor: number) =>
    (
      await sql<{
        rows: number;
        bytes: number;
      }>`SELECT count(*)::int AS rows, coalesce(sum(pg_column_size(u.*)), 0)::int AS bytes FROM undo_log u
        WHERE network = ${network} AND level < ${floor}`.execute(db())
    ).rows[0]!;
  /**
   * Backfills the rest of `network`'s levels below `floor`, indexes the chain forward from level 1 in
   * `forward` to the node's head; both networks' tables (but the before-images, which differ by construction).
   */
  const sameAsForward = async (network: string, forward: string, floor: number) => {
    await backfiller(network).storeLevels(Array.from({ length: floor - 1 }, (_, i) => i + 1));
    const fwd = follow(forward, { startLevel: 1 });
    try {
      await waitFor(
        () => fwd.ix.status().level === node.sandbox.headLevel,
        120_000,
        'the forward index',
      ).catch(fwd.why);
    } finally {
      await fwd.ix.stop();
    }
    const strip = (d: Record<string, string[]>) => {
      const { undo_log: _, ...rest } = d;
      return rest;
    };
    expect(await storedBelow(network, floor)).toEqual(Array.from({ length: floor - 1 }, (_, i) => i + 1));
    return {
      actual: strip(await dumpTables(db(), network, { byKey: true })),
      expected: strip(await dumpTables(db(), forward, { byKey: true })),
    };
  };

  it('a long backfill under a moving head holds the before-images of the blocks backfilled since the head − 1 only; the tables are a forward index’s; a reorg deeper than that is refused', async () => {
    await node.sandbox.bakeBlock();
    const floor = node.sandbox.headLevel;
    const CHUNK = 6;
    expect(floor - 1).toBeGreaterThan(4 * CHUNK);
    const run = follow('bu');
    const { ix } = run;
    let most = 0;
    let written = 0;
    const figures: string[] = [];
    try {
      await run.atHead();
      for (let i = 0; i < 2; i++) await node.sandbox.bakeBlock();
      await run.atHead();
      // every level below the floor, newest first as a backfill goes, a block baked after each few
      const rest = backfiller('bu');
      const levels = Array.from({ length: floor - 1 }, (_, i) => floor - 1 - i);
      for (let i = 0; i < levels.length; i += CHUNK) {
        written += await rest.storeLevels(levels.slice(i, i + CHUNK));
        const held = await heldBackfillBlocks('bu');
        most = Math.max(most, held);
        const { rows, bytes } = await heldImages('bu', floor);
        figures.push(`${i + CHUNK} backfilled: ${held} blocks, ${rows} rows, ${bytes} bytes held`);
        await node.sandbox.bakeBlock();
        await run.atHead();
      }
      expect(written).toBe(floor - 1);
      // the blocks backfilled after the forward block at head − 1 was written: the last two chunks at most
      // (before, every backfilled block's images stayed until 1,000 forward levels were written after it)
      expect(most, figures.join('\n')).toBeLessThanOrEqual(2 * CHUNK);
      const held = await heldBackfillBlocks('bu');
      expect(held).toBeLessThanOrEqual(CHUNK);
      expect(held).toBeGreaterThan(0);
      console.log(`backfill-undo: ${floor - 1} levels backfilled\n${figures.join('\n')}`);
    } finally {
      await ix.stop();
    }
    const { actual, expected } = await sameAsForward('bu', 'fwd1', floor);
    expectSameTables(actual, expected);

    // a reorg of the head's three blocks: the blocks backfilled after head − 2 was written lost their images
    const again = follow('bu');
    try {
      await again.atHead();
      const top = node.sandbox.headLevel;
      const kept = [top - 2, top - 1, top].map((l) => node.sandbox.block(l)!.hash);
      await node.sandbox.forkFrom(top - 3);
      for (let l = top - 2; l <= top + 1; l++) await node.sandbox.bakeBlock();
      await waitFor(
        () => again.lines.some((l) => l.includes(`cannot revert level ${top - 2}`)),
        30_000,
        'the refusal',
      ).catch(again.why);
      expect(again.lines.some((l) => /reorg: reverted/.test(l))).toBe(false);
      expect(again.ix.status().state).toBe('failed');
      for (const [i, hash] of kept.entries()) {
        const row = await db()
          .selectFrom('blocks')
          .select('hash')
          .where('network', '=', 'bu')
          .where('level', '=', top - 2 + i)
          .executeTakeFirst();
        expect(row?.hash).toBe(hash);
      }
    } finally {
      await again.ix.stop();
    }
  }, 300_000);

  it('under a head that does not move, the history walk waits at the bound of held before-images and goes on as the head moves', async () => {
    const fa12 = node.contracts.fa12!;
    await node.sandbox.bakeBlock();
    const floor = node.sandbox.headLevel;
    const BOUND = 4;
    const run = follow('bh', { historySource: { kind: 'scan' }, heldBackfillBlocks: BOUND });
    const { ix, lines } = run;
    let most = 0;
    let pauses = 0;
    try {
      await run.atHead();
      await adoptAndWait(db(), 'bh', fa12);
      for (let i = 0; i < 2; i++) await node.sandbox.bakeBlock();
      await run.atHead();
      const deadline = Date.now() + 180_000;
      const waits = () => lines.filter((l) => l.includes('waiting for the head to move')).length;
      while ((await backfillStateOf(db(), 'bh', fa12))?.state !== 'done') {
        if (Date.now() > deadline) run.why(new Error('the backfill did not finish'));
        most = Math.max(most, await heldBackfillBlocks('bh'));
        if (waits() <= pauses) {
          await sleep(50);
          continue;
        }
        // the walk waits: nothing more is stored while the head stays where it is
        const stored = (await storedBelow('bh', floor)).length;
        await sleep(300);
        expect((await storedBelow('bh', floor)).length).toBe(stored);
        pauses++;
        // two forward blocks: the one at head − 1 is then written after those blocks, whose images may go
        for (let i = 0; i < 2; i++) await node.sandbox.bakeBlock();
        await run.atHead();
      }
    } finally {
      await ix.stop();
    }
    expect(pauses).toBeGreaterThan(1);
    // checked before each batch of fetch_ahead (4) blocks
    expect(most).toBeLessThanOrEqual(BOUND + 3);
    expect(lines.some((l) => l.includes('waiting for the head to move'))).toBe(true);
    const state = (await backfillStateOf(db(), 'bh', fa12))!;
    expect(state.blocks).toBeGreaterThan(2 * BOUND);
    expect(await storedBelow('bh', floor)).toHaveLength(state.blocks);
  }, 300_000);

  it('blocks a reorg reverted below the floor are stored again by an indexer restarted without a history source: the tables are a forward index’s', async () => {
    const fa12 = node.contracts.fa12!;
    await node.sandbox.bakeBlock();
    const floor = node.sandbox.headLevel;
    const first = follow('br', { historySource: { kind: 'scan' } });
    try {
      await first.atHead();
      await adoptAndWait(db(), 'br', fa12);
      for (let i = 0; i < 2; i++) await node.sandbox.bakeBlock();
      await first.atHead();
      await waitFor(
        async () => (await backfillStateOf(db(), 'br', fa12))?.state === 'done',
        120_000,
        'the backfill',
      ).catch(first.why);
    } finally {
      await first.ix.stop();
    }
    const history = await storedBelow('br', floor);
    expect(history.length).toBeGreaterThan(5);

    // while it is down, the node replaces the head block (floor + 2), stored before the FA1.2's history was
    const top = node.sandbox.headLevel;
    expect(top).toBe(floor + 2);
    await node.sandbox.forkFrom(top - 1);
    for (let i = 0; i < 2; i++) await node.sandbox.bakeBlock();
    const redo = () => db().selectFrom('history_redo').select('level').where('network', '=', 'br').execute();
    const again = follow('br');
    try {
      await again.atHead();
      await waitFor(
        async () => (await storedBelow('br', floor)).length === history.length && (await redo()).length === 0,
        60_000,
        'the redo',
      ).catch(again.why);
      expect(
        again.lines.some((l) => l.includes('reorg: reverted 1 block')),
        again.lines.join('\n'),
      ).toBe(true);
      expect(again.ix.status().lastError, again.lines.join('\n')).toBeUndefined();
    } finally {
      await again.ix.stop();
    }
    expect(await storedBelow('br', floor)).toEqual(history);
    expect((await backfillStateOf(db(), 'br', fa12))?.state).toBe('done');
    const { actual, expected } = await sameAsForward('br', 'fwd3', floor);
    expectSameTables(actual, expected);
  }, 300_000);
});
