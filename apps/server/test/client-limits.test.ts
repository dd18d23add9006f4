/**
 * Rate limits that know who the client is (issue 34, item 4), on the server as composed by `buildRoot`:
 * `trust_proxy` (the visitor behind a listed proxy, X-Forwarded-For ignored otherwise), page requests with a
 * budget of their own charged to the visitor, the renderer's own API requests charged to nobody (and an
 * exemption nobody outside can claim). And every answer names its request; a 5xx is logged (item 6).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeDb } from '@michelscope/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, expect, it, vi } from 'vitest';
import { buildRoot } from '../src/commands';
import { loadConfig } from '../src/config';
import { ROUTE_PRELOAD_FILE } from '../src/route-preloads';

/** A page asks the API 7 times, as a contract page of the web's renderer does. */
const RENDERER = `
export async function renderPage({ url }) {
  let n = 0;
  for (let i = 0; i < 6; i++) if ((await fetch('/v1/config')).ok) n++;
  const head = await fetch('/v1/head');
  if (head.ok) n++;
  return { html: '<p>answers ' + n + ' at ' + new URL(url).pathname + '</p>', styles: '' };
}
`;

function webBuild(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ms-limits-'));
  for (const dir of ['dist', 'dist-ssr', 'dist/.vite']) mkdirSync(path.join(root, dir));
  writeFileSync(path.join(root, 'dist', ROUTE_PRELOAD_FILE), JSON.stringify({ routes: [] }));
  writeFileSync(
    path.join(root, 'dist', 'index.html'),
    '<!doctype html><html><head><title>Michelscope</title></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(root, 'dist', 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(root, 'package.json'), '{"type":"module"}');
  writeFileSync(path.join(root, 'dist-ssr', 'entry-server.js'), RENDERER);
  return path.join(root, 'dist');
}

function configWith(file: Record<string, unknown>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ms-limits-config-'));
  writeFileSync(path.join(dir, 'michelscope.config.json'), JSON.stringify(file));
  return loadConfig({ PORT: '0', HOST: '127.0.0.1' }, dir);
}

/** A proxy on this machine: what every test request comes from unless it says otherwise. */
const PROXY = '127.0.0.1';

describeDb('client-aware rate limits', { backends: 'pglite' }, ({ db }) => {
  const servers: FastifyInstance[] = [];
  afterAll(() => Promise.all(servers.splice(0).map((s) => s.close())));
  afterEach(() => vi.restoreAllMocks());

  async function server(file: Record<string, unknown>, render = true) {
    const handle = { db: db(), listen: async () => async () => {} };
    const app = await buildRoot(configWith(file), handle, {
      web: { distDir: webBuild(), serverRender: render ? { budgetMs: 5_000 } : false },
    });
    servers.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app;
  }

  const from = (app: FastifyInstance, url: string, forwardedFor?: string, remoteAddress = PROXY) =>
    app.inject({
      url,
      remoteAddress,
      headers: {
        accept: url.startsWith('/v1/') ? 'application/json' : 'text/html',
        ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      },
    });

  /** Renders a first page (the renderer loads meanwhile), each try as another visitor. */
  async function warm(app: FastifyInstance) {
    for (let i = 1; i < 200; i++) {
      const res = await from(app, '/', `198.18.0.${i}`);
      if (res.body.includes('id="ms-ssr"')) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('never rendered');
  }

  it('without trust_proxy, X-Forwarded-For is ignored: the peer is the client', async () => {
    const app = await server({ rate_limit: { max: 3, time_window_ms: 60_000 } }, false);
    const peer = '192.0.2.10';
    for (const visitor of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
      expect((await from(app, '/v1/config', visitor, peer)).statusCode).toBe(200);
    expect((await from(app, '/v1/config', '203.0.113.4', peer)).statusCode).toBe(429);
  });

  it('with trust_proxy, visitors behind a listed proxy have budgets of their own; others cannot pose as one', async () => {
    const app = await server(
      { trust_proxy: [PROXY, '10.1.0.0/16'], rate_limit: { max: 2, time_window_ms: 60_000 } },
      false,
    );
    for (let i = 0; i < 2; i++) expect((await from(app, '/v1/config', '203.0.113.1')).statusCode).toBe(200);
    expect((await from(app, '/v1/config', '203.0.113.1')).statusCode).toBe(429);
    // another visitor behind the same proxy, and one behind a proxy of the listed range
    expect((await from(app, '/v1/config', '203.0.113.2')).statusCode).toBe(200);
    expect((await from(app, '/v1/config', '203.0.113.1', '10.1.2.3')).statusCode).toBe(429);
    expect((await from(app, '/v1/config', '203.0.113.3', '10.1.2.3')).statusCode).toBe(200);
    // a client that is not a listed proxy: its own X-Forwarded-For is not believed
    const direct = '192.0.2.20';
    expect((await from(app, '/v1/config', '203.0.113.5', direct)).statusCode).toBe(200);
    expect((await from(app, '/v1/config', '203.0.113.6', direct)).statusCode).toBe(200);
    expect((await from(app, '/v1/config', '203.0.113.7', direct)).statusCode).toBe(429);
    // a proxy chain: the visitor is the first address no listed proxy added
    expect((await from(app, '/v1/config', '203.0.113.8, 10.1.9.9')).statusCode).toBe(200);
    expect((await from(app, '/v1/config', '203.0.113.8, 10.1.9.9')).statusCode).toBe(200);
    expect((await from(app, '/v1/config', '203.0.113.8')).statusCode).toBe(429);
  });

  it("charges a page to its visitor (one page token) and the renderer's API requests to nobody", async () => {
    const app = await server({
      trust_proxy: [PROXY],
      rate_limit: { max: 5, time_window_ms: 60_000, pages: 3 },
    });
    await warm(app);
    const visitor = '203.0.113.40';
    const first = await from(app, '/mainnet', visitor);
    expect(first.statusCode).toBe(200);
    // the page was rendered with its 7 answers: none was refused
    expect(first.body).toContain('<p>answers 7 at /mainnet</p>');
    expect(first.headers['x-ratelimit-limit']).toBe('3');
    expect(first.headers['x-ratelimit-remaining']).toBe('2');
    // neither the visitor's API budget nor the proxy's own address paid for those 7 answers
    expect((await from(app, '/v1/config', visitor)).headers['x-ratelimit-remaining']).toBe('4');
    expect((await from(app, '/v1/config')).headers['x-ratelimit-remaining']).toBe('4');
    // another page, then the budget is spent: 429 with Retry-After; another visitor still gets pages
    expect((await from(app, '/mainnet/x', visitor)).body).toContain('<p>answers 7 at /mainnet/x</p>');
    expect((await from(app, '/', visitor)).statusCode).toBe(200);
    const over = await from(app, '/mainnet', visitor);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['content-type']).toMatch(/^text\/html/);
    expect(over.body).not.toContain('ms-ssr');
    expect((await from(app, '/mainnet', '203.0.113.41')).body).toContain('<p>answers 7');
    // files are not pages: not counted
    expect((await from(app, '/favicon.svg', visitor)).statusCode).toBe(200);
    expect((await from(app, '/assets/missing.js', visitor)).statusCode).toBe(404);
  });

  it('does not let a client claim the exemption of the renderer’s own requests', async () => {
    const app = await server({ rate_limit: { max: 2, time_window_ms: 60_000 } }, false);
    const guesses = ['1', 'true', 'internal', 'ssr', ''];
    const claim = (value: string) =>
      app.inject({
        url: '/v1/config',
        remoteAddress: '192.0.2.30',
        headers: {
          'x-michelscope-internal': value,
          'x-internal': value,
          'x-ssr': value,
          'x-renderer': value,
        },
      });
    expect((await claim(guesses[0]!)).statusCode).toBe(200);
    expect((await claim(guesses[1]!)).statusCode).toBe(200);
    for (const value of guesses) expect((await claim(value)).statusCode).toBe(429);
  });

  it('names every answer with x-request-id, and logs each 5xx on one stderr line with it and its cause', async () => {
    const app = await server({}, false);
    const ids = new Set<string>();
    for (const url of ['/v1/config', '/v1/nothing', '/mainnet', '/v1/head/%zz']) {
      const res = await app.inject({ url, headers: { accept: 'text/html' } });
      const id = res.headers['x-request-id'];
      expect(typeof id, url).toBe('string');
      expect(id as string, url).toMatch(/^[\w-]{8,64}$/);
      ids.add(id as string);
    }
    expect(ids.size).toBe(4);
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      lines.push(`${args.map(String).join(' ')}\n`);
    });
    // every query fails: a schema that does not exist
    const broken = await buildRoot(
      configWith({}),
      {
        db: db().withSchema('no_such_schema'),
        listen: async () => async () => {},
      },
      { web: { distDir: webBuild(), serverRender: false } },
    );
    servers.push(broken);
    const res = await broken.inject('/v1/head');
    vi.restoreAllMocks();
    expect(res.statusCode).toBe(500);
    const id = res.headers['x-request-id'] as string;
    expect(res.json()).toEqual({ message: 'internal server error', request_id: id });
    const logged = lines.filter((l) => l.includes(id));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/ 500 GET \/v1\/head /);
    expect(logged[0]).toContain('no_such_schema');
    expect(logged[0]!.trimEnd()).not.toContain('\n');
  });
});
