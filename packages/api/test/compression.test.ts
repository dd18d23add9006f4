import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describeDb } from '@michelscope/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD } from '../src/index';
import { makeApi } from './helpers';

// PGlite only: HTTP compression; the database is only a fixture.
describeDb('compressed API answers', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance | undefined;
  const api = async () => (app ??= await makeApi(db(), { rateLimit: false }));
  afterAll(() => app?.close());

  it('sends a large JSON answer with brotli or gzip as the client accepts, the same JSON once decoded', async () => {
    const plain = await (await api()).inject('/v1/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD);
    const document = plain.json<{ openapi: string }>();
    expect(document.openapi).toBe('3.0.3');

    const br = await (
      await api()
    ).inject({
      url: '/v1/openapi.json',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(document);

    const gzip = await (
      await api()
    ).inject({
      url: '/v1/openapi.json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(document);
  });

  it('leaves an answer under the threshold as it is', async () => {
    const res = await (await api()).inject({ url: '/v1/config', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json<{ networks: string[] }>().networks.length).toBeGreaterThan(0);
  });
});
