/**
 * A reorg at the head while a history backfill runs (issue 32, item 4), on the real seeded sandbox chain served
 * over HTTP. A network started at the node's head as a public one ('bf') adopts the FA1.2 (originated at level
 * ~4) and backfills its history from a source that gives one level a page and stops after a few pages until
 * the test lets it go on; meanwhile the node forks a few blocks below its head (the sandbox's test-only
 * `forkFrom`), the abandoned blocks holding an FA1.2 transfer and the new branch another one. Once the follower
 * is on the new branch and the backfill is done: nothing of the abandoned branch is left, the FA1.2's history
 * below the forward floor has every level once, and, the rest of the levels backfilled too, every table equals
 * a forward index of the final chain, counters included (the blocks backfilled after a reverted forward block
 * was stored are reverted before it and stored again: db/write/backfill-undo.ts). The same when the reorg
 * replaces the block the address was adopted at (at the head, so not final when its backfill starts): it
 * is adopted again on the new branch. The same when the reverted pages hold the origination of a contract
 * adopted below the reverted blocks (a source oldest first, as TzKT): its row, script, big maps and search
 * document take back the levels they had before it (column before-images), instead of being deleted with it,
 * and the new branch's call to it is parsed with its script. And when an address is adopted at the head after
 * blocks counting it were backfilled under that head (a ghost, called in the FA1.2's history), then the head is
 * replaced: the adoption's before-image is restored before those blocks are reverted (last in, first out), so
 * that they are not counted twice once stored again.
 *
 * Below the ceiling (the forward floor − 1) the backfill writes only once the head is FINALITY levels above the
 * floor, when the floor block is final: the one reorg that reaches it is one at the start, before the backfill
 * writes, which replaces the floor block itself. The forward index then starts again at the floor (not at the
 * node's head: the levels between would be neither forward nor backfilled). A node that gives another block
 * at a backfilled level (a reorg deeper than finality) is refused: the follower reverts nothing (below the
 * floor, only the blocks backfilled after a reverted forward block are ever reverted) and stays failed, saying
 * why.
 */
import { describeDb } from '@michelscope/db/testing';
import { BOOTSTRAP_ACCOUNTS, injectAs } from '@michelscope/sandbox';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Db } from '@michelscope/db';
import { HistoryError, startIndexer, type HistoryPage, type HistoryQuery, type HistorySource } from '../src';
import { adoptAndWait, backfillStateOf } from './adoption';
import { waitFor } from './fake-node';
import { dumpTables, expectSameTables } from './table-dump';
import { backfillerOf, seededNode, storedLevelsBelow } from './seeded-node';

type Account = (typeof BOOTSTRAP_ACCOUNTS)[number];
const [b1, b2, b3] = BOOTSTRAP_ACCOUNTS as unknown as [Account, Account, Account];

/**
 * A source that gives the levels of a list one a page, newest first (as BCD), and after `pauseAfter` pages
 * waits until `resume()` is called: the backfill is then in progress, its walk open, a page asked for.
 */
class PausingSource implements HistorySource {
  readonly name = 'list';
  pagesGiven = 0;
  private release!: () => void;
  private readonly gate = new Promise<void>((r) => (this.release = r));
  constructor(
    private readonly all: number[],
    private readonly pauseAfter: number,
    readonly order: 'ascending' | 'descending' = 'descending',
  ) {}
  resume(): void {
    this.release();
  }
  get paused(): boolean {
    return this.pagesGiven === this.pauseAfter;
  }
  levels(_address: string, query: HistoryQuery): AsyncIterable<HistoryPage> {
    return this.walk(query);
  }
  private async *walk(query: HistoryQuery): AsyncGenerator<HistoryPage> {
    const all = this.all
      .filter((l) => l <= query.toLevel)
      .sort((a, b) => (this.order === 'ascending' ? a - b : b - a));
    const low = Math.min(...all, query.toLevel);
    let at = query.cursor ? Number(query.cursor.split(':')[1]) : 0;
    while (at < all.length) {
      if (this.pagesGiven === this.pauseAfter)
        await new Promise<void>((resolve, reject) => {
          const stop = () => reject(new HistoryError('aborted', this.name, 'stopped'));
          if (query.signal.aborted) stop();
          query.signal.addEventListener('abort', stop, { once: true });
          void this.gate.then(resolve);
        });
      const levels = [all[at]!];
      at++;
      this.pagesGiven++;
      yield {
        levels,
        cursor: `list:${at}`,
        progress: {
          found: at,
          covered:
            this.order === 'ascending'
              ? { from: low, to: at >= all.length ? query.toLevel : levels[0]! }
              : { from: at >= all.length ? low : levels[0]!, to: query.toLevel },
          range: { from: low, to: query.toLevel },
        },
      };
    }
  }
}

