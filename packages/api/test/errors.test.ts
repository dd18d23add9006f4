import { describeDb } from '@michelscope/db/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPlugin, buildApi } from '../src/index';
import { NETWORKS, makeApi } from './helpers';

// PGlite only: error answers of the API, no query that differs.
describeDb('API errors', { backends: 'pglite' }, ({ db }) => {
  describe('error answers', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await makeApi(db());
    });
    afterAll(() => app.close());

    it('answers unknown /v1 routes and methods with 404 {"message":"not found"}', async () => {
      for (const [method, url] of [
        ['GET', '/v1/nothing'],
        ['GET', '/v1'],
        ['GET', '/v1/head/mainnet/extra'],
        ['POST', '/v1/head'],
        ['DELETE', '/v1/config'],
      ] as const) {
        const res = await app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json(), `${method} ${url}`).toEqual({ message: 'not found' });
      }
    });

    it('answers 400 {"message"} for every integer path or query parameter that is not a safe integer', async () => {
      const doc = (await app.inject('/v1/openapi.json')).json<{
        paths: Record<
          string,
          Record<string, { parameters?: { in: string; name: string; schema?: { type?: string } }[] }>
        >;
      }>();
      const urls: string[] = [];
      for (const [path, methods] of Object.entries(doc.paths)) {
        const params = methods.get?.parameters ?? [];
        const ints = params.filter((p) => p.in === 'path' && p.schema?.type === 'integer');
        if (!ints.length) continue;
        for (const bad of ['1e309', 'Infinity', '9007199254740993', '1e3', '0x10', '1.5']) {
          let url = path;
          for (const p of params.filter((x) => x.in === 'path'))
            url = url.replace(
              `{${p.name}}`,
              ints.includes(p)
                ? bad
                : p.name === 'network'
                  ? 'mainnet'
                  : 'KT1Hkg5qeNhfwpKW4fXvq7HGZB9z2EnmCCA9',
            );
          urls.push(url);
        }
      }
      // the two URLs of the report, plus every other route with an integer path parameter
      expect(urls).toContain('/v1/bigmap/mainnet/1e309');
      expect(urls).toContain('/v1/operation/mainnet/1e309/error_location');
      expect(urls.length).toBeGreaterThanOrEqual(6 * 9);
      urls.push('/v1/bigmap/mainnet/1/keys?offset=1e309', '/v1/bigmap/mainnet/1/keys?size=Infinity');
      for (const url of urls) {
        const res = await app.inject(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json<{ message: string }>().message, url).toMatch(
          /^(params|querystring)\/\w+ must be a safe integer/,
        );
      }
      expect((await app.inject('/v1/bigmap/mainnet/1e309')).json()).toEqual({
        message: 'params/ptr must be a safe integer, got "1e309"',
      });
    });

    it('answers malformed URLs with 400 {"message"}, not a 500', async () => {
      for (const url of ['/v1/head/%zz', '/v1/head/%']) {
        const res = await app.inject(url);
        expect(res.statusCode, url).toBe(400);
        expect(Object.keys(res.json()), url).toEqual(['message']);
      }
    });
  });

  describe('database failure', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      // Every query goes to a schema that does not exist: a real database error on each read.
      app = await buildApi({ db: db().withSchema('no_such_schema'), networks: NETWORKS });
    });
    afterAll(() => app.close());

    it('answers 500 {"message":"internal server error"} without leaking the cause', async () => {
      for (const url of ['/v1/head', '/v1/head/mainnet', '/v1/stats']) {
        const res = await app.inject(url);
        expect(res.statusCode, url).toBe(500);
        expect(res.json(), url).toEqual({ message: 'internal server error', request_id: expect.any(String) });
      }
    });

    it('still answers routes that need no database', async () => {
      expect((await app.inject('/v1/config')).statusCode).toBe(200);
    });
  });

  describe('request ids and the 5xx log (issue 34)', () => {
    const lines: string[] = [];
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await buildApi({
        db: db().withSchema('no_such_schema'),
        networks: NETWORKS,
        logError: (line) => lines.push(line),
      });
    });
    afterAll(() => app.close());

    it('logs each 5xx once, on one line with its request id and cause, and the answer carries the id', async () => {
      const res = await app.inject('/v1/head/mainnet');
      expect(res.statusCode).toBe(500);
      const id = res.headers['x-request-id'];
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      // the id, not the cause: no stack, no SQL
      expect(res.json()).toEqual({ message: 'internal server error', request_id: id });
      const mine = lines.filter((l) => l.includes(String(id)));
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatch(
        /^\[http\] 500 GET \/v1\/head\/mainnet request_id=[0-9a-f-]{36} ip=127\.0\.0\.1: /,
      );
      expect(mine[0]).toContain('no_such_schema');
      expect(mine[0]).not.toMatch(/[\n\r]/);
    });

    it('puts x-request-id on every answer, a different one each, and request_id in no 4xx body', async () => {
      const ids = new Set<string>();
      for (const url of [
        '/v1/config',
        '/v1/nothing',
        '/v1/head/%zz',
        '/v1/bigmap/mainnet/1e309',
        '/nowhere',
      ]) {
        const res = await app.inject(url);
        expect(res.headers['x-request-id'], url).toMatch(/^[0-9a-f-]{36}$/);
        ids.add(String(res.headers['x-request-id']));
        if (res.statusCode < 500) expect(res.json(), url).not.toHaveProperty('request_id');
      }
      expect(ids.size).toBe(5);
    });

    it('logs a 5xx a route answers without an error, and no line for 4xx', async () => {
      const before = lines.length;
      await app.inject('/v1/nothing');
      expect(lines.length).toBe(before);
      const host = Fastify();
      const hostLines: string[] = [];
      await host.register(apiPlugin, {
        db: db(),
        networks: NETWORKS,
        rateLimit: false,
        logError: (line) => hostLines.push(line),
        embeddedNode: {
          network: 'sandboxnet',
          plugin: async (rpc) => {
            rpc.get('/busy', (_request, reply) => reply.code(503).send({ message: 'busy' }));
          },
        },
      });
      const res = await host.inject('/rpc/sandboxnet/busy');
      expect(res.statusCode).toBe(503);
      expect(hostLines).toEqual([
        `[http] 503 GET /rpc/sandboxnet/busy request_id=${String(res.headers['x-request-id'])} ip=127.0.0.1: answered by its route (no error thrown)`,
      ]);
      await host.close();
    });
  });

  describe('apiPlugin inside a host app', () => {
    let host: FastifyInstance;
    beforeAll(async () => {
      host = Fastify();
      // What apps/server does: the embedded chain at a static prefix, the API, and an SPA fallback.
      await host.register(
        async (sandbox) => {
          sandbox.get('/*', async (request) => ({ sandbox: request.url }));
        },
        { prefix: '/rpc/sandboxnet' },
      );
      await host.register(apiPlugin, { db: db(), networks: NETWORKS });
      host.get('/boom', async () => {
        throw new Error('host failure');
      });
      host.setNotFoundHandler((_request, reply) =>
        reply.code(200).type('text/html').send('<!doctype html><title>spa</title>'),
      );
    });
    afterAll(() => host.close());

    it('lets the static /rpc/sandboxnet route win over the pass-through', async () => {
      const res = await host.inject('/rpc/sandboxnet/chains/main/blocks/head');
      expect(res.json()).toEqual({ sandbox: '/rpc/sandboxnet/chains/main/blocks/head' });
    });

    it("leaves other paths to the host's not-found handler (the SPA)", async () => {
      const res = await host.inject('/network/mainnet');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('spa');
    });

    it('keeps its error handler to itself', async () => {
      const res = await host.inject('/boom');
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ statusCode: 500, message: 'host failure' }); // Fastify's default body, not ours
      expect((await host.inject('/v1/nothing')).json()).toEqual({ message: 'not found' });
    });
  });
});
