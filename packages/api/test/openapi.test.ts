import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeDb } from '@michelscope/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeApi } from './helpers';

const COMMITTED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/openapi.json');

interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, { required?: string[] }> };
}

// PGlite only: a served document, no query that differs.
describeDb('GET /v1/openapi.json', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApi(db());
  });
  afterAll(() => app.close());

  it('serves the committed document (run `npm run openapi` after changing a route schema)', async () => {
    const res = await app.inject('/v1/openapi.json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual(JSON.parse(readFileSync(COMMITTED, 'utf8')));
  });

  it('documents every v1 route with its success and error answers', async () => {
    const doc = (await app.inject('/v1/openapi.json')).json<OpenApiDoc>();
    expect(doc.openapi).toMatch(/^3\./);
    // every route of the reference's route table (bcd-api §2) that is served so far
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/config',
        '/v1/head',
        '/v1/head/{network}',
        '/v1/stats',
        '/v1/opg/{network}/{hash}',
        '/v1/opg/{network}/{hash}/{counter}',
        '/v1/implicit/{network}/{counter}',
        '/v1/operation/{network}/{id}/error_location',
        '/v1/operation/{network}/{id}/diff',
        '/v1/operation/{network}/{id}/ticket_updates',
        '/v1/stats/{network}/recently_called_contracts',
        '/v1/stats/{network}/contracts_count',
        '/v1/helpers/contracts/{network}',
        '/v1/bigmap/{network}/{ptr}',
        '/v1/bigmap/{network}/{ptr}/count',
        '/v1/bigmap/{network}/{ptr}/history',
        '/v1/bigmap/{network}/{ptr}/keys',
        '/v1/bigmap/{network}/{ptr}/keys/{key_hash}',
        '/v1/bigmap/{network}/{ptr}/keys/{key_hash}/state',
        '/v1/contract/{network}/{address}',
        '/v1/contract/{network}/{address}/code',
        '/v1/contract/{network}/{address}/opg',
        '/v1/contract/{network}/{address}/migrations',
        '/v1/contract/{network}/{address}/global_constants',
        '/v1/contract/{network}/{address}/ticket_updates',
        '/v1/contract/{network}/{address}/tickets',
        '/v1/contract/{network}/{address}/events',
        '/v1/contract/{network}/{address}/storage',
        '/v1/contract/{network}/{address}/storage/raw',
        '/v1/contract/{network}/{address}/storage/rich',
        '/v1/contract/{network}/{address}/storage/schema',
        '/v1/contract/{network}/{address}/same',
        '/v1/contract/{network}/{address}/entrypoints',
        '/v1/contract/{network}/{address}/entrypoints/schema',
        '/v1/contract/{network}/{address}/views/schema',
        '/v1/account/{network}/{address}',
        '/v1/account/{network}/{address}/ticket_balances',
        '/v1/global_constants/{network}',
        '/v1/global_constants/{network}/{address}',
        '/v1/global_constants/{network}/{address}/contracts',
        '/v1/smart_rollups/{network}',
        '/v1/smart_rollups/{network}/{address}',
      ]),
    );
    expect(Object.keys(doc.paths['/v1/head/{network}']?.get?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400']),
    );
  });

  it('describes the shared shapes once, as components with the reference fields', async () => {
    const doc = (await app.inject('/v1/openapi.json')).json<OpenApiDoc>();
    const { schemas } = doc.components;
    expect(schemas.Head?.required?.sort()).toEqual(['level', 'network', 'protocol', 'synced', 'time']);
    expect(schemas.ErrorBody?.required).toEqual(['message']);
    expect(schemas.Block?.required).toEqual(
      expect.arrayContaining([
        'hash',
        'level',
        'predecessor',
        'chain_id',
        'timestamp',
        'protocol',
        'cost_per_byte',
      ]),
    );
    expect(JSON.stringify(doc.paths['/v1/head'])).toContain('#/components/schemas/Head');
  });
});
