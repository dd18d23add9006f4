/**
 * Malformed requests across every documented route: whatever the input, the answer is a JSON body and never
 * a 5xx. Paths, queries and bodies are mutated from the OpenAPI document with a seeded generator.
 */
import { describeDb } from '@michelscope/db/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApi } from '../src/index';
import { ALICE, NET, OPG2, TOKEN, keyHash, seedChain } from './seed';

const REQUESTS = 2400;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// PGlite only: request validation; the database is only a fixture.
describeDb('fuzz: malformed requests never give a 5xx', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  let node: FastifyInstance;

  beforeAll(async () => {
    await seedChain(db());
    // a node that knows nothing (every RPC answers 404), so failures come from the input, not the network
    node = Fastify({ forceCloseConnections: true });
    node.all('/*', (_req, reply) => reply.code(404).send('Not found'));
    const url = await node.listen({ host: '127.0.0.1', port: 0 });
    app = await buildApi({
      db: db(),
      networks: [{ name: NET, rpcUrl: url, publicRpcUrl: url, statsEnabled: true }],
      rateLimit: false, // thousands of requests from one address
    });
  });
  afterAll(async () => {
    await app.close();
    await node.close();
  });

  it(`${REQUESTS} mutated requests: zero 5xx, every body is JSON with a message on errors`, async () => {
    const doc = (await app.inject('/v1/openapi.json')).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const routes = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.keys(methods).map((m) => ({ path: p, method: m.toUpperCase() as 'GET' | 'POST' })),
    );
    expect(routes.length).toBeGreaterThan(60);
    const rand = rng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const values = [
      NET,
      'mainnet',
      'x',
      '',
      '-1',
      '0',
      '1',
      '99999999999999999999',
      'NaN',
      '1.5',
      TOKEN,
      ALICE,
      OPG2,
      keyHash(ALICE),
      'KT1',
      'tz1' + 'x'.repeat(200),
      '%00',
      '%2e%2e',
      '..',
      'expr',
      "'; DROP TABLE operations; --",
      '<script>',
      '💥',
      'a'.repeat(300),
    ];
    const bodies: unknown[] = [
      {},
      [],
      null,
      'text',
      42,
      { name: 'transfer', data: {} },
      { name: 'x', data: 'y' },
      { query: 'a'.repeat(500) },
      { query: '', filters: { search: { network: [1, 2] } } },
      { left: {}, right: {} },
      { kind: 'on-chain', data: [] },
      { kind: 'off-chain', data: {}, view: { michelsonStorageView: { returnType: 'x', code: {} } } },
      { allowances: [{ token_type: { schema_key: 2, token_contract: TOKEN } }] },
      { storage: [], script: '[' },
      { name: 'transfer', data: { transfer: { '@address_3': 'nope', '@nat_4': -1 } } },
      { contracts: ['x'] },
    ];
    const queries = [
      'size=11',
      'size=-1',
      'offset=-5',
      'last_id=abc',
      'level=0',
      'stats=maybe',
      'fill_type=x',
      'entrypoint=',
      'tags=,,',
      'max_level=1&min_level=5',
      'protocol=' + 'P'.repeat(70),
      'name=contract&period=hour',
      'network=' + NET + '&Status=9',
      'search=%ff',
    ];
    let fives = 0;
    const failures: string[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const r = pick(routes);
      const url =
        r.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
          rand() < 0.35
            ? encodeURIComponent(name === 'network' ? NET : pick(values))
            : encodeURIComponent(pick(values)),
        ) + (rand() < 0.6 ? `?${pick(queries)}` : '');
      const body = r.method === 'POST' ? pick(bodies) : undefined;
      const res = await app.inject({
        method: r.method,
        url,
        ...(body === undefined
          ? {}
          : {
              payload: JSON.stringify(body),
              headers: { 'content-type': rand() < 0.9 ? 'application/json' : 'text/plain' },
            }),
      });
      if (res.statusCode >= 500) {
        fives++;
        if (failures.length < 5)
          failures.push(`${r.method} ${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      if (res.statusCode >= 400) {
        // GraphQL over HTTP answers {"errors":[{"message"}]}, every other route {"message"}
        const body = res.json<{ message?: unknown; errors?: { message?: unknown }[] }>();
        const message = url.startsWith('/metadata/') ? body.errors?.[0]?.message : body.message;
        expect(typeof message, url).toBe('string');
      }
    }
    expect(failures).toEqual([]);
    expect(fives).toBe(0);
  }, 300_000);
});
