/**
 * Every answer goes through its schema (issue 35): the tests' `onSend` check (`checkResponses`, on in every app
 * `buildApi` builds under Vitest) fails a request whose JSON answer does not match its route's declared
 * response schema, pre-built JSON text included, and lets through what it should not check; the debugger's and
 * the what-if's answers (JSON text built and checked in the debug workers) pass it.
 */
import { ErrorBody } from '@michelscope/api-types';
import { describeDb } from '@michelscope/db/testing';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi, checkResponses, errorHandler } from '../src/index';
import { NETWORKS } from './helpers';
import { SchemaCheck, sendValidatedJson, type ValidatedJson } from '../src/validated-json';
import { openIndexedSandbox, SANDBOX_NET as NET, type IndexedSandbox } from './indexed-sandbox';

const Answer = Type.Object({ n: Type.Integer({ minimum: 0 }), name: Type.String() });

async function tinyApp(): Promise<FastifyInstance> {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  app.setErrorHandler(errorHandler);
  checkResponses(app);
  const schema = { response: { 200: Answer, 404: ErrorBody } };
  // serialised by Fastify, which does not check `minimum`: the check does
  app.get('/object', { schema }, () => ({ n: -1, name: 'x' }));
  app.get('/good', { schema }, () => ({ n: 1, name: 'x' }));
  // JSON text sent as it is: Fastify's serialiser never sees it
  app.get('/text', { schema }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send('{"n":1,"name":2}' as never),
  );
  app.get('/missing', { schema }, async (_request, reply) =>
    reply
      .code(404)
      .type('application/json')
      .send('{"error":"gone"}' as never),
  );
  app.get('/checked', { schema }, async (_request, reply) => {
    const checked = new SchemaCheck(Answer).stringify({ n: 2, name: 'y' });
    if ('error' in checked) throw new Error(checked.error);
    return sendValidatedJson(reply, checked.json);
  });
  app.get('/wrong-type', { schema }, async (_request, reply) => {
    const other: ValidatedJson<{ other: string }> = (() => {
      const c = new SchemaCheck(Type.Object({ other: Type.String() })).stringify({ other: 'z' });
      if ('error' in c) throw new Error(c.error);
      return c.json;
    })();
    // @ts-expect-error: a text checked against another schema is not an answer of this route
    return sendValidatedJson(reply, other);
  });
  // not JSON, or no schema for the status: not checked
  app.get('/csv', { schema }, async (_request, reply) =>
    reply.type('text/csv').send('n,name\n-1,x\n' as never),
  );
  app.get('/teapot', { schema }, async (_request, reply) =>
    reply.code(418 as never).send({ anything: true } as never),
  );
  app.get('/empty', { schema }, async (_request, reply) => reply.code(204 as never).send(undefined as never));
  return app;
}

describe('the response schema check', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await tinyApp();
  });
  afterAll(() => app.close());

  it('fails an object answer that Fastify serialises but does not match, naming route, status and path', async () => {
    const res = await app.inject({ method: 'GET', url: '/object' });
    expect(res.statusCode).toBe(500);
    const { message } = res.json<{ message: string }>();
    expect(message).toContain('response schema mismatch: GET /object answered 200');
    expect(message).toContain('/n');
  });

  it('fails pre-built JSON text that does not match (a 2xx and a 4xx)', async () => {
    const text = await app.inject({ method: 'GET', url: '/text' });
    expect(text.statusCode).toBe(500);
    expect(text.json<{ message: string }>().message).toMatch(/GET \/text answered 200 .* at \/name: /);
    const missing = await app.inject({ method: 'GET', url: '/missing' });
    expect(missing.statusCode).toBe(500);
    expect(missing.json<{ message: string }>().message).toMatch(
      /GET \/missing answered 404 .* at \/message: /,
    );
  });

  it('lets through matching answers, checked JSON text, non-JSON, undeclared statuses and empty bodies', async () => {
    const good = await app.inject({ method: 'GET', url: '/good' });
    expect([good.statusCode, good.json()]).toEqual([200, { n: 1, name: 'x' }]);
    const checked = await app.inject({ method: 'GET', url: '/checked' });
    expect([checked.statusCode, checked.json()]).toEqual([200, { n: 2, name: 'y' }]);
    expect(checked.headers['content-type']).toBe('application/json; charset=utf-8');
    const csv = await app.inject({ method: 'GET', url: '/csv' });
    expect([csv.statusCode, csv.body]).toEqual([200, 'n,name\n-1,x\n']);
    expect((await app.inject({ method: 'GET', url: '/teapot' })).statusCode).toBe(418);
    expect((await app.inject({ method: 'GET', url: '/empty' })).statusCode).toBe(204);
  });

  it('SchemaCheck.stringify refuses a value that does not match, naming the first failing path', () => {
    expect(new SchemaCheck(Answer).stringify({ n: 1.5, name: 'x' })).toEqual({
      error: expect.stringMatching(/^\/n: /) as unknown,
    });
    expect(new SchemaCheck(Answer).checkText('{"n":1}')).toEqual({
      error: expect.stringMatching(/^\/name: /) as unknown,
    });
  });
});

// PGlite only: the debug workers over the indexed demo sandbox (its indexing runs on both in indexer/test)
describeDb('debug and what-if answers pass their schemas', { backends: 'pglite' }, ({ db }) => {
  let env: IndexedSandbox;
  beforeAll(async () => {
    env = await openIndexedSandbox(db());
  }, 120_000);
  afterAll(() => env?.close());

  it('is on in the apps buildApi builds under Vitest, off with validateResponses: false', async () => {
    for (const validateResponses of [undefined, false]) {
      const app = await buildApi({ db: db(), networks: NETWORKS, rateLimit: false, validateResponses });
      app.get('/wrong', { schema: { response: { 200: Answer } } }, () => ({ n: -1, name: 'x' }));
      const res = await app.inject({ method: 'GET', url: '/wrong' });
      expect(res.statusCode).toBe(validateResponses === false ? 200 : 500);
      await app.close();
    }
  });

  it('a recording and a what-if bundle answer 200 through the check', async () => {
    const counter = env.contracts.counter!;
    const call = { name: 'increment', data: { increment: 5 } };
    const debug = await env.app.inject({
      method: 'POST',
      url: `/v1/contract/${NET}/${counter}/entrypoints/debug`,
      payload: call,
    });
    expect(debug.statusCode, debug.body.slice(0, 400)).toBe(200);
    expect(debug.json()).toMatchObject({ status: 'applied', inputs: { entrypoint: 'increment' } });
    const whatIf = await env.app.inject({
      method: 'POST',
      url: `/v1/contract/${NET}/${counter}/entrypoints/what_if`,
      payload: { calls: [call, call], overrides: { amount: '0' } },
    });
    expect(whatIf.statusCode, whatIf.body.slice(0, 400)).toBe(200);
    expect(whatIf.json()).toMatchObject({ status: 'applied', inputs: { overridden: ['amount'] } });
    // the check is on in every app the tests build (Vitest): a bad request's 400 passes it too
    const bad = await env.app.inject({
      method: 'POST',
      url: `/v1/contract/${NET}/${counter}/entrypoints/what_if`,
      payload: { calls: [call], overrides: { balance: 'lots' } },
    });
    expect(bad.statusCode).toBe(400);
  }, 60_000);
});
