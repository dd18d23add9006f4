import type { Insertable } from 'kysely';
import type { Database, Db } from '@michelscope/db';
import { describeDb } from '@michelscope/db/testing';
import {
  accountOperationGroups,
  operationGroups,
  searchAccountOperations,
  storageLevels,
} from '@michelscope/db/read';
import { beforeAll, expect, it } from 'vitest';
import { insertProtocol } from './helpers';

const NET = 'sandboxnet';
const X = 'KT1XAccountOfTheWindowTestxxxxxxxxxx';
const FROM = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const hash = (n: number) => `oo${String(n).padStart(49, 'x')}`;

/**
 * Operation groups of an account whose newest rows are dominated by one large group: the first small
 * window of rows does not hold a whole page of groups, so the page must come from the full window.
 */
// PGlite and PostgreSQL: the operation-group window queries (prepared statements), tested directly.
describeDb('operation groups across the small and the full window', { backends: 'both' }, ({ db }) => {
  let fatIds: number[] = [];

  beforeAll(async () => {
    const protocol = await insertProtocol(db(), NET, { hash: 'PtParisB', startLevel: 1 });
    const row = (level: number, h: number, internal: boolean) => ({
      network: NET,
      level,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, level)),
      protocol_id: protocol,
      hash: hash(h),
      counter: h,
      content_index: 0,
      internal,
      kind: 'transaction',
      status: 'applied' as const,
      source: internal ? FROM.replace('tz1', 'KT1') : FROM,
      destination: X,
      fee: internal ? 0 : 100,
      amount: '1',
      tags: 0,
      allocated_destination_contract: false,
      big_map_diffs_count: 0,
      ticket_updates_count: 0,
    });
    // level 1: an older group of 5 rows; level 2: one group of 60 rows; levels 3–5: one row each
    await db()
      .insertInto('operations')
      .values([0, 1, 2, 3, 4].map((i) => row(1, 1, i > 0)))
      .execute();
    const fat = await db()
      .insertInto('operations')
      .values(Array.from({ length: 60 }, (_, i) => row(2, 2, i > 0)))
      .returning('id')
      .execute();
    fatIds = fat.map((r) => r.id);
    for (const level of [3, 4, 5])
      await db()
        .insertInto('operations')
        .values(row(level, level, false))
        .execute();
  });

  it('a page that needs more than the first rows has whole groups (flow, internals, last_id)', async () => {
    const page = await operationGroups(db(), NET, X, 5);
    expect(page.map((g) => g.hash)).toEqual([hash(5), hash(4), hash(3), hash(2), hash(1)]);
    const fat = page[3]!;
    expect(fat).toMatchObject({ last_id: Math.min(...fatIds), internals: 59, flow: 60, total_cost: 100 });
    expect(page[4]).toMatchObject({ internals: 4, flow: 5 });
  });

  it('keyset pages: the newest groups, then the next ones after last_id', async () => {
    const first = await operationGroups(db(), NET, X, 2);
    expect(first.map((g) => g.hash)).toEqual([hash(5), hash(4)]);
    const next = await operationGroups(db(), NET, X, 2, first[1]!.last_id);
    expect(next.map((g) => g.hash)).toEqual([hash(3), hash(2)]);
    expect(next[1]).toMatchObject({ last_id: Math.min(...fatIds), internals: 59, flow: 60 });
    const last = await operationGroups(db(), NET, X, 2, next[1]!.last_id);
    expect(last.map((g) => [g.hash, g.internals])).toEqual([[hash(1), 4]]);
  });
});

const Y = 'KT1YProtocolMadeRowsTestxxxxxxxxxxxxx';
const OTHER = 'KT1OtherContractOfTheLevelxxxxxxxxxxx';

/**
 * Groups without a hash (rows the protocol made, e.g. migrations): one group per level and counter, totals
 * over every hashless row of that level and counter; and whether the account is known.
 */
