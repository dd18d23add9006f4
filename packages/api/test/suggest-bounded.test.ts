import { describeDb } from '@michelscope/db/testing';
import { searchDocuments, SUGGEST_AND_WINDOW } from '@michelscope/db/read';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { bigMapKeyHash } from '@michelscope/michelson';
import { makeApi } from './helpers';
import { NET as API_NET } from './seed';
import { SUGGEST_RANK_WINDOW } from '../src/services/search';

const NET = 'suggestnet';
const OTHER = 'othernet';
const W = SUGGEST_RANK_WINDOW;
const key = (n: number) => `KT1Bounded${String(n).padStart(26, '0')}`;

/**
 * Suggestions read bounded index ranges (key prefix in byte order, each word's newest documents, the
 * intersection of several words' newest documents), kept in `search_terms` by a trigger on search_documents.
 */
// PGlite and PostgreSQL: search SQL (full text, pg_trgm, bounded windows).
describeDb('bounded suggestions', { backends: 'both' }, ({ db }) => {
  const suggest = (query: string, networks = [NET], kinds?: string[]) =>
    searchDocuments(db(), { query, networks, kinds, size: 10, offset: 0, count: false, rankWindow: W });

  beforeAll(async () => {
    const docs = [];
    // W + 100 contracts sharing a key prefix; the word "alpha" in the newest W + 50, "beta" in others
    for (let i = 0; i < W + 100; i++)
      docs.push({
        network: NET,
        kind: 'contract' as const,
        key: key(i),
        level: 1000 + i,
        title: '',
        body: i >= 50 ? 'alpha common' : 'common',
      });
    for (let i = 0; i < W + 10; i++)
      docs.push({
        network: NET,
        kind: 'contract' as const,
        key: `KT1OnlyBeta${String(i).padStart(25, '0')}`,
        level: 5000 + i,
        title: '',
        body: 'beta common',
      });
    // both words, older than every document of either word alone
    docs.push({
      network: NET,
      kind: 'contract' as const,
      key: 'KT1BothWords',
      level: 10,
      title: '',
      body: 'alpha beta',
    });
    docs.push({
      network: NET,
      kind: 'token' as const,
      key: `${key(7)}:0`,
      level: 3,
      title: 'Seven',
      body: '',
    });
    // a word newer and more frequent on another network
    for (let i = 0; i < W + 10; i++)
      docs.push({
        network: OTHER,
        kind: 'contract' as const,
        key: `KT1Other${i}`,
        level: 9000 + i,
        title: '',
        body: 'gamma',
      });
    docs.push({
      network: NET,
      kind: 'contract' as const,
      key: 'KT1GammaHere',
      level: 1,
      title: '',
      body: 'gamma',
    });
    await db().insertInto('search_documents').values(docs).execute();
  });

  it('an address: the exact key first, then its tokens; a shared prefix answers from the first keys', async () => {
    const exact = await suggest(key(7));
    expect(exact.hits.map((h) => [h.key, h.matched])).toEqual([
      [key(7), 'key'],
      [`${key(7)}:0`, 'key'],
    ]);
    // case-insensitive, as `key ILIKE 'q%'`
    expect((await suggest(key(7).toLowerCase())).hits[0]?.key).toBe(key(7));
    // a key match reads no body (its highlight is the address); a body match has its body (its highlight)
    expect(exact.hits[0]!.body).toBe('');
    const shared = await suggest('KT1Bounded');
    expect(shared.hits).toHaveLength(10);
    expect(shared.hits.every((h) => h.matched === 'key' && h.key.startsWith('KT1Bounded'))).toBe(true);
  });

  it('a broad word: its newest documents; a one-letter prefix still answers', async () => {
    const r = await suggest('alpha');
    expect(r.hits.map((h) => h.key)).toEqual(Array.from({ length: 10 }, (_, i) => key(W + 99 - i)));
    expect(r.hits.map((h) => [h.matched, h.body])).toContainEqual(['body', 'alpha common']);
    const letter = await suggest('a');
    expect(letter.hits).toHaveLength(10);
    expect(letter.hits.every((h) => h.matched === 'body')).toBe(true);
  });

  it('several words: a document with every word, older than each word’s newest documents', async () => {
    const r = await suggest('alpha be');
    expect(r.hits.map((h) => h.key)).toEqual(['KT1BothWords']);
    // the same document /search finds by ranking every match
    const full = await searchDocuments(db(), { query: 'alpha be', networks: [NET], size: 10, offset: 0 });
    expect(full.hits.map((h) => h.key)).toEqual(['KT1BothWords']);
  });

  it('several words, one of them in many newer documents: the documents of the rarer word that hold both', async () => {
    const many = SUGGEST_AND_WINDOW + 20;
    await db()
      .insertInto('search_documents')
      .values([
        ...Array.from({ length: many }, (_, i) => ({
          network: NET,
          kind: 'token' as const,
          key: `KT1DeltaToken:${i}`,
          level: 20_000 + i,
          title: `Delta Token ${i}`,
          body: '',
        })),
        ...Array.from({ length: 12 }, (_, i) => ({
          network: NET,
          kind: 'contract_metadata' as const,
          key: `KT1DeltaEpsilon${i}`,
          level: 100 + i,
          title: `Delta Epsilon ${i}`,
          body: '',
        })),
      ])
      .execute();
    const r = await suggest('delta eps');
    // ranked as /search ranks them (the shorter titles first): ten of the twelve
    expect(r.hits).toHaveLength(10);
    expect(r.hits.every((h) => h.key.startsWith('KT1DeltaEpsilon') && h.matched === 'title')).toBe(true);
  });

  it('/search past its bound ranks a window of the matches, counts them all, and pages into the window', async () => {
    const full = (offset: number) =>
      searchDocuments(db(), { query: 'alpha', networks: [NET], size: 10, offset });
    const bounded = (offset: number, rankBound: number) =>
      searchDocuments(db(), { query: 'alpha', networks: [NET], size: 10, offset, rankBound });
    const all = await full(0);
    // W + 50 documents hold "alpha", and one holds "alpha beta": all counted either way
    expect(all.total).toBe(W + 51);
    // under the bound, every match is ranked: the same page (counted and ranked in one statement), a deep page
    // too, and a page past the last match is empty with the count
    expect((await bounded(0, W + 51)).hits).toEqual(all.hits);
    expect(await bounded(W + 45, W + 51)).toEqual(await full(W + 45));
    expect(await bounded(W + 60, W + 51)).toEqual({ total: W + 51, hits: [] });
    // past it (a window of W newest per strategy): the page /search gives, ranks being equal but for the level
    const windowed = await bounded(0, W);
    expect(windowed.total).toBe(W + 51);
    expect(windowed.hits.slice(0, 10)).toEqual(all.hits);
    // a count known from an earlier call (the service keeps those above the bound a minute) is not redone
    const known = await searchDocuments(db(), {
      query: 'alpha',
      networks: [NET],
      size: 10,
      offset: 0,
      rankBound: W,
      knownTotal: 9999,
    });
    expect([known.total, known.hits.slice(0, 10)]).toEqual([9999, all.hits]);
    // a deeper page widens the window to reach it (the 60th match lies past W newest ones)
    const deep = await bounded(W + 30, W);
    expect(deep.hits.slice(0, 10).map((h) => h.key)).toEqual((await full(W + 30)).hits.map((h) => h.key));
    // a title fragment inside a word ranks last, and a window holds only words and key prefixes: the last page's
    // window is short of the count, so every match is ranked there and the fragment is listed last
    await db()
      .insertInto('search_documents')
      .values({
        network: NET,
        kind: 'contract_metadata',
        key: 'KT1Nalpha',
        level: 1,
        title: 'Xalphax',
        body: '',
      })
      .execute();
    try {
      expect((await full(W + 50)).hits.map((h) => h.key)).toEqual(['KT1BothWords', 'KT1Nalpha']);
      expect((await bounded(W + 50, W)).hits.map((h) => h.key)).toEqual(['KT1BothWords', 'KT1Nalpha']);
    } finally {
      await db().deleteFrom('search_documents').where('key', '=', 'KT1Nalpha').execute();
    }
  });

  it('/search of an address or its prefix (the function search_bounded) answers as the full ranking', async () => {
    const twin = 'KT1TwinAddress0000000000000000000000';
    // a contract with its metadata twin (one hit: the twin's) and a token whose title names the contract
    await db()
      .insertInto('search_documents')
      .values([
        { network: NET, kind: 'contract', key: twin, level: 7, title: '', body: '' },
        { network: NET, kind: 'contract_metadata', key: twin, level: 7, title: 'Twin', body: 'twin' },
        { network: NET, kind: 'token', key: 'KT1Elsewhere:1', level: 8, title: `About ${twin}`, body: '' },
      ])
      .execute();
    try {
      const cases: Array<[string, string[] | undefined]> = [
        [key(7), undefined],
        [key(7).slice(0, 14), undefined],
        ['kt1onlybeta00', undefined],
        [key(7), ['token']],
        ['KT1TwinAddress', undefined],
        ['KT1TwinAddress', ['contract']],
        [twin, undefined],
      ];
      for (const [query, kinds] of cases) {
        const page = { query, networks: [NET], kinds, size: 10, offset: 0 };
        const full = await searchDocuments(db(), page);
        expect(full.total, query).toBeGreaterThan(0);
        expect(await searchDocuments(db(), { ...page, rankBound: 500 }), query).toEqual(full);
        expect(await searchDocuments(db(), { ...page, offset: 1, rankBound: 500 }), query).toEqual(
          await searchDocuments(db(), { ...page, offset: 1 }),
        );
      }
      const r = await searchDocuments(db(), {
        query: twin.toLowerCase(),
        networks: [NET],
        size: 10,
        offset: 0,
        rankBound: 500,
      });
      // the exact key first (its twin, not the plain contract document), then the token naming it in its title
      expect([r.total, r.hits.map((h) => [h.kind, h.key, h.matched])]).toEqual([
        2,
        [
          ['contract_metadata', twin, 'key'],
          ['token', 'KT1Elsewhere:1', 'title'],
        ],
      ]);
      // past the bound, the count is still exact (the W + 100 contracts of the prefix and a token of one)
      expect(
        (
          await searchDocuments(db(), {
            query: key(1).slice(0, 12),
            networks: [NET],
            size: 10,
            offset: 0,
            rankBound: 20,
          })
        ).total,
      ).toBe(W + 101);
    } finally {
      await db().deleteFrom('search_documents').where('key', 'in', [twin, 'KT1Elsewhere:1']).execute();
    }
  });

  it('/search past its bound: a window short of the page ranks every match (words common apart, rare together)', async () => {
    // "alpha beta" is held by one document, older than the newest documents of either word: a window of each
    // word's newest 10 holds no document with both, yet the count says there is one
    const r = await searchDocuments(db(), {
      query: 'alpha beta',
      networks: [NET],
      size: 10,
      offset: 0,
      rankBound: 0,
    });
    expect([r.total, r.hits.map((h) => h.key)]).toEqual([1, ['KT1BothWords']]);
  });

  it('network and kind filters apply before the window', async () => {
    expect((await suggest('gamma')).hits.map((h) => h.key)).toEqual(['KT1GammaHere']);
    expect((await suggest('gamma', [NET, OTHER])).hits[0]?.key).toBe(`KT1Other${W + 9}`);
    expect((await suggest(key(7), [NET], ['token'])).hits.map((h) => h.key)).toEqual([`${key(7)}:0`]);
  });

  it('follows inserts, updates (as the metadata resolver upserts) and deletes of documents', async () => {
    const upsert = (title: string) =>
      sql`INSERT INTO search_documents (network, kind, key, level, title, body)
        VALUES (${NET}, 'contract_metadata', 'KT1Renamed', 42, ${title}, '')
        ON CONFLICT (network, kind, key) DO UPDATE SET title = excluded.title`.execute(db());
    await upsert('Zephyr Vault');
    expect((await suggest('zeph')).hits.map((h) => [h.key, h.matched])).toEqual([['KT1Renamed', 'title']]);
    await upsert('Quartz Vault');
    expect((await suggest('zeph')).hits).toEqual([]);
    expect((await suggest('quartz vau')).hits.map((h) => h.key)).toEqual(['KT1Renamed']);
    await db().deleteFrom('search_documents').where('key', '=', 'KT1Renamed').execute();
    expect((await suggest('quartz')).hits).toEqual([]);
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM search_terms t
      WHERE NOT EXISTS (SELECT 1 FROM search_documents d WHERE d.id = t.doc_id)`.execute(db());
    expect(left.rows[0]?.n).toBe(0);
  });

  it('a suggestion lists big-map keys first, then documents, within the page size', async () => {
    await db()
      .insertInto('big_map_states')
      .values({
        network: API_NET,
        ptr: 7,
        key_hash: bigMapKeyHash({ string: 'keyword' }, { prim: 'string' }),
        contract: key(1),
        key: JSON.stringify({ string: 'keyword' }),
        value: JSON.stringify({ int: '1' }),
        removed: false,
        last_update_level: 5,
        last_update_time: new Date('2026-01-01T00:00:00Z'),
        count: 0,
        level: 5,
      })
      .execute();
    await db()
      .insertInto('search_documents')
      .values(
        [1, 2].map((i) => ({
          network: API_NET,
          kind: 'contract',
          key: `KT1Keyword${i}`,
          level: i,
          title: '',
          body: 'keyword',
        })),
      )
      .execute();
    const app = await makeApi(db());
    try {
      const items = async (size: number) =>
        (
          await app.inject({ method: 'POST', url: '/search/v1/suggest', payload: { query: 'keyword', size } })
        ).json<{
          items: { type: string; value: string; found_by: string; body: Record<string, unknown> }[];
        }>().items;
      const three = await items(3);
      expect(three.map((i) => [i.type, i.found_by])).toEqual([
        ['bigmapkey', 'Key'],
        ['account', 'Body'],
        ['account', 'Body'],
      ]);
      expect(three[0]!.body).toMatchObject({
        Network: API_NET,
        BigMapID: 7,
        Address: key(1),
        IsActive: true,
      });
      expect(three.slice(1).map((i) => i.value)).toEqual(['KT1Keyword2', 'KT1Keyword1']);
      expect((await items(2)).map((i) => i.value)).toEqual([three[0]!.value, 'KT1Keyword2']);
      expect((await items(1)).map((i) => i.type)).toEqual(['bigmapkey']);
    } finally {
      await app.close();
    }
  });

  it('odd queries answer 200 through the route (no 5xx)', async () => {
    const app = await makeApi(db());
    try {
      for (const query of [
        '\u0000',
        'a\u0000b',
        '%_\\',
        '\u{10FFFF}',
        'x'.repeat(300),
        '  ',
        '💥 🦄',
        "'; --",
        '-',
        'a b c d e f g h',
      ]) {
        const res = await app.inject({ method: 'POST', url: '/search/v1/suggest', payload: { query } });
        expect([res.statusCode, query]).toEqual([200, query]);
      }
      const filters = { search: { entrypoints: ['a\u0000'], status: ['\u0000'], network: ['\u0000'] } };
      const res = await app.inject({
        method: 'POST',
        url: '/search/v1/search',
        payload: { query: 'oo1234\u0000', size: 10, filters },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('is emptied with its documents', async () => {
    await sql`TRUNCATE search_documents`.execute(db());
    const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM search_terms`.execute(db());
    expect(n.rows[0]?.n).toBe(0);
  });
});
