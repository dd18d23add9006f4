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
      // GET /v1/health answers 503 with the health document by design: this fuzz's node knows nothing
      if (url.split('?')[0] === '/v1/health') continue;
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

  // Valid JSON that a store or a reader cannot hold as it is (issue 34 item 2): a NUL, lone surrogates, numbers
  // out of a double's range or past its digits, in every field of every POST body the OpenAPI document
  // describes (one field at a time, the others plausible, so the value gets past the fields before it) and in
  // every path and query parameter of every route.
  it('hostile strings and numbers in every field of every route: zero 5xx', async () => {
    type Schema = {
      type?: string | string[];
      properties?: Record<string, Schema>;
      required?: string[];
      items?: Schema;
      anyOf?: Schema[];
      oneOf?: Schema[];
      enum?: unknown[];
      const?: unknown;
      minLength?: number;
      minimum?: number;
      minItems?: number;
      additionalProperties?: boolean | Schema;
    };
    type Operation = {
      parameters?: { name: string; in: string }[];
      requestBody?: { content?: Record<string, { schema?: Schema }> };
    };
    const doc = (await app.inject('/v1/openapi.json')).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    const HOSTILE_JSON = [
      '"\\u0000"',
      '"a\\u0000b"',
      '"\\ud800"',
      '"x\\udc00"',
      '1e400',
      '-1e400',
      '1e-400',
      '123456789012345678901234567890',
      '0.12345678901234567890123',
    ];
    const HOSTILE_URL = [
      '%00',
      'a%00b',
      '%ED%A0%80',
      '%C0%AF',
      '1e400',
      '-1e400',
      '123456789012345678901234567890',
    ];
    const plausible: Record<string, string> = { network: NET, address: TOKEN, contract: TOKEN, hash: OPG2 };
    const HERE = '@@HOSTILE@@';
    /** A plausible value of a schema, with `at` (a path of keys) replaced by HERE; the leaves' paths into `leaves`. */
    function value(s: Schema, path: string[], at: string[] | null, leaves: string[][], depth = 0): unknown {
      const here = at !== null && at.length === path.length && at.every((k, i) => k === path[i]);
      const variant = s.anyOf?.[0] ?? s.oneOf?.[0];
      if (variant) return value(variant, path, at, leaves, depth);
      const type = Array.isArray(s.type) ? s.type[0] : s.type;
      if (type === 'object' || s.properties) {
        if (here) return HERE;
        const o: Record<string, unknown> = {};
        if (depth < 6)
          for (const [k, p] of Object.entries(s.properties ?? {}))
            o[k] = value(p, [...path, k], at, leaves, depth + 1);
        if (s.additionalProperties !== false) {
          leaves.push([...path, '\u0000key']);
          if (
            at &&
            at.length === path.length + 1 &&
            at.slice(0, -1).every((k, i) => k === path[i]) &&
            at.at(-1) === '\u0000key'
          )
            o[HERE] = 1;
        }
        return o;
      }
      if (type === 'array') {
        if (here) return HERE;
        return s.items && depth < 6 ? [value(s.items, [...path, '0'], at, leaves, depth + 1)] : [];
      }
      leaves.push(path);
      if (here) return HERE;
      if (s.const !== undefined) return s.const;
      if (s.enum?.length) return s.enum[0];
      if (type === 'integer' || type === 'number') return s.minimum ?? 1;
      if (type === 'boolean') return true;
      if (type === 'string') return plausible[path.at(-1) ?? ''] ?? 'x'.repeat(Math.max(1, s.minLength ?? 1));
      return {};
    }
    const requests: { method: string; url: string; payload?: string }[] = [];
    for (const [p, methods] of Object.entries(doc.paths))
      for (const [m, op] of Object.entries(methods)) {
        const method = m.toUpperCase();
        const params = (op.parameters ?? []).filter((x) => x.in === 'path' || x.in === 'query');
        const url = (hostile?: { name: string; in: string; text: string }) => {
          const path = p.replace(/\{(\w+)\}/g, (_m, name: string) =>
            hostile?.in === 'path' && hostile.name === name ? hostile.text : (plausible[name] ?? '1'),
          );
          return hostile?.in === 'query' ? `${path}?${hostile.name}=${hostile.text}` : path;
        };
        const schema = op.requestBody?.content?.['application/json']?.schema;
        const leaves: string[][] = [];
        const body = schema ? JSON.stringify(value(schema, [], null, leaves)) : undefined;
        for (const param of params)
          for (const text of HOSTILE_URL)
            requests.push({ method, url: url({ ...param, text }), ...(body ? { payload: body } : {}) });
        if (!schema) continue;
        for (const leaf of leaves.slice(0, 60))
          for (const text of HOSTILE_JSON) {
            const payload = JSON.stringify(value(schema, [], leaf, [])).replace(
              leaf.at(-1) === '\u0000key' ? `"${HERE}":1` : `"${HERE}"`,
              leaf.at(-1) === '\u0000key' ? `${text.startsWith('"') ? text : `"${text}"`}:1` : text,
            );
            requests.push({ method, url: url(), payload });
          }
      }
    expect(requests.length).toBeGreaterThan(1000);
    const failures: string[] = [];
    for (const r of requests) {
      const res = await app
        .inject({
          method: r.method as 'GET' | 'POST',
          url: r.url,
          ...(r.payload === undefined
            ? {}
            : { payload: r.payload, headers: { 'content-type': 'application/json' } }),
        })
        .catch((e: Error) => ({
          statusCode: 599,
          body: e.message,
          json: <T>() => ({ message: e.message }) as T,
        }));
      if (res.statusCode >= 500 && failures.length < 10)
        failures.push(
          `${r.method} ${r.url} ${r.payload?.slice(0, 300) ?? ''} → ${res.statusCode} ${res.body.slice(0, 200)}`,
        );
      if (res.statusCode >= 400 && !r.url.startsWith('/metadata/'))
        expect(typeof res.json<{ message?: unknown }>().message, r.url).toBe('string');
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
