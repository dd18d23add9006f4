import { describeDb } from '@michelscope/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeApi } from './helpers';
import { ALICE, BOB, NET, OPG2, OPG3, OPG4, PROTO, TOKEN, keyHash, seedChain } from './seed';

// PGlite and PostgreSQL: search (full text, pg_trgm) and stats SQL.
describeDb('search and stats services', { backends: 'both' }, ({ db }) => {
  let app: FastifyInstance;
  type Item = {
    type: string;
    value: string;
    body: Record<string, unknown>;
    found_by?: string;
    highlights?: Record<string, string[]>;
  };
  const post = async (url: string, payload: unknown) => {
    const res = await app.inject({ method: 'POST', url, payload: payload as object });
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as unknown) : undefined };
  };
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as unknown) : undefined };
  };

  beforeAll(async () => {
    await seedChain(db());
    // what the metadata resolver and indexer write for a resolved token and a named contract
    await db()
      .insertInto('token_metadata')
      .values({
        network: NET,
        contract: TOKEN,
        token_id: '0',
        level: 2,
        status: 3,
        name: 'Golden Pixel',
        symbol: 'GPX',
        metadata: JSON.stringify({
          name: 'Golden Pixel',
          symbol: 'GPX',
          description: 'A golden pixel',
          tags: ['art', 7, ''],
          creators: [ALICE],
          thumbnailUri: 'ipfs://thumb',
          formats: [
            { uri: 'ipfs://x', mimeType: 'image/png', fileName: 'x.png', fileSize: '2048' },
            { uri: 'ipfs://y', mimeType: 'video/mp4' },
            { fileName: 'no uri' },
          ],
        }),
      } as never)
      .execute();
    await db()
      .insertInto('contract_metadata')
      .values({ network: NET, address: TOKEN, level: 1, status: 3, name: 'Pixel Ledger' } as never)
      .execute();
    await db()
      .insertInto('search_documents')
      .values([
        {
          network: NET,
          kind: 'token',
          key: `${TOKEN}:0`,
          level: 2,
          title: 'Golden Pixel',
          body: 'GPX art pixel',
        },
        {
          network: NET,
          kind: 'contract_metadata',
          key: TOKEN,
          level: 1,
          title: 'Pixel Ledger',
          body: 'ledger of pixels',
        },
      ])
      .execute();
    app = await makeApi(db());
  });
  afterAll(() => app.close());

  it('suggest finds tokens and contracts by words, with highlights and found_by', async () => {
    const r = await post('/search/v1/suggest', { query: '  golden pix ', size: 10, filters: {} });
    expect(r.status).toBe(200);
    const items = (r.body as { items: Item[] }).items;
    expect(items[0]).toMatchObject({
      type: 'token',
      value: TOKEN,
      body: { Network: NET, TokenID: '0', Name: 'Golden Pixel' },
      found_by: 'Name',
    });
    expect(items[0]!.highlights!.Name![0]).toContain('<em>golden</em>'.replace('golden', 'Golden'));
    // the fields of the token's resolved metadata the search card shows; malformed entries left out
    expect(items[0]!.body).toEqual({
      Network: NET,
      Address: TOKEN,
      TokenID: '0',
      Name: 'Golden Pixel',
      Symbol: 'GPX',
      Description: 'A golden pixel',
      Tags: ['art'],
      Creators: [ALICE],
      ThumbnailURI: 'ipfs://thumb',
      Formats: [
        { uri: 'ipfs://x', fileName: 'x.png', fileSize: 2048, mimeType: 'image/png' },
        { uri: 'ipfs://y', mimeType: 'video/mp4' },
      ],
    });
  });

  it('search: address prefix, entrypoint words, index and network filters, operations and key hashes', async () => {
    const byAddr = (await post('/search/v1/search', { query: TOKEN.slice(0, 12), size: 10, offset: 0 }))
      .body as { items: Item[]; total: number; took: number };
    expect(
      byAddr.items.some(
        (i) =>
          i.type === 'account' && i.value === TOKEN && i.body.IsContract === true && i.found_by === 'Address',
      ),
    ).toBe(true);
    expect(byAddr.total).toBeGreaterThanOrEqual(2);
    expect(typeof byAddr.took).toBe('number');
    // the prefix is read case-insensitively, as a range of the lowered keys: `kt1…` typed in lower case finds it,
    // and `_` or `%` in the text are characters, not patterns
    const search = async (query: string) =>
      ((await post('/search/v1/search', { query, size: 10, offset: 0 })).body as { items: Item[] }).items;
    expect((await search(TOKEN.slice(0, 12).toLowerCase())).map((i) => i.value)).toContain(TOKEN);
    for (const c of ['_', '%'])
      expect(
        (await search(`${TOKEN.slice(0, 3)}${c}${TOKEN.slice(4, 12)}`)).map((i) => i.value),
      ).not.toContain(TOKEN);
    const byWord = (
      await post('/search/v1/search', { query: 'transfer', size: 10, offset: 0, disable_highlight: true })
    ).body as { items: Item[] };
    expect(byWord.items.map((i) => i.value)).toContain(TOKEN);
    expect(byWord.items[0]).not.toHaveProperty('highlights');
    const tokensOnly = (
      await post('/search/v1/search', {
        query: 'pixel',
        size: 10,
        offset: 0,
        filters: { tokens: { index: ['tokens'], network: [NET] } },
      })
    ).body as { items: Item[] };
    expect(tokensOnly.items.map((i) => i.type)).toEqual(['token']);
    const otherNet = (
      await post('/search/v1/search', {
        query: 'pixel',
        size: 10,
        offset: 0,
        filters: { search: { network: ['mainnet'] } },
      })
    ).body as { items: Item[]; total: number };
    expect(otherNet).toMatchObject({ items: [], total: 0 });
    const op = (await post('/search/v1/search', { query: OPG2.slice(0, 20), size: 10, offset: 0 })).body as {
      items: Item[];
    };
    expect(op.items[1]).toMatchObject({
      type: 'operation',
      value: OPG2,
      body: { Network: NET, Counter: 4, Level: 2, Status: 'applied', Destination: TOKEN },
    });
    expect(op.items.map((i) => i.body.Counter)).toEqual([5, 4]);
    const key = (await post('/search/v1/search', { query: keyHash(ALICE), size: 10, offset: 0 })).body as {
      items: Item[];
    };
    expect(key.items[0]).toMatchObject({
      type: 'bigmapkey',
      value: keyHash(ALICE),
      body: { BigMapID: 0, IsActive: true },
    });
    // an address finds the big-map keys it is (by the key hash of the address)
    const byKey = (
      await post('/search/v1/search', {
        query: ALICE,
        size: 10,
        offset: 0,
        filters: { search: { index: ['big_maps'] } },
      })
    ).body as { items: Item[] };
    expect(byKey.items[0]).toMatchObject({ type: 'bigmapkey', value: keyHash(ALICE), found_by: 'Key' });
    // an implicit account by its exact address in the accounts index (it has no search document)
    const account = async (query: string) =>
      (
        (
          await post('/search/v1/search', {
            query,
            size: 10,
            offset: 0,
            filters: { search: { index: ['accounts'], network: [NET] } },
          })
        ).body as { items: Item[] }
      ).items;
    expect(await account(ALICE)).toEqual([
      {
        type: 'account',
        value: ALICE,
        body: { Network: NET, Address: ALICE, IsContract: false },
        highlights: { Address: [`<em>${ALICE}</em>`] },
        found_by: 'Address',
      },
    ]);
    expect(await account('tz1burnburnburnburnburnburnburjAYjjX')).toEqual([]);
    expect((await post('/search/v1/search', { query: '   ', size: 10, offset: 0 })).body).toMatchObject({
      items: [],
      total: 0,
    });
    expect((await post('/search/v1/search', { query: 'x', size: 1000 })).status).toBe(400);
  });

  it("operations tab: an account's operation groups by text, status, entrypoint and date, an empty text listing them", async () => {
    const tab = async (query: string, extra: Record<string, unknown> = {}) =>
      (
        (
          await post('/search/v1/search', {
            query,
            size: 20,
            offset: 0,
            filters: { search: { network: [NET], index: ['operations'], address: [TOKEN], ...extra } },
          })
        ).body as { items: Item[] }
      ).items;
    const all = await tab('');
    expect(all.map((i) => i.body.Hash)).toEqual(expect.arrayContaining([OPG2, OPG3, OPG4]));
    expect(all.every((i) => i.type === 'operation')).toBe(true);
    // newest first, one hit per group
    expect(all.map((i) => i.body.Level)).toEqual(
      [...all.map((i) => i.body.Level as number)].sort((a, b) => b - a),
    );
    expect(new Set(all.map((i) => `${String(i.body.Hash)}/${String(i.body.Counter)}`)).size).toBe(all.length);
    expect((await tab('', { status: ['failed'] })).map((i) => i.body.Hash)).toEqual([OPG3]);
    // each hit carries its group's figures as the unfiltered list has them (they showed 0 ꜩ when filtered)
    const groups = (await get(`/v1/contract/${NET}/${TOKEN}/opg?size=10`)).body as {
      hash: string;
      counter: number;
      total_cost: number;
      flow: number;
      internals: number;
    }[];
    const filtered = await tab('', { entrypoint: ['transfer', 'remove'] });
    expect(filtered.length).toBeGreaterThan(0);
    for (const hit of filtered) {
      const g = groups.find((x) => x.hash === hit.body.Hash && x.counter === hit.body.Counter)!;
      expect(hit.body).toMatchObject({ TotalCost: g.total_cost, Flow: g.flow, Internals: g.internals });
    }
    expect(filtered.some((h) => Number(h.body.TotalCost) > 0)).toBe(true);
    expect((await tab('', { entrypoint: ['remove'] })).map((i) => i.body.Hash)).toEqual([OPG4]);
    expect((await tab(OPG4.slice(0, 12))).map((i) => i.body.Hash)).toEqual([OPG4]);
    expect((await tab(BOB)).map((i) => i.body.Hash)).toContain(OPG3);
    expect(await tab('', { timestamp: { gte: '2001-01-01T00:00:00Z', lt: '2001-01-02T00:00:00Z' } })).toEqual(
      [],
    );
    // without an account an empty text still finds nothing
    expect(
      (
        await post('/search/v1/search', {
          query: '',
          size: 10,
          offset: 0,
          filters: { search: { status: ['failed'] } },
        })
      ).body,
    ).toMatchObject({ items: [], total: 0 });
  });

  it('global search by the start of an operation hash keeps the status filter', async () => {
    const byHash = async (status: string[]) =>
      (
        (
          await post('/search/v1/search', {
            query: OPG3.slice(0, 12),
            size: 10,
            offset: 0,
            filters: { search: { network: [NET], index: ['operations'], status } },
          })
        ).body as { items: Item[] }
      ).items.map((i) => i.body.Hash);
    expect(await byHash(['failed'])).toEqual([OPG3]);
    expect(await byHash(['applied', 'backtracked'])).toEqual([]);
  });

  it('account alias: 200 with sources in priority order, 204 when unnamed; mime types', async () => {
    // the contract's TZIP-16 name; its token's name ('Golden Pixel') is not the contract's (issue 33)
    expect((await get(`/search/v1/account/${NET}/${TOKEN}`)).body).toEqual({
      TZIP: { Name: 'Pixel Ledger' },
    });
    const none = await get(`/search/v1/account/${NET}/${BOB}`);
    expect(none.status).toBe(204);
    expect((await get(`/search/v1/account/${NET}/bad`)).status).toBe(400);
    expect((await get('/search/v1/mime_types')).body).toEqual([{ name: 'image/png' }, { name: 'video/mp4' }]);
    expect((await get('/search/v1/nope')).body).toEqual({ message: 'not found' });
  });

  it('stats service: summary and histogram with the reference filters', async () => {
    const calls = await get(
      `/stats/v1/summary/transactions/count?network=${NET}&Status=1&Entrypoint.isnotnull=`,
    );
    // the bare total, which the BCD client parses itself (issue 33)
    expect(calls.body).toBe('2');
    const toToken = await get(`/stats/v1/summary/transactions/count?network=${NET}&Target=${TOKEN}`);
    expect(toToken.body).toBe('3');
    const users = await get(
      `/stats/v1/summary/transactions/count?network=${NET}&Target=${TOKEN}&distinct=Sender`,
    );
    expect(users.body).toBe('2');
    // the BCD client's form of the same: the `distinct` function of `field`
    const distinct = await get(
      `/stats/v1/summary/transactions/distinct?network=${NET}&field=Sender&Target=${TOKEN}`,
    );
    expect(distinct.body).toBe('2');
    const gas = await get(`/stats/v1/histogram/consumed_gas/sum/day?network=${NET}&field=Used`);
    expect(gas.body).toEqual([{ ts: Date.parse('2026-01-10T00:00:00Z') / 1000, value: '2054659' }]);
    const deployments = await get(`/stats/v1/histogram/originations/count/month?network=${NET}&Status=1`);
    expect(deployments.body).toEqual([{ ts: Date.parse('2026-01-01T00:00:00Z') / 1000, value: '2' }]);
    expect((await get(`/stats/v1/histogram/originations/count/decade?network=${NET}`)).status).toBe(400);
    expect((await get(`/stats/v1/summary/nothing/count?network=${NET}`)).status).toBe(400);
    expect((await get(`/stats/v1/summary/transactions/count?network=nowhere`)).status).toBe(400);
    const uc = await post(`/stats/v1/users_and_calls_count/${NET}`, { contracts: [TOKEN] });
    expect(uc.body).toEqual({ users: '1', calls: '2' });
  });

  it('stats service per network: the BCD frontend requests against the base /stats/{network}', async () => {
    // StatsAPI: one axios base per network, no network in the query (issue 17)
    const base = `/stats/${NET}`;
    const calls = await get(`${base}/v1/summary/transactions/count?Entrypoint.isnotnull=&Status=1`);
    expect(calls.body).toBe('2');
    const deployments = await get(`${base}/v1/histogram/originations/count/month`);
    expect(deployments.body).toEqual([{ ts: Date.parse('2026-01-01T00:00:00Z') / 1000, value: '2' }]);
    // the same answers as the network-in-the-query form
    for (const path of ['transactions/count', 'consumed_gas/sum', 'paid_storage_size_diff/sum']) {
      const perNetwork = await get(`${base}/v1/histogram/${path}/month`);
      expect(perNetwork.status, path).toBe(200);
      expect(perNetwork.body, path).toEqual(
        (await get(`/stats/v1/histogram/${path}/month?network=${NET}`)).body,
      );
    }
    const gas = (await get(`${base}/v1/histogram/consumed_gas/sum/month`)).body as Array<{ value: string }>;
    expect(gas.map((p) => p.value)).toEqual(['2054659']);
    const uc = await post(`${base}/v1/users_and_calls_count/month`, { contracts: [TOKEN] });
    expect(uc.body).toEqual({ users: '1', calls: '2' });
    const unknown = await get('/stats/nowhere/v1/histogram/transactions/count/month');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ message: expect.stringContaining('nowhere') });
  });

  it('/v1/stats/{network} and /series', async () => {
    const s = (await get(`/v1/stats/${NET}`)).body;
    expect(s).toMatchObject({
      contracts_count: 2,
      unique_contracts: 1,
      fa_count: 0,
      protocols: [{ hash: PROTO, start_level: 1, alias: 'Paris' }],
    });
    const series = (await get(`/v1/stats/${NET}/series?name=contract&period=year`)).body;
    expect(series).toEqual([[Date.parse('2026-01-01T00:00:00Z'), 2]]);
    expect((await get(`/v1/stats/${NET}/series?name=bogus&period=year`)).status).toBe(400);
  });
});