const fa12Transfer = (fa12: string, from: Account, to: Account, amount: number) => ({
  kind: 'transaction',
  amount: '0',
  destination: fa12,
  parameters: {
    entrypoint: 'transfer',
    value: {
      prim: 'Pair',
      args: [{ string: from.pkh }, { prim: 'Pair', args: [{ string: to.pkh }, { int: String(amount) }] }],
    },
  },
});

async function count(db: Db, network: string, table: 'blocks' | 'operations', hashes: string[]) {
  if (hashes.length === 0) return 0;
  const r = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM ${sql.table(table)}
    WHERE network = ${network} AND hash IN (${sql.join(hashes)})`.execute(db);
  return r.rows[0]!.n;
}

// PGlite and PostgreSQL: the backfill's writes and the follower's revert through each backend.
describeDb('a reorg at the head while a history backfill runs', { backends: 'both' }, ({ db }) => {
  let held: Promise<void> | null = null;
  /** Runs `change` with the node's RPC held: the indexer sees the chain before it, then after it. */
  const atOnce = async (change: () => Promise<void>) => {
    let release!: () => void;
    held = new Promise<void>((r) => (release = r));
    try {
      await change();
    } finally {
      held = null;
      release();
    }
  };
  const node = seededNode({
    prefix: 'ms-backfill-reorg-',
    timeoutMs: 180_000,
    // while `held`, the node answers nothing: the test changes the chain at once, as the indexer sees it
    onRequest: async () => {
      while (held) await held;
    },
  });

  /** The levels below `below` whose block, as the node serves it, names `address` (what the scan finds). */
  const levelsNaming = async (address: string, below: number) => {
    const out: number[] = [];
    for (let l = 1; l < below; l++)
      if ((await (await fetch(`${node.rpcUrl}/chains/main/blocks/${l}`)).text()).includes(address))
        out.push(l);
    return out;
  };
  const adopt = (network: string, address: string) => adoptAndWait(db(), network, address);
  const backfillState = (network: string, address: string) => backfillStateOf(db(), network, address);
  const storedBelow = (network: string, floor: number) => storedLevelsBelow(db(), network, floor);
  const storedHash = async (network: string, level: number) =>
    (
      await db()
        .selectFrom('blocks')
        .select('hash')
        .where('network', '=', network)
        .where('level', '=', level)
        .executeTakeFirst()
    )?.hash;
  const operationsOf = async (network: string, address: string) => {
    const r = await sql<{
      j: Record<string, unknown>;
    }>`SELECT to_jsonb(o) - 'network' AS j FROM operations o
      WHERE network = ${network} AND (source = ${address} OR destination = ${address}) ORDER BY id`.execute(
      db(),
    );
    return r.rows.map((x) => x.j);
  };

  /**
   * Backfills the rest of `network`'s levels below its floor, indexes the final chain forward from level 1 in
   * `forward`; returns both networks' tables (but the before-images, which differ by construction).
   */
  const sameAsForward = async (network: string, forward: string, floor: number, backfilled: number) => {
    const rest = backfillerOf(db(), network, node.rpcUrl);
    const all = Array.from({ length: floor - 1 }, (_, i) => i + 1);
    expect(await rest.storeLevels(all)).toBe(floor - 1 - backfilled);
    const fwd = startIndexer({
      db: db(),
      network: forward,
      rpcUrl: node.rpcUrl,
      startLevel: 1,
      pollIntervalMs: 50,
      historySource: false,
      log: () => {},
    });
    try {
      await waitFor(() => fwd.status().level === node.sandbox.headLevel, 120_000, 'the forward index');
    } finally {
      await fwd.stop();
    }
    const strip = (d: Record<string, string[]>) => {
      const { undo_log: _, ...rest } = d;
      return rest;
    };
    return {
      actual: strip(await dumpTables(db(), network, { byKey: true })),
      expected: strip(await dumpTables(db(), forward, { byKey: true })),
    };
  };

  /**
   * A network started at the node's head as a public one, its history from `source`: the indexer, its log
   * lines, `why` (a failed wait with the log's end), and the waits and checks each case makes.
   */
  const atHead = (network: string, source: PausingSource) => {
    const lines: string[] = [];
    const ix = startIndexer({
      db: db(),
      network,
      rpcUrl: node.rpcUrl,
      startLevel: 'head',
      pollIntervalMs: 50,
      historySource: source,
      log: (l) => lines.push(l),
    });
    const why = (err: unknown) => {
      throw new Error(`${String(err)}\n${lines.slice(-30).join('\n')}`);
    };
    return {
      ix,
      lines,
      why,
      /** Until the indexer is at `head` with the node's block there (a new branch taken). */
      onHead: (head: { header: { level: number }; hash: string }) =>
        waitFor(
          async () =>
            ix.status().level === head.header.level &&
            (await storedHash(network, head.header.level)) === head.hash,
          30_000,
          'the new branch',
        ).catch(why),
      /** Until `address`'s history backfill is done. */
      backfilled: (address: string) =>
        waitFor(
          async () => (await backfillState(network, address))?.state === 'done',
          60_000,
          'the backfill',
        ).catch(why),
      /** The follower said it reverted `n` blocks. */
      reverted: (n: number) =>
        expect(
          lines.some((l) => l.includes(`reorg: reverted ${n} block`)),
          lines.join('\n'),
        ).toBe(true),
    };
  };

  it('the follower reverts the abandoned head blocks and the backfill goes on: no gap, no duplicate, the tables of a forward index', async () => {
    const fa12 = node.contracts.fa12!;
    expect(fa12).toMatch(/^KT1/);
    // 'bf' starts at an empty block (the calls of a block indexed before the adoption are parsed without the
    // contract's script, ARCHITECTURE §7): its forward floor
    await node.sandbox.bakeBlock();
    const floor = node.sandbox.headLevel;
    const history = await levelsNaming(fa12, floor);
    expect(history.length).toBeGreaterThan(10);
    const source = new PausingSource(history, 4);
    const run = atHead('bf', source);
    const { ix: bf, lines, why } = run;
    const abandonedBlocks: string[] = [];
    const abandonedOps: string[] = [];
    const newOps: string[] = [];
    try {
      await waitFor(() => bf.status().level === floor, 30_000, 'the floor');
      await adopt('bf', fa12);
      // forward blocks above the floor, two of them with FA1.2 transfers; the head is then FINALITY levels
      // above the floor and the backfill starts
      for (let i = 0; i < 3; i++) {
        if (i < 2) await injectAs(node.sandbox, b1, [fa12Transfer(fa12, b1, b2, 100 + i)]);
        await node.sandbox.bakeBlock();
      }
      const oldHead = node.sandbox.headLevel;
      await waitFor(() => bf.status().level === oldHead, 30_000, 'the old head').catch(why);
      // the backfill is in progress: pages stored, the walk waiting for its next page
      await waitFor(
        async () => source.paused && ((await backfillState('bf', fa12))?.blocks ?? 0) >= 4,
        30_000,
        'four pages backfilled',
      ).catch(why);
      expect((await backfillState('bf', fa12))!.state).toBe('running');

      // the node forks one level above the floor: the blocks above (one with an FA1.2 transfer) are abandoned
      const forkLevel = floor + 1;
      for (let l = forkLevel + 1; l <= oldHead; l++) {
        const b = node.sandbox.block(l)!;
        abandonedBlocks.push(b.hash);
        abandonedOps.push(...b.operations[3]!.map((o) => o.hash));
      }
      expect(abandonedOps.length).toBeGreaterThan(0);
      expect(await count(db(), 'bf', 'operations', abandonedOps)).toBe(abandonedOps.length);
      await atOnce(async () => {
        await node.sandbox.forkFrom(forkLevel);
        // the new branch, one block longer, with another FA1.2 transfer and a tez transfer
        newOps.push(await injectAs(node.sandbox, b1, [fa12Transfer(fa12, b1, b3, 555)]));
        await node.sandbox.bakeBlock();
        newOps.push(
          await injectAs(node.sandbox, b2, [{ kind: 'transaction', amount: '4321', destination: b3.pkh }]),
        );
        await node.sandbox.bakeBlock();
        await node.sandbox.bakeBlock();
      });
      const head = node.sandbox.head;
      expect(head.header.level).toBe(oldHead + 1);
      await run.onHead(head);
      expect(
        lines.some((l) => /reorg: reverted 2 block/.test(l)),
        lines.join('\n'),
      ).toBe(true);
      // the backfill still waits for its page: it goes on now
      expect((await backfillState('bf', fa12))!.state).toBe('running');
      source.resume();
      await run.backfilled(fa12);
      expect(bf.status().lastError, lines.join('\n')).toBeUndefined();
    } finally {
      source.resume();
      await bf.stop();
    }

    // nothing of the abandoned branch is left; the new branch is there
    expect(await count(db(), 'bf', 'blocks', abandonedBlocks)).toBe(0);
    expect(await count(db(), 'bf', 'operations', abandonedOps)).toBe(0);
    expect(await count(db(), 'bf', 'operations', newOps)).toBe(newOps.length);
    for (let l = floor; l <= node.sandbox.headLevel; l++)
      expect(await storedHash('bf', l)).toBe(node.sandbox.block(l)!.hash);
    // the FA1.2's history below the floor: each of its levels once, nothing else, and 'done'
    expect(await storedBelow('bf', floor)).toEqual(history);
    const state = (await backfillState('bf', fa12))!;
    expect(state).toMatchObject({
      state: 'done',
      to_level: floor - 1,
      blocks: history.length,
      message: null,
    });
    const ops = await operationsOf('bf', fa12);

    const { actual, expected } = await sameAsForward('bf', 'fwd1', floor, history.length);
    // the FA1.2's operations, in chain order, each once (ids differ by construction: backfilled ones are negative)
    const strip = (list: Record<string, unknown>[]) => list.map((o) => ({ ...o, id: 0, protocol_id: 0 }));
    expect(strip(ops)).toEqual(strip(await operationsOf('fwd1', fa12)));
    // every row the same, the counters of the rows the reverted blocks changed included: the blocks backfilled
    // after those were stored were reverted first and stored again
    expectSameTables(actual, expected);
  }, 240_000);

  it('a reorg that replaces the block the address was adopted at: it is adopted again on the new branch, and the backfill goes on', async () => {
    const fa12 = node.contracts.fa12!;
    await node.sandbox.bakeBlock();
    const floor = node.sandbox.headLevel;
    const history = await levelsNaming(fa12, floor);
    const source = new PausingSource(history, 4);
    const run = atHead('ad', source);
    const { ix: ad, lines, why } = run;
    const newOps: string[] = [];
    try {
      await waitFor(() => ad.status().level === floor, 30_000, 'the floor');
      // adopted at the head, FINALITY levels above the floor: its backfill starts at once, its block not final
      for (let i = 0; i < 3; i++) await node.sandbox.bakeBlock();
      const adoptedAt = node.sandbox.headLevel;
      await waitFor(() => ad.status().level === adoptedAt, 30_000, 'the head');
      await adopt('ad', fa12);
      await waitFor(
        async () => source.paused && ((await backfillState('ad', fa12))?.blocks ?? 0) >= 4,
        30_000,
        'four pages backfilled',
      ).catch(why);
      // the node replaces that block; the new branch has an FA1.2 transfer
      await atOnce(async () => {
        await node.sandbox.forkFrom(adoptedAt - 1);
        newOps.push(await injectAs(node.sandbox, b1, [fa12Transfer(fa12, b1, b3, 321)]));
        for (let i = 0; i < 3; i++) await node.sandbox.bakeBlock();
      });
      const head = node.sandbox.head;
      await run.onHead(head);
      const request = await db()
        .selectFrom('address_requests')
        .select(['state', 'level'])
        .where('network', '=', 'ad')
        .where('address', '=', fa12)
        .executeTakeFirstOrThrow();
      expect(request).toEqual({ state: 'adopted', level: adoptedAt - 1 });
      source.resume();
      await run.backfilled(fa12);
      expect(ad.status().lastError, lines.join('\n')).toBeUndefined();
    } finally {
      source.resume();
      await ad.stop();
    }
    run.reverted(1);
    expect(await count(db(), 'ad', 'operations', newOps)).toBe(newOps.length);
    expect(await storedBelow('ad', floor)).toEqual(history);
    expect((await backfillState('ad', fa12))!).toMatchObject({ state: 'done', blocks: history.length });
    const { actual, expected } = await sameAsForward('ad', 'fwd3', floor, history.length);
    expectSameTables(actual, expected);
  }, 240_000);

  it("a reorg that reverts the backfilled origination of a contract adopted below the reverted blocks: the contract stays, with its script and big maps, and the tables are a forward index's", async () => {
    const fa12 = node.contracts.fa12!;
    await node.sandbox.bakeBlock();
    const floor = node.sandbox.headLevel;
    const history = await levelsNaming(fa12, floor);
    // oldest first (as TzKT): the origination is among the pages stored before the reorg
    const source = new PausingSource(history, 3, 'ascending');
    const run = atHead('og', source);
    const { ix: og, lines, why } = run;
    const contractRow = () =>
      db()
        .selectFrom('contracts')
        .select(['level', 'script_id'])
        .where('network', '=', 'og')
        .where('address', '=', fa12)
        .executeTakeFirst();
    const newOps: string[] = [];
    let origination = 0;
    try {
      await waitFor(() => og.status().level === floor, 30_000, 'the floor');
      // adopted at the floor (final once the backfill starts), then forward blocks above it
      await adopt('og', fa12);
      for (let i = 0; i < 3; i++) await node.sandbox.bakeBlock();
      const oldHead = node.sandbox.headLevel;
      await waitFor(() => og.status().level === oldHead, 30_000, 'the old head').catch(why);
      await waitFor(
        async () => source.paused && ((await backfillState('og', fa12))?.blocks ?? 0) >= 3,
        30_000,
        'three pages backfilled',
      ).catch(why);
      // the backfilled origination moved the contract's row (and its script's, big maps', search document's)
      // down to its level
      origination = (await contractRow())!.level;
      expect(origination).toBe(history[0]);
      // the blocks above floor + 1, written before those pages, are abandoned: the pages are reverted first
      await atOnce(async () => {
        await node.sandbox.forkFrom(floor + 1);
        newOps.push(await injectAs(node.sandbox, b1, [fa12Transfer(fa12, b1, b3, 777)]));
        for (let i = 0; i < 3; i++) await node.sandbox.bakeBlock();
      });
      const head = node.sandbox.head;
      await run.onHead(head);
      source.resume();
      await run.backfilled(fa12);
      expect(og.status().lastError, lines.join('\n')).toBeUndefined();
    } finally {
      source.resume();
      await og.stop();
    }
    run.reverted(2);
    expect(await count(db(), 'og', 'operations', newOps)).toBe(newOps.length);
    expect(await storedBelow('og', floor)).toEqual(history);
    expect((await contractRow())?.level).toBe(origination);
    expect(await db().selectFrom('history_redo').selectAll().where('network', '=', 'og').execute()).toEqual(
      [],
    );
    const { actual, expected } = await sameAsForward('og', 'fwd4', floor, history.length);
    expectSameTables(actual, expected);
  }, 240_000);

  it("an address adopted at the head after blocks were backfilled under it, then that block reorganised away: the adoption is undone before those blocks, the counts are a forward index's", async () => {
    const fa12 = node.contracts.fa12!;
    const swap = node.contracts.swap!;
    expect(swap).toMatch(/^KT1/);
    await node.sandbox.bakeBlock();
    const floor = node.sandbox.headLevel;
    const history = await levelsNaming(fa12, floor);
    // the FA1.2's pages (newest first) above the swap's origination: the swap is then called, not originated
    const [swapOrigination] = await levelsNaming(swap, floor);
    const above = history.filter((l) => l > swapOrigination!).length;
    expect(above).toBeGreaterThan(0);
    const source = new PausingSource(history, above);
    const run = atHead('ga', source);
    const { ix: ga, lines, why } = run;
    const swapAccount = () =>
      db()
        .selectFrom('accounts')
        .select(['type', 'operations_count'])
        .where('network', '=', 'ga')
        .where('address', '=', swap)
        .executeTakeFirst();
    try {
      await waitFor(() => ga.status().level === floor, 30_000, 'the floor');
      await adopt('ga', fa12);
      for (let i = 0; i < 3; i++) await node.sandbox.bakeBlock();
      const top = node.sandbox.headLevel;
      await waitFor(() => ga.status().level === top, 30_000, 'the head').catch(why);
      // the FA1.2's history above the swap's origination is backfilled under the head `top`: the swap, called
      // in those blocks, is a ghost
      await waitFor(
        async () => source.paused && ((await backfillState('ga', fa12))?.blocks ?? 0) >= above,
        30_000,
        'the pages above the swap',
      ).catch(why);
      expect((await swapAccount())?.type).toBe('ghost');
      // adopted at `top`: its account's before-image holds what the backfilled blocks counted
      await adopt('ga', swap);
      // the node replaces `top`
      await atOnce(async () => {
        await node.sandbox.forkFrom(top - 1);
        for (let i = 0; i < 3; i++) await node.sandbox.bakeBlock();
      });
      source.resume();
      const head = node.sandbox.head;
      await waitFor(
        async () =>
          ga.status().level === head.header.level &&
          (await storedHash('ga', head.header.level)) === head.hash &&
          (await backfillState('ga', fa12))?.state === 'done' &&
          (await db().selectFrom('history_redo').selectAll().where('network', '=', 'ga').execute()).length ===
            0 &&
          (await storedBelow('ga', floor)).length >= history.length,
        60_000,
        'the new branch, the blocks stored again',
      ).catch(why);
      expect(ga.status().lastError, lines.join('\n')).toBeUndefined();
    } finally {
      source.resume();
      await ga.stop();
    }
    run.reverted(1);
    const below = (await storedBelow('ga', floor)).length;
    const { actual, expected } = await sameAsForward('ga', 'fwd5', floor, below);
    expectSameTables(actual, expected);
  }, 240_000);

  it('a reorg that replaces the floor block before the backfill starts: the forward index starts again at the floor, no gap', async () => {
    const fa12 = node.contracts.fa12!;
    await node.sandbox.bakeBlock();
    const floor = node.sandbox.headLevel;
    const history = await levelsNaming(fa12, floor);
    const source = new PausingSource(history, Infinity);
    const run = atHead('fl', source);
    const { ix: fl, lines } = run;
    const abandoned = node.sandbox.block(floor)!.hash;
    const newOps: string[] = [];
    try {
      await waitFor(() => fl.status().level === floor, 30_000, 'the floor');
      await adopt('fl', fa12);
      // the backfill has fixed the forward floor (it waits for the head to be FINALITY levels above it)
      await waitFor(
        async () =>
          (
            await db()
              .selectFrom('history_floor')
              .select('floor_level')
              .where('network', '=', 'fl')
              .executeTakeFirst()
          )?.floor_level === floor,
        30_000,
        'the history floor',
      );
      expect(await storedBelow('fl', floor)).toEqual([]);
      // the floor block is replaced, and the new branch grows past it before the indexer asks again
      await atOnce(async () => {
        await node.sandbox.forkFrom(floor - 1);
        newOps.push(
          await injectAs(node.sandbox, b2, [{ kind: 'transaction', amount: '4321', destination: b3.pkh }]),
        );
        for (let i = 0; i < 3; i++) await node.sandbox.bakeBlock();
      });
      const head = node.sandbox.head;
      expect(head.header.level).toBe(floor + 2);
      await run.onHead(head);
      await run.backfilled(fa12);
      expect(fl.status().lastError, lines.join('\n')).toBeUndefined();
    } finally {
      await fl.stop();
    }
    run.reverted(1);
    expect(await count(db(), 'fl', 'blocks', [abandoned])).toBe(0);
    expect(await count(db(), 'fl', 'operations', newOps)).toBe(newOps.length);
    // every level from the floor up, as the node has it now; below it, the FA1.2's levels
    for (let l = floor; l <= node.sandbox.headLevel; l++)
      expect(await storedHash('fl', l), `level ${l}`).toBe(node.sandbox.block(l)!.hash);
    expect(await storedBelow('fl', floor)).toEqual(history);
    expect((await backfillState('fl', fa12))!).toMatchObject({
      state: 'done',
      to_level: floor - 1,
      blocks: history.length,
    });
    const { actual, expected } = await sameAsForward('fl', 'fwd2', floor, history.length);
    expectSameTables(actual, expected);
  }, 240_000);

  it('a reorg that replaces a backfilled block (deeper than finality) is refused loudly: nothing reverted', async () => {
    const fa12 = node.contracts.fa12!;
    await node.sandbox.bakeBlock();
    const floor = node.sandbox.headLevel;
    const history = await levelsNaming(fa12, floor);
    const run = atHead('dp', new PausingSource(history, Infinity));
    const { ix: dp, lines, why } = run;
    let before: { level: number; hash: string }[] = [];
    try {
      await waitFor(() => dp.status().level === floor, 30_000, 'the floor');
      await adopt('dp', fa12);
      for (let i = 0; i < 2; i++) await node.sandbox.bakeBlock();
      await run.backfilled(fa12);
      before = await db()
        .selectFrom('blocks')
        .select(['level', 'hash'])
        .where('network', '=', 'dp')
        .orderBy('level')
        .execute();
      // the node forks below the highest backfilled level, with a longer branch
      const top = history.at(-1)!;
      await atOnce(async () => {
        await node.sandbox.forkFrom(top - 1);
        for (let l = top; l <= floor + 3; l++) await node.sandbox.bakeBlock();
      });
      await waitFor(() => dp.status().state === 'failed', 30_000, 'the refusal').catch(why);
      expect(dp.status().lastError).toMatch(
        new RegExp(
          `block at level ${top} is \\w+, not the backfilled \\w+: a reorg below the forward floor ${floor}`,
        ),
      );
      expect(lines.some((l) => /reorg: reverted/.test(l))).toBe(false);
    } finally {
      await dp.stop();
    }
    // every block as it was: the backfilled ones and the forward ones
    expect(
      await db()
        .selectFrom('blocks')
        .select(['level', 'hash'])
        .where('network', '=', 'dp')
        .orderBy('level')
        .execute(),
    ).toEqual(before);
    expect(before.filter((b) => b.level < floor).map((b) => b.level)).toEqual(history);
  }, 120_000);
});