// PGlite and PostgreSQL: the operation-group window queries (prepared statements), tested directly.
describeDb('operation groups of protocol-made rows (no hash)', { backends: 'both' }, ({ db }) => {
  beforeAll(async () => {
    const protocol = await insertProtocol(db(), NET, { hash: 'PtParisB', startLevel: 1 });
    const row = (level: number, destination: string, amount: string, burned: number) => ({
      network: NET,
      level,
      timestamp: new Date(Date.UTC(2026, 0, 2, 0, level)),
      protocol_id: protocol,
      hash: level >= 9 ? hash(level) : null,
      counter: level >= 9 ? level : null,
      content_index: 0,
      internal: false,
      kind: level >= 9 ? 'transaction' : 'migration',
      status: 'applied' as const,
      source: level === 10 ? Y : null,
      entrypoint: level === 10 ? 'self' : null,
      destination,
      amount,
      burned,
      tags: 0,
      allocated_destination_contract: false,
      big_map_diffs_count: 0,
      ticket_updates_count: 0,
    });
    // level 7: Y credited twice and another contract once (one hashless group); level 9: a hashed call of Y;
    // level 10: Y calls itself (one row, on both sides)
    await db()
      .insertInto('operations')
      .values([
        row(7, Y, '5', 1),
        row(7, Y, '7', 2),
        row(7, OTHER, '100', 0),
        row(9, Y, '3', 0),
        row(10, Y, '4', 0),
      ])
      .execute();
    await db()
      .insertInto('accounts')
      .values({
        network: NET,
        address: Y,
        type: 'contract',
        level: 7,
        last_action: new Date(Date.UTC(2026, 0, 2)),
      })
      .execute();
  });

  it('a hashless group has the totals of all the hashless rows of its level', async () => {
    const { known, rows } = await accountOperationGroups(db(), NET, Y, 10);
    expect(known).toBe(true);
    expect(rows.map((g) => [g.hash, g.level, g.flow, g.total_cost, g.kind, g.entrypoint])).toEqual([
      [hash(10), 10, 0, 0, 'transaction', 'self'],
      [hash(9), 9, 3, 0, 'transaction', ''],
      [null, 7, 12, 3, 'migration', ''],
    ]);
    const next = await accountOperationGroups(db(), NET, Y, 1, rows[1]!.last_id);
    expect(next.rows.map((g) => [g.level, g.flow])).toEqual([[7, 12]]);
  });

  it('an address without an accounts row is unknown, even with operations', async () => {
    const { known, rows } = await accountOperationGroups(db(), NET, OTHER, 10);
    expect(known).toBe(false);
    expect(rows.map((g) => [g.level, g.flow])).toEqual([[7, 100]]);
    expect(await operationGroups(db(), NET, OTHER, 10)).toEqual(rows);
  });
});

const COUNTER = 'KT1CounterOfTheFlowTestxxxxxxxxxxxxxx';
const RELAY = 'KT1RelayOfTheFlowTestxxxxxxxxxxxxxxxx';
const PAYEE = 'tz1PayeeOfTheFlowTestxxxxxxxxxxxxxxx';

/**
 * The flow of a group is the page's account's own balance change (issue 33): tez that went past it, to
 * another contract and on to an account, is not "locked" on it; a failed call moved nothing.
 */
// PGlite and PostgreSQL: the same prepared statements as above.
describeDb("operation groups: the flow is the account's balance change", { backends: 'both' }, ({ db }) => {
  beforeAll(async () => {
    const protocol = await insertProtocol(db(), NET, { hash: 'PtParisB', startLevel: 1 });
    const row = (
      level: number,
      internal: boolean,
      source: string,
      destination: string,
      amount: string,
      status: 'applied' | 'failed' | 'backtracked' = 'applied',
    ) => ({
      network: NET,
      level,
      timestamp: new Date(Date.UTC(2026, 0, 3, 0, level)),
      protocol_id: protocol,
      hash: hash(100 + level),
      counter: level,
      content_index: 0,
      internal,
      kind: 'transaction',
      status,
      source,
      destination,
      entrypoint: destination === COUNTER ? 'increment' : null,
      fee: internal ? 0 : 10,
      amount,
      tags: 0,
      allocated_destination_contract: false,
      big_map_diffs_count: 0,
      ticket_updates_count: 0,
    });
    await db()
      .insertInto('operations')
      .values([
        // level 1: 2 ꜩ to the relay, which calls the counter with nothing and pays 2 ꜩ on to an account
        row(1, false, FROM, RELAY, '2000000'),
        row(1, true, RELAY, COUNTER, '0'),
        row(1, true, RELAY, PAYEE, '2000000'),
        // level 2: the counter receives 1 ꜩ and pays 0.3 ꜩ on
        row(2, false, FROM, COUNTER, '1000000'),
        row(2, true, COUNTER, PAYEE, '300000'),
        // level 3: a failed call with 5 ꜩ moved nothing
        row(3, false, FROM, COUNTER, '5000000', 'failed'),
      ])
      .execute();
  });

  it('counts only what the account received and paid in applied rows', async () => {
    const groups = await operationGroups(db(), NET, COUNTER, 10);
    expect(groups.map((g) => [g.level, g.flow])).toEqual([
      [3, 0],
      [2, 700000],
      [1, 0],
    ]);
    // the other parties of the first group see their own changes
    expect((await operationGroups(db(), NET, RELAY, 10)).map((g) => g.flow)).toEqual([0]);
    expect((await operationGroups(db(), NET, PAYEE, 10)).map((g) => g.flow)).toEqual([300000, 2000000]);
    expect((await operationGroups(db(), NET, FROM, 10)).map((g) => g.flow)).toEqual([0, -1000000, -2000000]);
  });

  it("the operations tab's search gives the same flow", async () => {
    const hits = await searchAccountOperations(db(), { address: COUNTER, text: '', offset: 0, limit: 10 });
    expect(hits.map((h) => [h.level, h.flow])).toEqual([
      [3, 0],
      [2, 700000],
      [1, 0],
    ]);
  });
});

