import { describeDb } from '@michelscope/db/testing';
import type { ConfigResponse } from '@michelscope/api-types';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { makeApi } from './helpers';

// PGlite only: a configuration route, no query that differs.
describeDb('GET /v1/config', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApi(db(), {
      sentryDsn: 'https://key@sentry.example/1',
      gaEnabled: true,
      mempoolEnabled: true,
      ipfsGateway: 'https://gw.example/ipfs',
    });
  });
  afterAll(() => app.close());

  it('lists networks mainnet first, then by name descending, with their public RPC endpoints', async () => {
    const res = await app.inject('/v1/config');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = res.json<ConfigResponse>();
    expect(body.networks).toEqual(['mainnet', 'sandboxnet', 'parisnet', 'ghostnet']);
    expect(body.rpc_endpoints).toEqual({
      mainnet: 'https://rpc.mainnet.example',
      sandboxnet: 'http://localhost:8080/rpc/sandboxnet',
      parisnet: 'https://rpc.parisnet.example',
      ghostnet: 'https://rpc.ghostnet.example',
    });
  });

  it('answers the reference flags plus mempool_enabled, oauth always off', async () => {
    const body = (await app.inject('/v1/config')).json<ConfigResponse>();
    expect(body).toMatchObject({
      sentry_dsn: 'https://key@sentry.example/1',
      oauth_enabled: false,
      ga_enabled: true,
      sandbox_mode: false,
      mempool_enabled: true,
      ipfs_gateway: 'https://gw.example/ipfs',
    });
  });

  it('gives per-network stats availability and explorer links in network order', async () => {
    const body = (await app.inject('/v1/config')).json<ConfigResponse>();
    expect(body.network_info).toEqual([
      {
        name: 'mainnet',
        rpc_endpoint: 'https://rpc.mainnet.example',
        stats_enabled: true,
        explorer_url: 'https://explorer.example',
      },
      { name: 'sandboxnet', rpc_endpoint: 'http://localhost:8080/rpc/sandboxnet', stats_enabled: false },
      { name: 'parisnet', rpc_endpoint: 'https://rpc.parisnet.example', stats_enabled: false },
      { name: 'ghostnet', rpc_endpoint: 'https://rpc.ghostnet.example', stats_enabled: true },
    ]);
  });

  it('defaults the optional flags to empty/false', async () => {
    const bare = await makeApi(db());
    const body = (await bare.inject('/v1/config')).json<ConfigResponse>();
    await bare.close();
    expect(body).toMatchObject({
      sentry_dsn: '',
      ga_enabled: false,
      sandbox_mode: false,
      mempool_enabled: false,
      ipfs_gateway: 'https://ipfs.io/ipfs',
    });
  });
});
