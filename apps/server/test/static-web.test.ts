import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerWeb } from '../src/static-web';

async function app(built: boolean, dist = mkdtempSync(path.join(os.tmpdir(), 'ms-dist-'))) {
  if (built) {
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Michelscope</title>');
    writeFileSync(path.join(dist, 'app.js'), 'console.log(1)');
  }
  const server = Fastify();
  await registerWeb(server, dist);
  return server;
}

describe('serving the web app', () => {
  it('answers deep links, including the /search page, with index.html', async () => {
    const server = await app(true);
    for (const url of [
      '/',
      '/search?text=abc',
      '/mainnet/KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn/storage',
      '/not_found',
    ]) {
      const res = await server.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<title>Michelscope</title>');
    }
    expect((await server.inject({ url: '/app.js' })).body).toBe('console.log(1)');
  });

  it('keeps JSON 404 bodies on the API bases', async () => {
    const server = await app(true);
    for (const url of ['/v1/nope', '/v1', '/rpc/x/y', '/search/v1/suggest', '/stats/v1/summary/x/y']) {
      const res = await server.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: 'not found' });
    }
    expect((await server.inject({ method: 'POST', url: '/anything' })).statusCode).toBe(404);
  });

  it('says how to build the app when it is missing', async () => {
    const res = await (await app(false)).inject({ url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build:web');
  });

  it('serves an asset built after start, and a missing asset is a 404, not the page', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'ms-dist-'));
    const server = await app(true, dist);
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'index-new.js'), 'console.log(2)');
    const fresh = await server.inject({ url: '/assets/index-new.js' });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.body).toBe('console.log(2)');
    expect(fresh.headers['content-type']).toContain('javascript');
    const missing = await server.inject({ url: '/assets/index-gone.js', headers: { accept: '*/*' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<title>');
    expect((await server.inject({ url: '/assets/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
  });
});