const BIG = 'KT1BigBatchOfTheWindowTestxxxxxxxxxxx';

/**
 * Totals written with the rows (migration 0350) and a group larger than the largest window (1,000 rows): the
 * page's oldest group may be cut by the window, so its flow is summed over the whole group again; the stored
 * fees, burns and internal count are the group's whatever the window.
 */
// PGlite and PostgreSQL: the same prepared statements as above.
describeDb(
  'operation groups with stored totals, cut by the largest window',
  { backends: 'both' },
  ({ db }) => {
    beforeAll(async () => {
      const protocol = await insertProtocol(db(), NET, { hash: 'PtParisB', startLevel: 1 });
      // level 3: one group of 1,005 rows crediting BIG 2 each (the first external with a fee of 500, the rest
      // internal), stored with its totals; level 4: a newer one-row group (fee 30, burned 20)
      const row = (
        level: number,
        internal: boolean,
        fee: number,
        burned: number,
        cost: number,
        internals: number,
      ) => ({
        network: NET,
        level,
        timestamp: new Date(Date.UTC(2026, 0, 3, 0, level)),
        protocol_id: protocol,
        hash: hash(100 + level),
        counter: level,
        content_index: 0,
        internal,
        kind: 'transaction',
        status: 'applied' as const,
        source: FROM,
        destination: BIG,
        fee,
        burned,
        amount: '2',
        tags: 0,
        allocated_destination_contract: false,
        big_map_diffs_count: 0,
        ticket_updates_count: 0,
        group_cost: cost,
        group_internals: internals,
      });
      await db()
        .insertInto('operations')
        .values(Array.from({ length: 1005 }, (_, i) => row(3, i > 0, i > 0 ? 0 : 500, 0, 500, 1004)))
        .execute();
      await db()
        .insertInto('operations')
        .values(row(4, false, 30, 20, 50, 0))
        .execute();
    });

    it("the cut group's flow is the whole group's, and its fees, burns and internals are the group's", async () => {
      const first = await operationGroups(db(), NET, BIG, 1);
      expect(first.map((g) => [g.level, g.flow, g.total_cost, g.internals])).toEqual([[4, 2, 50, 0]]);
      // the next page reads the newest 1,000 of the group's 1,005 rows: one group, cut
      const next = await operationGroups(db(), NET, BIG, 1, first[0]!.last_id);
      expect(next.map((g) => [g.level, g.flow, g.total_cost, g.internals])).toEqual([[3, 2010, 500, 1004]]);
      // both groups on one page: the window holds every row of BIG, nothing is cut
      const both = await operationGroups(db(), NET, BIG, 2);
      expect(both.map((g) => [g.level, g.flow, g.total_cost, g.internals])).toEqual([
        [4, 2, 50, 0],
        [3, 2010, 500, 1004],
      ]);
    });
  },
);

/** The columns the window tests' rows share: no tags, no allocation, no big-map diffs, no ticket updates. */
const UNTAGGED = {
  tags: 0,
  allocated_destination_contract: false,
  big_map_diffs_count: 0,
  ticket_updates_count: 0,
};

/** Inserts operation rows 500 at a time (one statement for thousands of rows is over PGlite's parameters). */
async function insertInBatches(db: Db, rows: Insertable<Database['operations']>[]) {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('operations')
      .values(rows.slice(i, i + 500))
      .execute();
}

const S = 'KT1SearchWindowsOfTheTabxxxxxxxxxxxxx';
const sHash = (n: number) => `oo${String(n).padStart(4, '0')}${'y'.repeat(45)}`;

