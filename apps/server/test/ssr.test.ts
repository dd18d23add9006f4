/**
 * The server's rendering of pages (issue 18): apps/server/src/ssr.ts and its use by static-web, with a
 * renderer module standing for the web build's dist-ssr/entry-server.js (its API requests, slow and stuck
 * pages). The real renderer is exercised by e2e/server-render.e2e.ts.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerWeb, type WebOptions } from '../src/static-web';
import { splitForServerPage } from '../src/page-html';
import { ROUTE_PRELOAD_FILE, type RoutePreload } from '../src/route-preloads';

const RENDERER = `
export async function renderPage({ url, dark }) {
  const path = new URL(url).pathname;
  if (path === '/slow' || new URL(url).searchParams.has('slow')) return new Promise(() => {});
  if (path === '/stuck') for (;;) {}
  if (path === '/with-data') {
    const head = await (await fetch('/v1/head')).json();
    const data = { queries: [{ queryKey: ['head'], state: { status: 'success', data: { level: head.level, note: '</script><script>alert(1)</script> & \u2028' } } }] };
    return { html: '<p>level ' + head.level + '</p>', styles: '', data };
  }
  if (path === '/with-date') return { html: '<p>dated</p>', styles: '', data: { at: new Date(0) } };
  if (path === '/shared') {
    const counted = await (await fetch('/v1/counted')).json();
    return { html: '<p>counted ' + counted.n + '</p>', styles: '' };
  }
  if (path === '/outside') {
    const res = await fetch('/assets/app.js');
    return { html: '<p>asset ' + res.status + '</p>', styles: '' };
  }
  const head = await (await fetch('/v1/head')).json();
  return {
    html: '<p>level ' + head.level + ' dark=' + dark + ' at ' + path + '</p>',
    styles: '<style data-emotion="css a">.a{color:red}</style>',
  };
}
`;

const servers: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function product(serverRender: WebOptions['serverRender'] = { budgetMs: 3_000 }) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ms-ssr-'));
  mkdirSync(path.join(root, 'dist'));
  mkdirSync(path.join(root, 'dist-ssr'));
  mkdirSync(path.join(root, 'dist', '.vite'));
  const routes: RoutePreload[] = [
    { path: '/:network/:address/operations', files: [], rendered: true },
    { path: '/:network/:address/interact/:entrypoint?', files: [], rendered: false },
  ];
  writeFileSync(path.join(root, 'dist', ROUTE_PRELOAD_FILE), JSON.stringify({ routes }));
  writeFileSync(
    path.join(root, 'dist', 'index.html'),
    '<!doctype html><html><head><title>Michelscope</title></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(root, 'package.json'), '{"type":"module"}');
  writeFileSync(path.join(root, 'dist-ssr', 'entry-server.js'), RENDERER);
  const server = Fastify();
  servers.push(server);
  let level = 41;
  server.get('/v1/head', async () => ({ level: ++level }));
  server.get('/v1/config', async () => ({ networks: ['mainnet'], sandbox_mode: false }));
  let counted = 0;
  server.get('/v1/counted', async () => {
    counted += 1;
    await new Promise((r) => setTimeout(r, 300));
    return { n: counted };
  });
  await registerWeb(server, {
    distDir: path.join(root, 'dist'),
    serverRender,
    bootConfig: async () => (await server.inject({ url: '/v1/config' })).json(),
    // the web's route requests, as its build writes them to dist-ssr/route-fetches.js
    routeFetches: await import('../../web/src/app/router/route-fetches'),
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  return server;
}

const page = (server: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  server.inject({ url, headers: { accept: 'text/html', ...headers } });

/** The first pages may come before the worker has loaded its renderer: wait for a rendered one. */
async function firstRendered(server: FastifyInstance, url: string) {
  for (let i = 0; i < 100; i++) {
    const res = await page(server, url);
    if (res.body.includes('id="ms-ssr"')) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} was never rendered on the server`);
}

describe("the server's rendering of pages", () => {
  it('puts the page, with the data its API requests read, inert before the app root, its styles first', async () => {
    const server = await product();
    const res = await firstRendered(server, '/mainnet/KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn/operations');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toMatch(
      /<title>Michelscope<\/title>.*<\/head><body><style data-emotion="css a">\.a\{color:red\}<\/style><div id="ms-ssr" inert><p>level \d+ dark=true at \/mainnet\/KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn\/operations<\/p><\/div><div id="root"><\/div><\/body>/s,
    );
    // the level came from this server's API, asked by the renderer (each answer is one higher)
    const level = Number(/level (\d+)/.exec(res.body)![1]);
    expect(level).toBeGreaterThan(41);
  });

  it("renders in the reader's theme: the ms_dark cookie at 0 is light", async () => {
    const server = await product();
    await firstRendered(server, '/');
    expect((await page(server, '/', { cookie: 'a=b; ms_dark=0' })).body).toContain('dark=false');
    expect((await page(server, '/', { cookie: 'ms_dark=1' })).body).toContain('dark=true');
  });

  it('lets the renderer read the API only', async () => {
    const server = await product();
    await firstRendered(server, '/');
    expect((await page(server, '/outside')).body).toContain('<p>asset 403</p>');
  });

  it('sends the plain page when the rendering takes longer than its budget', async () => {
    const server = await product({ budgetMs: 400 });
    await firstRendered(server, '/');
    const started = Date.now();
    const res = await page(server, '/slow');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('ms-ssr');
    expect(res.body).toContain('<div id="root"></div>');
  });

  it("announces a page's API requests after all when its rendering brought back nothing within the budget", async () => {
    const server = await product({ budgetMs: 400 });
    await firstRendered(server, '/');
    const kt = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
    const res = await page(server, `/mainnet/${kt}/operations?slow=1`);
    const [head, tail] = res.body.split('<body>');
    // none in the head (the rendering was to carry them), in the body once it is known that it does not
    expect(head).not.toContain('as="fetch"');
    expect(tail).toContain(
      `<link rel="preload" as="fetch" crossorigin href="/v1/contract/mainnet/${kt}/opg?size=10">`,
    );
    expect(tail).not.toContain('ms-ssr');
  });

  it('replaces a renderer stuck in a loop, and renders the next pages', async () => {
    const server = await product({ budgetMs: 300, hardLimitMs: 600 });
    await firstRendered(server, '/');
    const stuck = await page(server, '/stuck');
    expect(stuck.body).not.toContain('ms-ssr');
    // the API kept answering while the renderer was stuck (it runs in its own thread)
    expect((await server.inject({ url: '/v1/head' })).statusCode).toBe(200);
    const next = await firstRendered(server, '/mainnet');
    expect(next.body).toContain('at /mainnet</p>');
  });

  it('renders neither non-HTML requests nor when turned off', async () => {
    const server = await product();
    await firstRendered(server, '/');
    expect((await server.inject({ url: '/favicon.ico' })).body).not.toContain('ms-ssr');
    const off = await product(false);
    await new Promise((r) => setTimeout(r, 300));
    expect((await page(off, '/')).body).not.toContain('ms-ssr');
  });

  it('carries the answers the page was made from, escaped so that no string ends their element', async () => {
    const server = await product();
    await firstRendered(server, '/');
    const res = await page(server, '/with-data');
    const block = /<script type="application\/json" id="ms-ssr-data">(.*?)<\/script>/s.exec(res.body);
    expect(block).not.toBeNull();
    expect(block![1]).not.toMatch(/[<>&\u2028]/);
    const level = Number(/<p>level (\d+)<\/p>/.exec(res.body)![1]);
    // the app reads back what the renderer had: the same level and the hostile note unchanged
    expect(JSON.parse(block![1]!)).toEqual({
      queries: [
        {
          queryKey: ['head'],
          state: { status: 'success', data: { level, note: '</script><script>alert(1)</script> & \u2028' } },
        },
      ],
    });
    expect(res.body.indexOf('ms-ssr-data')).toBeLessThan(res.body.indexOf('<div id="root">'));
    // data that JSON would not give back unchanged (a Date) is left out: the app asks the API itself
    const dated = await page(server, '/with-date');
    expect(dated.body).toContain('<p>dated</p>');
    expect(dated.body).not.toContain('ms-ssr-data');
  });

  it("does not announce a rendered page's API requests, only those of the pages it leaves to the app", async () => {
    const server = await product();
    await firstRendered(server, '/');
    const kt = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
    const fetches = (html: string) => [...html.matchAll(/<link rel="preload" as="fetch"[^>]*>/g)].length;
    const ops = await page(server, `/mainnet/${kt}/operations`);
    expect(ops.body).toContain('id="ms-ssr"');
    expect(fetches(ops.body)).toBe(0);
    // the interact form is the app's (never rendered by the web's renderer): its data is announced
    expect(fetches((await page(server, `/mainnet/${kt}/interact`)).body)).toBeGreaterThan(0);
  });

  it('answers one API request for pages rendered at once that need the same answer', async () => {
    const server = await product();
    await firstRendered(server, '/');
    const [a, b] = await Promise.all([page(server, '/shared'), page(server, '/shared')]);
    expect(a.body).toContain('<p>counted 1</p>');
    expect(b.body).toContain('<p>counted 1</p>');
    // a later page asks again
    expect((await page(server, '/shared')).body).toContain('<p>counted 2</p>');
  });

  it('splits the page around the app root', () => {
    const [head, tail] = splitForServerPage('<head></head><body><div id="root"></div></body>');
    expect(head).toBe('<head></head><body>');
    expect(tail(null)).toBe('<div id="root"></div></body>');
    expect(tail({ html: '<b>x</b>', styles: '<style>s</style>' })).toBe(
      '<style>s</style><div id="ms-ssr" inert><b>x</b></div><div id="root"></div></body>',
    );
    // past the budget: the answers that came, no markup; nothing came: the route's requests announced
    expect(tail({ html: '', styles: '<style>s</style>', data: '{"a":1}' })).toBe(
      '<script type="application/json" id="ms-ssr-data">{"a":1}</script><div id="root"></div></body>',
    );
    expect(tail(null, ['/v1/head'])).toBe(
      '<link rel="preload" as="fetch" crossorigin href="/v1/head"><div id="root"></div></body>',
    );
    expect(tail({ html: '<b>x</b>', styles: '', data: '{"a":1}' })).toBe(
      '<div id="ms-ssr" inert><b>x</b></div><script type="application/json" id="ms-ssr-data">{"a":1}</script><div id="root"></div></body>',
    );
  });
});
