import { describeDb } from '@michelscope/db/testing';
import { storeVerification } from '@michelscope/db/verified';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeApi } from './helpers';
import { NET, SCRIPT_HASH, TOKEN, TWIN, seedChain } from './seed';

// PGlite and PostgreSQL: the search's `verified` filter and flag (issue 38) over the seeded chain, whose TOKEN
// and TWIN share a script; OTHER (added here) has another script, whose only submission failed.
describeDb('search: verified source filter', { backends: 'both' }, ({ db }) => {
  let app: FastifyInstance;
  const OTHER = 'KT1OtherContract' + 'x'.repeat(20);
  const OTHER_HASH = 'exprOtherScriptHash' + 'x'.repeat(35);
  type Item = { type: string; value: string; body: Record<string, unknown>; found_by?: string };
  type Page = { items: Item[]; total: number };
  const search = async (body: Record<string, unknown>): Promise<Page> => {
    const res = await app.inject({
      method: 'POST',
      url: '/search/v1/search',
      payload: { size: 10, ...body },
    });
    expect(res.statusCode).toBe(200);
    return JSON.parse(res.body) as Page;
  };
  const verifiedOnly = { search: { network: [NET], index: ['accounts'], verified: true } };
  const submission = (id: string, scriptHash: string, status: 'verified' | 'failed') => ({
    id,
    script_hash: scriptHash,
    // submitted for a contract of another network: same-script contracts of every network inherit it
    network: 'ghostnet',
    address: 'KT1SubmittedElsewhere' + 'x'.repeat(15),
    status,
    compiler: 'archetype',
    version: '1.5.3',
    options: {},
    main: 'a.arl',
    files: [{ name: 'a.arl', size: 1, sha256: 'ab' }],
    contents: ['x'],
    source_map: status === 'verified' ? [] : null,
    difference: status === 'failed' ? { section: 'code', message: 'differs' } : null,
    compiled: status === 'failed' ? '{ parameter unit }' : null,
  });

  beforeAll(async () => {
    await seedChain(db());
    const token = await db()
      .selectFrom('contracts')
      .select(['script_id', 'timestamp'])
      .where('network', '=', NET)
      .where('address', '=', TOKEN)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('contracts')
      .values({
        network: NET,
        address: OTHER,
        level: 4,
        timestamp: token.timestamp,
        script_id: token.script_id,
        script_hash: OTHER_HASH,
      } as never)
      .execute();
    await db()
      .insertInto('search_documents')
      .values([
        { network: NET, kind: 'contract', key: TWIN, level: 3, title: TWIN, body: 'transfer remove' },
        { network: NET, kind: 'contract', key: OTHER, level: 4, title: OTHER, body: 'transfer other' },
      ])
      .execute();
    app = await makeApi(db());
  });
  afterAll(() => app.close());

  it('nothing verified: no flag on contracts, the filter finds nothing, an empty query still finds nothing', async () => {
    const all = await search({ query: 'KT1', offset: 0 });
    const contracts = all.items.filter((i) => i.type === 'account');
    expect(contracts.map((i) => i.value).sort()).toEqual([OTHER, TOKEN, TWIN].sort());
    for (const i of contracts) expect(i.body).not.toHaveProperty('verified');
    expect(await search({ query: 'KT1', filters: verifiedOnly })).toMatchObject({ items: [], total: 0 });
    expect(await search({ query: '', filters: verifiedOnly })).toMatchObject({ items: [], total: 0 });
    expect(await search({ query: '', offset: 0 })).toMatchObject({ items: [], total: 0 });
  });

  it('a verified script: its contracts (twins included) flagged and alone under the filter, listed by an empty query', async () => {
    await storeVerification(db(), submission('ok', SCRIPT_HASH, 'verified'));
    await storeVerification(db(), submission('ko', OTHER_HASH, 'failed'));

    // unfiltered: the flag on the verified script's contracts, nothing new on the other one
    const all = await search({ query: 'KT1', offset: 0 });
    const byAddress = new Map(all.items.filter((i) => i.type === 'account').map((i) => [i.value, i]));
    expect(byAddress.get(TOKEN)!.body).toEqual({
      Network: NET,
      Address: TOKEN,
      IsContract: true,
      verified: true,
    });
    expect(byAddress.get(TWIN)!.body).toEqual({
      Network: NET,
      Address: TWIN,
      IsContract: true,
      verified: true,
    });
    expect(byAddress.get(OTHER)!.body).toEqual({ Network: NET, Address: OTHER, IsContract: true });

    // the filter, in `search` or at the top level: only the verified script's contracts, counted in SQL
    const filtered = await search({ query: 'KT1', filters: verifiedOnly });
    expect(filtered.total).toBe(2);
    expect(filtered.items.map((i) => i.value).sort()).toEqual([TOKEN, TWIN].sort());
    for (const i of filtered.items) expect(i).toMatchObject({ type: 'account', body: { verified: true } });
    const top = await search({ query: 'transfer', filters: { verified: true } });
    expect(top.items.map((i) => i.value).sort()).toEqual([TOKEN, TWIN].sort());

    // an empty query lists them, newest first, paged and counted; a listing matched nothing (no found_by)
    const listed = await search({ query: '', filters: verifiedOnly });
    expect(listed).toMatchObject({ total: 2 });
    expect(listed.items).toEqual([
      {
        type: 'account',
        value: TWIN,
        body: { Network: NET, Address: TWIN, IsContract: true, verified: true },
      },
      {
        type: 'account',
        value: TOKEN,
        body: { Network: NET, Address: TOKEN, IsContract: true, verified: true },
      },
    ]);
    const second = await search({ query: '', size: 1, offset: 1, filters: verifiedOnly });
    expect(second).toMatchObject({ total: 2, items: [{ value: TOKEN }] });

    // an index without accounts, or another network: nothing
    expect(
      await search({ query: '', filters: { search: { index: ['tokens'], verified: true } } }),
    ).toMatchObject({ items: [], total: 0 });
    expect(
      await search({ query: 'KT1', filters: { search: { network: ['mainnet'], verified: true } } }),
    ).toMatchObject({ items: [], total: 0 });
    // `verified: false` is no filter; an empty query without the filter still answers nothing
    const unfiltered = await search({ query: 'KT1', filters: { search: { verified: false } } });
    expect(unfiltered.items.map((i) => i.value)).toContain(OTHER);
    expect(await search({ query: '' })).toMatchObject({ items: [], total: 0 });

    // suggestions take the filter too
    const res = await app.inject({
      method: 'POST',
      url: '/search/v1/suggest',
      payload: { query: 'KT1', filters: verifiedOnly },
    });
    const suggested = (JSON.parse(res.body) as { items: Item[] }).items;
    expect(suggested.map((i) => i.value).sort()).toEqual([TOKEN, TWIN].sort());
  });
});
