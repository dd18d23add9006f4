import { describeDb } from '@michelscope/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeApi } from '../../api/test/helpers';
import { NET, OPG2, TOKEN, seedChain } from '../../api/test/seed';
import { ApiError, collect, createClient, type MichelscopeClient } from '../src/index';

// The real API over a seeded PGlite database, listening on a free port, called through the client.
describeDb('@michelscope/client over the API', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  let client: MichelscopeClient;

  beforeAll(async () => {
    await seedChain(db());
    app = await makeApi(db());
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    client = createClient({ baseUrl: address });
  });
  afterAll(() => app.close());

  it('typed calls: a contract and an operation group', async () => {
    const contract = await client.unwrap(
      client.GET('/v1/contract/{network}/{address}', { params: { path: { network: NET, address: TOKEN } } }),
    );
    expect(contract.address).toBe(TOKEN);
    expect(contract.network).toBe(NET);
    const { data: groups } = await client.GET('/v1/opg/{network}/{hash}', {
      params: { path: { network: NET, hash: OPG2 } },
    });
    expect(groups?.map((o) => o.kind)).toContain('transaction');
  });

  it('a 404 throws ApiError with the status and the API message', async () => {
    const error = await client
      .GET('/v1/contract/{network}/{address}/opg', {
        params: { path: { network: NET, address: 'tz1UnknownAccountxxxxxxxxxxxxxxxxxxx' } },
      })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, message: 'not found' });
    expect((error as ApiError).request).toMatchObject({ method: 'GET' });
    const invalid = await client
      .GET('/v1/contract/{network}/{address}/opg', {
        params: { path: { network: NET, address: TOKEN }, query: { size: 11 } },
      })
      .catch((err: unknown) => err as ApiError);
    expect(invalid).toMatchObject({ status: 400 });
    expect((invalid as ApiError).message).toMatch(/size/);
  });

  it('operations(): keyset pages by last_id give the whole list, as one page does', async () => {
    const whole = await client.unwrap(
      client.GET('/v1/contract/{network}/{address}/opg', {
        params: { path: { network: NET, address: TOKEN }, query: { size: 10 } },
      }),
    );
    expect(whole.length).toBeGreaterThan(2);
    const pages: number[] = [];
    client.use({
      onRequest({ request }) {
        const size = new URL(request.url).searchParams.get('size');
        if (request.url.includes('/opg') && size === '1') pages.push(1);
        return undefined;
      },
    });
    const paged = await collect(client.operations(NET, TOKEN, { size: 1 }));
    expect(paged.map((g) => [g.hash, g.counter])).toEqual(whole.map((g) => [g.hash, g.counter]));
    expect(pages.length).toBeGreaterThan(2);
    expect(await collect(client.operations(NET, TOKEN, { size: 1, limit: 2 }))).toHaveLength(2);
  });

  it('bigMapKeys(): offset pages', async () => {
    const whole = await client.unwrap(
      client.GET('/v1/bigmap/{network}/{ptr}/keys', {
        params: { path: { network: NET, ptr: 0 }, query: { size: 10 } },
      }),
    );
    expect(whole.length).toBeGreaterThan(1);
    const paged = await collect(client.bigMapKeys(NET, 0, { size: 1 }));
    expect(paged.map((k) => k.data.key_hash)).toEqual(whole.map((k) => k.data.key_hash));
  });

  it('the search and stats services', async () => {
    const found = await collect(client.search({ query: TOKEN.slice(0, 12) }, { size: 1 }), 5);
    expect(found.length).toBeGreaterThan(0);
    const count = await client.statsSummary('operations', 'count', { network: NET });
    expect(count).toMatch(/^\d+$/);
  });

  it('live(): a server without live updates answers 404, thrown as ApiError', async () => {
    await expect(collect(client.live(NET))).rejects.toMatchObject({ status: 404 });
  });
});
