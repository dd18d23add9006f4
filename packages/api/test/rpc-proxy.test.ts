import http from 'node:http';
import { openDatabase, type DbHandle } from '@michelscope/db';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi, type ApiNetwork } from '../src/index';

interface Seen {
  method: string;
  url: string;
  body: string;
  contentType: string | undefined;
}

async function listenOnce(app: FastifyInstance): Promise<number> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return address.port;
}

function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A real node stand-in on 127.0.0.1:0 that records what reaches it. */
async function startUpstream(seen: Seen[]): Promise<FastifyInstance> {
  // The timed-out request is still being answered when the suite ends: close its socket too.
  const node = Fastify({ forceCloseConnections: true });
  node.removeAllContentTypeParsers();
  node.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  node.route({
    method: ['GET', 'POST'],
    url: '/*',
    handler: async (request, reply) => {
      seen.push({
        method: request.method,
        url: request.url,
        body: typeof request.body === 'string' ? request.body : '',
        contentType: request.headers['content-type'],
      });
      if (request.url.startsWith('/node/slow')) {
        await new Promise((r) => setTimeout(r, 6_000));
        return { late: true };
      }
      if (request.url.startsWith('/node/missing'))
        return reply.code(404).type('text/plain').send('Not found');
      if (request.url.startsWith('/node/broken'))
        return reply.code(500).send([{ kind: 'temporary', id: 'failure' }]);
      if (request.url.startsWith('/node/large'))
        return reply.type('application/json').send(JSON.stringify({ code: 'x'.repeat(5000) }));
      if (request.url.startsWith('/node/chains/main/chain_id'))
        return reply.type('application/json').send('"NetXdQprcVkpaWU"\n');
      return { echoed: request.url };
    },
  });
  await node.listen({ port: 0, host: '127.0.0.1' });
  return node;
}

describe('node RPC pass-through /rpc/{network}/*', () => {
  const seen: Seen[] = [];
  let upstream: FastifyInstance;
  let app: FastifyInstance;
  let handle: DbHandle;

  beforeAll(async () => {
    upstream = await startUpstream(seen);
    const address = upstream.server.address();
    if (!address || typeof address === 'string') throw new Error('no upstream port');
    const networks: ApiNetwork[] = [
      {
        name: 'mainnet',
        rpcUrl: `http://127.0.0.1:${address.port}/node/`,
        publicRpcUrl: 'https://x',
        statsEnabled: false,
      },
      // Port 9 (discard) on loopback is not listening here: the connection is refused.
      { name: 'ghostnet', rpcUrl: 'http://127.0.0.1:9', publicRpcUrl: 'https://y', statsEnabled: false },
    ];
    handle = await openDatabase();
    app = await buildApi({ db: handle.db, networks, rpcTimeoutMs: 1_500 });
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
    await handle.close();
  });

  it('forwards a GET with its path and query and returns the node answer as is', async () => {
    const res = await app.inject('/rpc/mainnet/chains/main/blocks/head~2/header?foo=1&bar=%20x');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ echoed: '/node/chains/main/blocks/head~2/header?foo=1&bar=%20x' });
    expect(seen.at(-1)).toMatchObject({
      method: 'GET',
      url: '/node/chains/main/blocks/head~2/header?foo=1&bar=%20x',
    });
  });

  it('keeps the node body byte for byte with its content type', async () => {
    const res = await app.inject('/rpc/mainnet/chains/main/chain_id');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toBe('"NetXdQprcVkpaWU"\n');
  });

  it('relays a large node answer uncompressed, even to a client that accepts brotli', async () => {
    const res = await app.inject({ url: '/rpc/mainnet/large', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ code: 'x'.repeat(5000) });
  });

  it('forwards a POST body and content type unchanged', async () => {
    const payload = '{"operation":{"branch":"BLx","contents":[]},"chain_id":"NetXdQprcVkpaWU"}';
    const res = await app.inject({
      method: 'POST',
      url: '/rpc/mainnet/chains/main/blocks/head/helpers/scripts/run_operation',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(200);
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      url: '/node/chains/main/blocks/head/helpers/scripts/run_operation',
      body: payload,
      contentType: 'application/json',
    });
  });

  it('forwards a body that is not valid JSON without judging it', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/rpc/mainnet/injection/operation',
      headers: { 'content-type': 'application/json' },
      payload: '"6c00ab',
    });
    expect(res.statusCode).toBe(200);
    expect(seen.at(-1)?.body).toBe('"6c00ab');
  });

  it('forwards a POST without a content type, and refuses an oversized body with 413 {"message"}', async () => {
    const plain = await app.inject({
      method: 'POST',
      url: '/rpc/mainnet/injection/operation',
      payload: Buffer.from('"00"'),
    });
    expect(plain.statusCode).toBe(200);
    expect(seen.at(-1)?.body).toBe('"00"');
    const before = seen.length;
    const huge = await app.inject({
      method: 'POST',
      url: '/rpc/mainnet/injection/operation',
      headers: { 'content-type': 'application/json' },
      payload: `"${'0'.repeat(5 * 1024 * 1024)}"`,
    });
    expect(huge.statusCode).toBe(413);
    expect(Object.keys(huge.json())).toEqual(['message']);
    expect(seen.length).toBe(before);
  });

  it("passes the node's error statuses and bodies through", async () => {
    const missing = await app.inject('/rpc/mainnet/missing/thing');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('Not found');
    const broken = await app.inject('/rpc/mainnet/broken');
    expect(broken.statusCode).toBe(500);
    expect(broken.json()).toEqual([{ kind: 'temporary', id: 'failure' }]);
  });

  it('answers 404 with the spec text for a network without an RPC endpoint', async () => {
    const res = await app.inject('/rpc/oxfordnet/chains/main/blocks/head');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: "Don't have an RPC endpoint for the oxfordnet" });
  });

  it('answers 502 {"message"} when the node is unreachable', async () => {
    const res = await app.inject('/rpc/ghostnet/chains/main/blocks/head');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      message: 'the RPC node of ghostnet is unreachable',
      request_id: res.headers['x-request-id'],
    });
  });

  it('answers 504 "request timed out" when the node is slower than the timeout', async () => {
    const started = Date.now();
    const res = await app.inject('/rpc/mainnet/slow');
    expect(res.statusCode).toBe(504);
    expect(res.json()).toEqual({ message: 'request timed out', request_id: res.headers['x-request-id'] });
    // Cut by the timeout, well before the node would have answered.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses paths that would climb out of the node base URL', async () => {
    const before = seen.length;
    for (const url of ['/rpc/mainnet/a%2Fb', '/rpc/mainnet/%zz']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(400);
      expect(Object.keys(res.json()), url).toEqual(['message']);
    }
    // inject() normalises `..` like a browser would; a raw HTTP client sends it as is.
    const port = await listenOnce(app);
    for (const path of ['/rpc/mainnet/chains/../../admin', '/rpc/mainnet/chains/%2e%2e/%2E%2E/x']) {
      const raw = await rawGet(port, path);
      expect(raw.status, path).toBe(400);
      expect(JSON.parse(raw.body), path).toEqual({ message: 'invalid RPC path' });
    }
    expect(seen.length).toBe(before);
  });

  it('stops a request that this server forwarded to itself instead of looping', async () => {
    const res = await app.inject({
      url: '/rpc/mainnet/chains/main/chain_id',
      headers: { 'x-michelscope-rpc-hop': '1' },
    });
    expect(res.statusCode).toBe(508);
    expect(res.json()).toHaveProperty('message');
  });
});
