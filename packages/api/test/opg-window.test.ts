import { describeDb } from '@michelscope/db/testing';
import { operationGroups } from '@michelscope/db/read';
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
describeDb('operation groups across the small and the full window', ({ db }) => {
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
