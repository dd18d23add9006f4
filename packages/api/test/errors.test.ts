import { describeDb } from '@michelscope/db/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPlugin, buildApi } from '../src/index';
import { NETWORKS, makeApi } from './helpers';

describeDb('API errors', ({ db }) => {
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
        expect(res.json(), url).toEqual({ message: 'internal server error' });
      }
    });

    it('still answers routes that need no database', async () => {
      expect((await app.inject('/v1/config')).statusCode).toBe(200);
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
