import { describeDb } from '@michelscope/db/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, expect, it } from 'vitest';
import { apiPlugin, DEFAULT_RATE_LIMIT } from '../src/index';
import { NETWORKS, makeApi } from './helpers';

// PGlite only: HTTP limits and headers, no query that differs.
describeDb('rate limit and CORS', { backends: 'pglite' }, ({ db }) => {
  const apps: FastifyInstance[] = [];
  const track = (app: FastifyInstance) => (apps.push(app), app);
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  it('limits each IP to `max` requests per window with 429 {"message"}, across all services', async () => {
    const app = track(await makeApi(db(), { rateLimit: { max: 3, timeWindowMs: 60_000 } }));
    const from = (ip: string, url = '/v1/config') => app.inject({ url, remoteAddress: ip });
    for (let i = 0; i < 3; i++) expect((await from('10.0.0.1')).statusCode).toBe(200);
    const over = await from('10.0.0.1', '/search/v1/mime_types');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ message: expect.stringMatching(/^rate limit exceeded/) });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const gql = await app.inject({
      method: 'POST',
      url: '/metadata/v1/graphql',
      remoteAddress: '10.0.0.1',
      payload: { query: '{ contract_metadata { network } }' },
    });
    expect(gql.statusCode).toBe(429);
    expect(gql.json()).toEqual({ errors: [{ message: expect.stringMatching(/^rate limit exceeded/) }] });
    // another address is not affected
    expect((await from('10.0.0.2')).statusCode).toBe(200);
  });

  it('counts a locally served /rpc/{network} (the embedded sandbox) in the same limit, with CORS', async () => {
    const app = track(
      await makeApi(db(), {
        rateLimit: { max: 2, timeWindowMs: 60_000 },
        embeddedNode: {
          network: 'sandboxnet',
          plugin: async (rpc) => {
            rpc.get('/chains/main/chain_id', () => 'NetXlocal');
          },
        },
      }),
    );
    const from = (url: string) => app.inject({ url, remoteAddress: '10.0.0.9' });
    const local = await from('/rpc/sandboxnet/chains/main/chain_id');
    expect(local.statusCode).toBe(200);
    expect(local.body).toBe('NetXlocal');
    expect(local.headers['x-ratelimit-remaining']).toBe('1');
    expect((await from('/v1/config')).statusCode).toBe(200);
    const over = await from('/rpc/sandboxnet/chains/main/chain_id');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ message: expect.stringMatching(/^rate limit exceeded/) });
    const pre = await app.inject({
      method: 'OPTIONS',
      url: '/rpc/sandboxnet/chains/main/chain_id',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.headers['access-control-allow-origin']).toBe('*');
  });

  it('is on by default and off with rateLimit: false', async () => {
    expect(DEFAULT_RATE_LIMIT.max).toBeGreaterThanOrEqual(600);
    const limited = track(Fastify());
    await limited.register(apiPlugin, { db: db(), networks: NETWORKS });
    const first = await limited.inject('/v1/config');
    expect(first.headers['x-ratelimit-limit']).toBe(String(DEFAULT_RATE_LIMIT.max));
    const off = track(await makeApi(db(), { rateLimit: false }));
    expect((await off.inject('/v1/config')).headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('stays inside the plugin scope: host routes get neither the limit nor CORS', async () => {
    const host = track(Fastify());
    host.get('/health', () => 'ok');
    await host.register(apiPlugin, {
      db: db(),
      networks: NETWORKS,
      rateLimit: { max: 1, timeWindowMs: 60_000 },
    });
    for (let i = 0; i < 3; i++) {
      const r = await host.inject({ url: '/health', headers: { origin: 'https://a.example' } });
      expect(r.statusCode).toBe(200);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
      expect(r.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const pre = await host.inject({
      method: 'OPTIONS',
      url: '/health',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' },
    });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows every origin by default, with preflight for POST', async () => {
    const app = track(await makeApi(db()));
    const r = await app.inject({ url: '/v1/head', headers: { origin: 'https://anything.example' } });
    expect(r.headers['access-control-allow-origin']).toBe('*');
    for (const url of [
      '/v1/michelson',
      '/search/v1/search',
      '/metadata/v1/graphql',
      '/rpc/sandboxnet/chains/main/blocks',
    ]) {
      const pre = await app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: 'https://anything.example', 'access-control-request-method': 'POST' },
      });
      expect(pre.statusCode, url).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('*');
      expect(pre.headers['access-control-allow-methods']).toContain('POST');
    }
  });

  it('allows only the listed origins, or none with cors: false', async () => {
    const app = track(await makeApi(db(), { cors: ['https://good.example'] }));
    const good = await app.inject({ url: '/v1/config', headers: { origin: 'https://good.example' } });
    expect(good.headers['access-control-allow-origin']).toBe('https://good.example');
    const bad = await app.inject({ url: '/v1/config', headers: { origin: 'https://evil.example' } });
    expect(bad.statusCode).toBe(200);
    expect(bad.headers['access-control-allow-origin']).toBeUndefined();
    const off = track(await makeApi(db(), { cors: false }));
    const none = await off.inject({ url: '/v1/config', headers: { origin: 'https://good.example' } });
    expect(none.headers['access-control-allow-origin']).toBeUndefined();
  });
});
