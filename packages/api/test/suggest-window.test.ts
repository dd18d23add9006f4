import { describeDb } from '@michelscope/db/testing';
import { searchDocuments } from '@michelscope/db/read';
import { beforeAll, expect, it } from 'vitest';
import { SUGGEST_RANK_WINDOW } from '../src/services/search';

const NET = 'sandboxnet';
const key = (n: number) => `KT1SuggestWindow${String(n).padStart(20, '0')}`;

/**
 * A broad word matched by more documents than suggestions rank: the answer ranks the newest matches (a
 * title match first, then newest first), and a narrow query still finds an old document.
 */
// PGlite and PostgreSQL: search SQL (the ranking window).
describeDb('suggestions over more matches than the ranking window', { backends: 'both' }, ({ db }) => {
  const count = SUGGEST_RANK_WINDOW + 50;

  beforeAll(async () => {
    await db()
      .insertInto('search_documents')
      .values(
        Array.from({ length: count }, (_, i) => ({
          network: NET,
          kind: 'contract',
          key: key(i),
          level: i + 1,
          title: i === count - 3 ? 'Transfer hub' : '',
          body: i === 0 ? 'transfer mint oldest_only_word' : 'transfer mint ledger',
        })),
      )
      .execute();
  });

  it('a broad word: the title match first, then the newest documents', async () => {
    const r = await searchDocuments(db(), {
      query: 'transfer',
      networks: [NET],
      size: 10,
      offset: 0,
      count: false,
      rankWindow: SUGGEST_RANK_WINDOW,
    });
    expect(r.hits).toHaveLength(10);
    expect(r.hits[0]).toMatchObject({ key: key(count - 3), title: 'Transfer hub', matched: 'title' });
    expect(r.hits.slice(1, 4).map((h) => h.key)).toEqual([key(count - 1), key(count - 2), key(count - 4)]);
    // the same first page as the full ranking of /search
    const full = await searchDocuments(db(), { query: 'transfer', networks: [NET], size: 10, offset: 0 });
    expect(r.hits.map((h) => h.key)).toEqual(full.hits.map((h) => h.key));
  });

  it('a narrow word or an address finds the oldest document', async () => {
    for (const query of ['oldest_only_word', key(0)]) {
      const r = await searchDocuments(db(), {
        query,
        networks: [NET],
        size: 10,
        offset: 0,
        count: false,
        rankWindow: SUGGEST_RANK_WINDOW,
      });
      expect(r.hits.map((h) => h.key)).toEqual([key(0)]);
    }
  });
});
