import { describeDb } from '@michelscope/db/testing';
import { expect, it } from 'vitest';
import { makeApi } from './helpers';
import { NET } from './seed';
import { SEARCH_BROAD_TTL_MS, SEARCH_RANK_BOUND } from '../src/services/search';

const doc = (key: string, level: number, title: string, body: string) => ({
  network: NET,
  kind: 'contract' as const,
  key,
  level,
  title,
  body,
});

/**
 * A broad search (more documents than SEARCH_RANK_BOUND match its text) is answered from its answer of a few
 * seconds ago, for the same text, filters and page; a narrow one is read afresh at every search.
 */
describeDb('the answers of broad searches', { backends: 'both' }, ({ db }) => {
  it('a broad word’s page is reused for SEARCH_BROAD_TTL_MS, then shows what was indexed since; a narrow word’s at once', async () => {
    const broad = SEARCH_RANK_BOUND + 40;
    await db()
      .insertInto('search_documents')
      .values([
        ...Array.from({ length: broad }, (_, i) =>
          doc(`KT1Broad${String(i).padStart(28, '0')}`, 1000 + i, `Item ${i}`, 'broadword filler text'),
        ),
        doc('KT1NarrowOne', 50, 'Narrow one', 'narrowword'),
      ])
      .execute();
    let t = Date.parse('2026-12-03T12:00:00Z');
    const app = await makeApi(db(), { now: () => t });
    try {
      const search = async (query: string, offset = 0) => {
        const r = await app.inject({
          method: 'POST',
          url: '/search/v1/search',
          payload: { query, size: 10, offset, filters: { search: { network: [NET] } } },
        });
        expect(r.statusCode, r.body).toBe(200);
        const body = r.json<{ total: number; items: Array<{ value: string }> }>();
        return { total: body.total, values: body.items.map((i) => i.value) };
      };
      // the first search counts (over the bound: kept), the second is the first broad answer, then reused
      const first = await search('broadword');
      expect(first.total).toBe(broad);
      expect(first.values).toHaveLength(10);
      const second = await search('broadword');
      expect(second).toEqual(first);
      const page2 = await search('broadword', 10);
      expect(page2.values).toHaveLength(10);
      expect(page2.values.some((v) => first.values.includes(v))).toBe(false);

      // a document indexed now: its exact title and newest level rank it first
      await db()
        .insertInto('search_documents')
        .values([
          doc('KT1BroadNewest', 99_999, 'broadword', 'broadword'),
          doc('KT1NarrowTwo', 51, 'Narrow two', 'narrowword'),
        ])
        .execute();
      t += 1_000;
      expect((await search('broadword')).values).toEqual(second.values);
      // a narrow word is read afresh: its new document at once
      expect((await search('narrowword')).values.sort()).toEqual(['KT1NarrowOne', 'KT1NarrowTwo']);
      t += SEARCH_BROAD_TTL_MS;
      const later = await search('broadword');
      expect(later.values[0]).toBe('KT1BroadNewest');
      expect(later.values.slice(1)).toEqual(first.values.slice(0, 9));
    } finally {
      await app.close();
    }
  });
});