/**
 * The operations tab's search over more rows than its first window reads (1,000 rows for a first page): 500
 * groups of 3 rows (a call and two internal rows back to the caller, which the account pays on), the oldest
 * group failed. The first window ends inside a group (1,000 = 333 × 3 + 1). A text every hash starts with finds
 * its page in the first window, with each group's call and totals; a status only the oldest group has is found
 * past it; deep pages give the groups a whole read gives.
 */
describeDb('the operations search across its windows', { backends: 'both' }, ({ db }) => {
  beforeAll(async () => {
    const protocol = await insertProtocol(db(), NET, { hash: 'PtParisB', startLevel: 1 });
    const rows = [];
    for (let g = 1; g <= 500; g++)
      for (let i = 0; i < 3; i++)
        rows.push({
          network: NET,
          level: g,
          timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, g)),
          protocol_id: protocol,
          hash: sHash(g),
          counter: g,
          content_index: 0,
          internal: i > 0,
          kind: 'transaction',
          status: g === 1 ? ('failed' as const) : ('applied' as const),
          source: i === 0 ? FROM : S,
          destination: i === 0 ? S : FROM,
          fee: i === 0 ? 100 : 0,
          amount: i === 0 ? '10' : '3',
          ...UNTAGGED,
        });
    await insertInBatches(db(), rows);
  });

  it('a text every hash starts with: the newest groups, one hit each (its call), with their totals', async () => {
    const hits = await searchAccountOperations(db(), { address: S, text: 'oo', offset: 0, limit: 3 });
    expect(hits.map((h) => [h.hash, h.destination, h.flow, h.internals, h.total_cost])).toEqual([
      [sHash(500), S, 4, 2, 100],
      [sHash(499), S, 4, 2, 100],
      [sHash(498), S, 4, 2, 100],
    ]);
  });

  it('a status only the oldest group has is found past the first window', async () => {
    const hits = await searchAccountOperations(db(), {
      address: S,
      text: '',
      status: ['failed'],
      offset: 0,
      limit: 10,
    });
    expect(hits.map((h) => [h.hash, h.status, h.flow])).toEqual([[sHash(1), 'failed', 0]]);
  });

  it('deep pages: the groups past the first window, and the last ones', async () => {
    const deep = await searchAccountOperations(db(), { address: S, text: 'o', offset: 480, limit: 10 });
    expect(deep.map((h) => h.hash)).toEqual(Array.from({ length: 10 }, (_, i) => sHash(20 - i)));
    const last = await searchAccountOperations(db(), { address: S, text: '', offset: 495, limit: 10 });
    expect(last.map((h) => h.hash)).toEqual([5, 4, 3, 2, 1].map(sHash));
  });
});

const V = 'KT1StorageLevelsWindowsxxxxxxxxxxxxxx';

/**
 * A contract's storage levels over more stored storages than the first window reads (2,000): 2,100 levels of
 * one call each, the storage changed at levels 1 (origination), 50 and 2,100 only. The first window's oldest
 * level (101) has nothing older in it and must not count as a change: the levels come from the next window.
 */
describeDb('storage levels across their windows', { backends: 'both' }, ({ db }) => {
  beforeAll(async () => {
    const protocol = await insertProtocol(db(), NET, { hash: 'PtParisB', startLevel: 1 });
    const rows = Array.from({ length: 2_100 }, (_, i) => {
      const level = i + 1;
      return {
        network: NET,
        level,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, level)),
        protocol_id: protocol,
        hash: `oo${String(level).padStart(49, 'v')}`,
        counter: level,
        content_index: 0,
        internal: false,
        kind: 'transaction',
        status: 'applied' as const,
        source: FROM,
        destination: V,
        fee: 100,
        amount: '0',
        ...UNTAGGED,
        storage: JSON.stringify({ int: String(level >= 2_100 ? 3 : level >= 50 ? 2 : 1) }),
      };
    });
    await insertInBatches(db(), rows);
  });

  it('only the levels where the storage changed, the origination included', async () => {
    expect((await storageLevels(db(), NET, V, 10)).map((l) => l.level)).toEqual([2_100, 50, 1]);
    expect((await storageLevels(db(), NET, V, 2)).map((l) => l.level)).toEqual([2_100, 50]);
    expect((await storageLevels(db(), NET, V, 10, 2_100)).map((l) => l.level)).toEqual([50, 1]);
  });
});
