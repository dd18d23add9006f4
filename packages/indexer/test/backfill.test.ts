/**
 * The history backfill (issue 32) over the real seeded sandbox chain, served over HTTP: one network indexed
 * forward from level 1 ('fwd'), another started at the node's head as a public network is ('bf'). On 'bf' the
 * FA1.2 (originated at level ~4) is adopted at the head, its history is backfilled from a source that lists
 * its levels, then every other level is backfilled too: the two networks' tables are then the same, row for
 * row. The backfill resumes after being stopped midway without a duplicate or a gap, and a source that lies
 * (levels where the address is not, levels above the ceiling) makes nothing stored that the node did not give.
 */
import { describeDb } from '@michelscope/db/testing';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { HistoryError, startIndexer, type HistoryPage, type HistoryQuery, type HistorySource } from '../src';
import { BcdSource } from '../src/history/bcd';
import { adoptAndWait, backfillStateOf } from './adoption';
import { waitFor } from './fake-node';
import { dumpTables, expectSameTables } from './table-dump';
import { backfillerOf, seededNode, storedLevelsBelow } from './seeded-node';

/** A source that gives the levels of a list, `size` a page, newest first (as BCD), with a resumable cursor. */
class ListSource implements HistorySource {
  readonly name = 'list';
  readonly order = 'descending' as const;
  pagesGiven = 0;
  constructor(
    private readonly of: (address: string) => Promise<number[]>,
    private readonly size = 2,
    /** false: gives levels above the query's ceiling too (a lying source) */
    private readonly honest = true,
  ) {}
  levels(address: string, query: HistoryQuery): AsyncIterable<HistoryPage> {
    return this.walk(address, query);
  }
  private async *walk(address: string, query: HistoryQuery): AsyncGenerator<HistoryPage> {
    const all = (await this.of(address))
      .filter((l) => !this.honest || l <= query.toLevel)
      .sort((a, b) => b - a);
    const low = all.length ? Math.min(...all) : query.toLevel;
    let at = query.cursor ? Number(query.cursor.split(':')[1]) : 0;
    while (at < all.length) {
      const levels = all.slice(at, at + this.size).sort((a, b) => a - b);
      at += this.size;
      this.pagesGiven++;
      yield {
        levels,
        cursor: `list:${at}`,
        progress: {
          found: at,
          covered: { from: at >= all.length ? low : levels[0]!, to: query.toLevel },
          range: { from: low, to: query.toLevel },
        },
      };
    }
  }
}

// Both backends: the backfill writes through the forward write path (JSON statements on both; the forward
// one COPY on PostgreSQL), and the comparison is of what each stores.
describeDb('history backfill', { backends: 'both' }, ({ db }) => {
  const node = seededNode({ prefix: 'ms-backfill-', timeoutMs: 240_000 });
  /** The levels where `address` appears, as the forward index has them (what a BCD source answers). */
  const levelsOf = async (address: string): Promise<number[]> => {
    const r = await sql<{ level: number }>`SELECT DISTINCT level FROM operations WHERE network = 'fwd'
      AND (source = ${address} OR destination = ${address}) ORDER BY level`.execute(db());
    return r.rows.map((x) => x.level);
  };

  beforeAll(async () => {
    const fwd = startIndexer({
      db: db(),
      network: 'fwd',
      rpcUrl: node.rpcUrl,
      startLevel: 1,
      pollIntervalMs: 50,
      historySource: false,
      log: () => {},
    });
    await waitFor(() => fwd.status().level === node.sandbox.headLevel, 120_000);
    await fwd.stop();
  }, 240_000);

  const adopt = (network: string, address: string) => adoptAndWait(db(), network, address);
  const backfillState = (network: string, address: string) => backfillStateOf(db(), network, address);
  const operationsOf = async (network: string, address: string) => {
    const r = await sql<{ j: Record<string, unknown> }>`SELECT to_jsonb(o) - 'network' AS j FROM operations o
      WHERE network = ${network} AND (source = ${address} OR destination = ${address}) ORDER BY id`.execute(
      db(),
    );
    return r.rows.map((x) => x.j);
  };

  it('stores an adopted contract’s history as the forward index has it, then every level: the same tables', async () => {
    const fa12 = node.contracts.fa12!;
    expect(fa12).toMatch(/^KT1/);
    // 'bf' starts at an empty block: the calls of a block indexed before the adoption are parsed without the
    // contract's script (ARCHITECTURE §7), which the backfill does not rewrite
    await node.sandbox.bakeBlock();
    const head = node.sandbox.headLevel;
    const source = new ListSource(levelsOf);
    const lines: string[] = [];
    const bf = startIndexer({
      db: db(),
      network: 'bf',
      rpcUrl: node.rpcUrl,
      startLevel: 'head',
      pollIntervalMs: 50,
      historySource: source,
      log: (l) => lines.push(l),
    });
    try {
      await waitFor(() => bf.status().level === head, 30_000);
      await adopt('bf', fa12);
      // the head is final only FINALITY levels later: bake them
      for (let i = 0; i < 2; i++) await node.sandbox.bakeBlock();
      await waitFor(() => bf.status().level === head + 2, 30_000);
      await waitFor(async () => (await backfillState('bf', fa12))?.state === 'done', 60_000).catch(
        async (err: unknown) => {
          throw new Error(`${String(err)}\n${lines.slice(-20).join('\n')}`);
        },
      );
    } finally {
      await bf.stop();
    }
    const state = (await backfillState('bf', fa12))!;
    const levels = (await levelsOf(fa12)).filter((l) => l < head);
    expect(state).toMatchObject({ state: 'done', to_level: head - 1, blocks: levels.length });
    expect(state.covered).toBe(head - 1 - state.from_level! + 1);
    // the contract's operations, ids included: the backfilled ones sort below the forward ones by level
    const fwdOps = (await operationsOf('fwd', fa12)).filter((o) => (o.level as number) < head);
    const bfOps = (await operationsOf('bf', fa12)).filter((o) => (o.level as number) < head);
    expect(bfOps.length).toBe(fwdOps.length);
    expect(bfOps.map((o) => ({ ...o, id: 0, protocol_id: 0 }))).toEqual(
      fwdOps.map((o) => ({ ...o, id: 0, protocol_id: 0 })),
    );
    expect(bfOps.every((o) => (o.id as number) < 0)).toBe(true);
    const ids = bfOps.map((o) => o.id as number);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // the contract: its origination's level, manager and operation, as forward
    const contractOf = async (network: string) =>
      (
        await sql<Record<string, unknown>>`SELECT c.level, c.manager, c.timestamp, o.hash AS origination
        FROM contracts c LEFT JOIN operations o ON o.id = c.operation_id AND o.network = c.network
        WHERE c.network = ${network} AND c.address = ${fa12}`.execute(db())
      ).rows[0];
    expect(await contractOf('bf')).toEqual(await contractOf('fwd'));

    // then every other level below the floor
    const rest = backfillerOf(db(), 'bf', node.rpcUrl);
    const all = Array.from({ length: head - 1 }, (_, i) => i + 1);
    expect(await rest.storeLevels(all)).toBe(head - 1 - levels.length);
    expect(await rest.storeLevels(all)).toBe(0); // stored once
    // the forward index goes on to the same head
    const fwd = startIndexer({
      db: db(),
      network: 'fwd',
      rpcUrl: node.rpcUrl,
      pollIntervalMs: 50,
      historySource: false,
      log: () => {},
    });
    await waitFor(() => fwd.status().level === node.sandbox.headLevel, 30_000);
    await fwd.stop();
    const [f, b] = [
      await dumpTables(db(), 'fwd', { byKey: true }),
      await dumpTables(db(), 'bf', { byKey: true }),
    ];
    expectSameTables(stripUnequal(b), stripUnequal(f));
  }, 240_000);

  /** A network started at the node's head with the FA1.2 adopted there, its head then made final. */
  const startAdopted = async (network: string, historySource: HistorySource, lines: string[] = []) => {
    const indexer = startIndexer({
      db: db(),
      network,
      rpcUrl: node.rpcUrl,
      startLevel: 'head',
      pollIntervalMs: 50,
      historySource,
      log: (l) => lines.push(l),
    });
    const floor = node.sandbox.headLevel;
    await waitFor(() => indexer.status().level === floor, 30_000);
    await adopt(network, node.contracts.fa12!);
    for (let i = 0; i < 2; i++) await node.sandbox.bakeBlock();
    return { indexer, floor };
  };
  const storedBelow = (network: string, floor: number) => storedLevelsBelow(db(), network, floor);
  /** Stored below the floor: every level where the FA1.2 operates, and only blocks that name it (the node's word). */
  const onlyNamed = async (network: string, floor: number) => {
    const fa12 = node.contracts.fa12!;
    const stored = await storedBelow(network, floor);
    expect(stored).toEqual(expect.arrayContaining((await levelsOf(fa12)).filter((l) => l < floor)));
    for (const l of stored)
      expect(await (await fetch(`${node.rpcUrl}/chains/main/blocks/${l}`)).text()).toContain(fa12);
    expect(stored.length).toBeLessThan(floor - 5);
  };
  const sameOperations = async (network: string, floor: number) => {
    const fa12 = node.contracts.fa12!;
    const strip = (ops: Record<string, unknown>[]) =>
      ops.filter((o) => (o.level as number) < floor).map((o) => ({ ...o, id: 0, protocol_id: 0 }));
    const mine = strip(await operationsOf(network, fa12));
    expect(mine.length).toBeGreaterThan(10);
    expect(mine).toEqual(strip(await operationsOf('fwd', fa12)));
  };

  it('resumes after a stop midway from its saved cursor: no duplicate, no gap', async () => {
    const fa12 = node.contracts.fa12!;
    const first = new ListSource(levelsOf, 1);
    const lines: string[] = [];
    const { indexer, floor } = await startAdopted('kr', first, lines);
    let stopped = false;
    try {
      await waitFor(async () => ((await backfillState('kr', fa12))?.blocks ?? 0) >= 3, 30_000).catch(
        (err: unknown) => {
          throw new Error(`${String(err)}\n${lines.slice(-20).join('\n')}`);
        },
      );
    } finally {
      await indexer.stop();
      stopped = true;
    }
    expect(stopped).toBe(true);
    const midway = (await backfillState('kr', fa12))!;
    const expected = (await levelsOf(fa12)).filter((l) => l < floor);
    expect(midway.state).not.toBe('done');
    expect(midway.blocks).toBeLessThan(expected.length);
    // a new process: the same source resumes after the saved cursor
    const second = new ListSource(levelsOf, 1);
    const again = startIndexer({
      db: db(),
      network: 'kr',
      rpcUrl: node.rpcUrl,
      startLevel: 'head',
      pollIntervalMs: 50,
      historySource: second,
      log: () => {},
    });
    try {
      await waitFor(async () => (await backfillState('kr', fa12))?.state === 'done', 60_000);
    } finally {
      await again.stop();
    }
    expect(second.pagesGiven).toBeLessThan(expected.length);
    expect(second.pagesGiven).toBeGreaterThan(0);
    expect(await storedBelow('kr', floor)).toEqual(expected);
    expect((await backfillState('kr', fa12))!.blocks).toBe(expected.length);
    await sameOperations('kr', floor);
  }, 120_000);

  it('a lying source stores nothing the node did not give; a source that is down falls back to the scan', async () => {
    const fa12 = node.contracts.fa12!;
    // levels where the FA1.2 is not (the other contracts' levels) and above the ceiling
    const lies = new ListSource(
      async (a) => {
        const own = await levelsOf(a);
        const all = Array.from({ length: node.sandbox.headLevel + 5 }, (_, i) => i + 1);
        return [...new Set([...own, ...all])];
      },
      5,
      false,
    );
    const lines: string[] = [];
    const { indexer, floor } = await startAdopted('lie', lies, lines);
    try {
      await waitFor(async () => (await backfillState('lie', fa12))?.state === 'done', 60_000);
    } finally {
      await indexer.stop();
    }
    // only the levels whose block names it (the node's word), none at or above the floor
    await onlyNamed('lie', floor);
    expect(lines.some((l) => /does not name it; skipped/.test(l))).toBe(true);
    expect(lines.some((l) => /level\(s\) outside 1–\d+; ignored/.test(l))).toBe(true);
    await sameOperations('lie', floor);

    const down: HistorySource = {
      name: 'down',
      order: 'descending',
      levels: () => ({
        [Symbol.asyncIterator]: () => ({
          next: () => Promise.reject(new HistoryError('unavailable', 'down', 'connect ECONNREFUSED')),
        }),
      }),
    };
    const downLines: string[] = [];
    const second = await startAdopted('down', down, downLines);
    try {
      await waitFor(async () => (await backfillState('down', fa12))?.state === 'done', 90_000);
    } finally {
      await second.indexer.stop();
    }
    expect(downLines.some((l) => /scanning the node instead/.test(l))).toBe(true);
    expect((await backfillState('down', fa12))!.source).toBe('scan');
    await onlyNamed('down', second.floor);
    await sameOperations('down', second.floor);
  }, 180_000);

  it('a source that answers 429 (with and without Retry-After) is waited out: the wait is its state, the follower goes on, nothing is stored twice', async () => {
    const fa12 = node.contracts.fa12!;
    const levels = (await levelsOf(fa12)).sort((a, b) => b - a);
    // a Better Call Dev-compatible stub: one group per level, newest first, last_id = level; its second
    // page is refused twice (HTTP 429 with Retry-After: 3, then without), then served
    const asked: string[] = [];
    let opgRequests = 0;
    const stub = Fastify();
    stub.get('/v1/contract/:network/:address', async () => ({ address: fa12, level: levels.at(-1) }));
    stub.get<{ Querystring: { size?: string; last_id?: string } }>(
      '/v1/contract/:network/:address/opg',
      async (req, reply) => {
        asked.push(req.url);
        opgRequests++;
        if (opgRequests === 2)
          return reply.code(429).header('retry-after', '3').send({ message: 'slow down' });
        if (opgRequests === 3) return reply.code(429).send({ message: 'slow down' });
        const below = req.query.last_id ? Number(req.query.last_id) : Infinity;
        const size = Number(req.query.size ?? 10);
        return levels
          .filter((l) => l < below)
          .slice(0, size)
          .map((l) => ({ last_id: l, level: l }));
      },
    );
    const base = await stub.listen({ host: '127.0.0.1', port: 0 });
    const source = new BcdSource({ baseUrl: base, network: 'sandboxnet', pageSize: 5 });
    const lines: string[] = [];
    const { indexer, floor } = await startAdopted('slow', source, lines);
    const messages = new Set<string>();
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const m = (await backfillState('slow', fa12))?.message;
        if (m) messages.add(m);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    try {
      await waitFor(() => messages.size > 0, 30_000);
      // while the backfill waits, the forward index follows the node
      await node.sandbox.bakeBlock();
      const t0 = Date.now();
      await waitFor(() => indexer.status().level === node.sandbox.headLevel, 10_000);
      expect(Date.now() - t0).toBeLessThan(2000);
      await waitFor(async () => (await backfillState('slow', fa12))?.state === 'done', 60_000).catch(
        (err: unknown) => {
          throw new Error(`${String(err)}\n${lines.slice(-20).join('\n')}`);
        },
      );
    } finally {
      watching = false;
      await watch;
      await indexer.stop();
      await stub.close();
    }
    expect([...messages]).toEqual([
      expect.stringMatching(
        /^bcd rate-limited the history \(GET .*\/opg\?size=5&last_id=\d+: HTTP 429\); waiting 3 s as its Retry-After asks$/,
      ),
      expect.stringMatching(/HTTP 429\); waiting 2 s \(backing off\)$/),
    ]);
    // the refused page was asked again (and only it), then the walk went on
    expect(asked[1]).toBe(asked[2]);
    expect(asked[2]).toBe(asked[3]);
    expect(new Set(asked).size).toBe(asked.length - 2);
    const state = (await backfillState('slow', fa12))!;
    const expected = levels.filter((l) => l < floor).sort((a, b) => a - b);
    expect(state).toMatchObject({ state: 'done', message: null, blocks: expected.length });
    expect(await storedBelow('slow', floor)).toEqual(expected);
    await sameOperations('slow', floor);
  }, 120_000);
});

/**
 * What differs by construction between a database indexed forward and one backfilled: before-images (a
 * backfilled block is never reverted: it keeps none) and the network's floor.
 */
function stripUnequal(d: Record<string, string[]>): Record<string, string[]> {
  const out = { ...d };
  delete out.undo_log;
  return out;
}
