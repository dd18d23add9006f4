import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { registerWeb, type WebOptions } from '../src/static-web';
import { BOOT_CONFIG_ID } from '../src/page-html';
import { ROUTE_PRELOAD_FILE, matchRoute, type RoutePreload } from '../src/route-preloads';
import type { WebRouteFetches } from '../src/fetch-preloads';

async function app(
  built: boolean,
  dist = mkdtempSync(path.join(os.tmpdir(), 'ms-dist-')),
  extra: Omit<WebOptions, 'distDir'> = {},
) {
  if (built) {
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><title>Michelscope</title></head><body></body></html>',
    );
    writeFileSync(path.join(dist, 'app.js'), 'console.log(1)');
  }
  const server = Fastify();
  await registerWeb(server, { distDir: dist, ...extra });
  return server;
}

/** A hashed asset as the build writes it: the file and its brotli and gzip forms. */
function writeAsset(dist: string, name: string, text: string) {
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'assets', name), text);
  writeFileSync(path.join(dist, 'assets', `${name}.br`), brotliCompressSync(text));
  writeFileSync(path.join(dist, 'assets', `${name}.gz`), gzipSync(text));
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

  it('sends the precompressed form the browser accepts, hashed assets immutable for a year', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'ms-dist-'));
    const code = `export const x = "${'a'.repeat(4000)}";`;
    writeAsset(dist, 'index-Ab12.js', code);
    const server = await app(true, dist);
    const br = await server.inject({
      url: '/assets/index-Ab12.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(code);
    const gz = await server.inject({ url: '/assets/index-Ab12.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(code);
    const plain = await server.inject({ url: '/assets/index-Ab12.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(code);
    // An asset built after start takes the same path.
    writeAsset(dist, 'late-Cd34.js', code);
    const late = await server.inject({ url: '/assets/late-Cd34.js', headers: { 'accept-encoding': 'br' } });
    expect(late.headers['content-encoding']).toBe('br');
    expect(late.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the page no-cache, compressed, with /v1/config inlined as an inert JSON block', async () => {
    const config = { networks: ['mainnet'], explorer: '</script><script>alert(1)</script>&\u2028' };
    const server = await app(true, undefined, { bootConfig: () => Promise.resolve(config) });
    for (const url of ['/', '/mainnet/KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn/storage']) {
      const res = await server.inject({ url, headers: { accept: 'text/html', 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      const html = brotliDecompressSync(res.rawPayload).toString();
      const block = new RegExp(`<script type="application/json" id="${BOOT_CONFIG_ID}">([^<]*)</script>`);
      const inlined = block.exec(html)?.[1];
      expect(inlined, url).toBeDefined();
      expect(JSON.parse(inlined!), url).toEqual(config);
      expect(html.match(/<script/g)).toHaveLength(1); // the value did not open an element of its own
      expect(html.indexOf(BOOT_CONFIG_ID)).toBeLessThan(html.indexOf('</head>'));
    }
    const unsupported = await server.inject({ url: '/', headers: { 'accept-encoding': 'zstd' } });
    expect(unsupported.headers['content-encoding']).toBeUndefined();
    expect(unsupported.body).toContain(BOOT_CONFIG_ID);
    // An unhashed file beside the page (favicon, app.js here) is revalidated too.
    expect((await server.inject({ url: '/app.js' })).headers['cache-control']).toBe('no-cache');
  });

  it('still serves the page when the configuration cannot be read (the app then asks for it)', async () => {
    const server = await app(true, undefined, { bootConfig: () => Promise.reject(new Error('db down')) });
    const res = await server.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Michelscope</title>');
    expect(res.body).not.toContain(BOOT_CONFIG_ID);
  });

  it('announces the chunks of the route a URL opens as modulepreloads in index.html', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'ms-dist-'));
    mkdirSync(path.join(dist, '.vite'));
    const routes: RoutePreload[] = [
      { path: '/', files: ['assets/home-1.js'] },
      { path: '/:network/:address/operations', files: ['assets/contract-2.js', 'assets/ops-3.js'] },
      // not a chunk name: never written into the page
      { path: '/:network/:address/code', files: ['assets/x.js"><script>alert(1)</script>'] },
    ];
    writeFileSync(path.join(dist, ROUTE_PRELOAD_FILE), JSON.stringify({ routes }));
    const server = await app(true, dist);
    const page = async (url: string) => (await server.inject({ url, headers: { accept: 'text/html' } })).body;
    const preloads = (html: string) =>
      [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) =>
        // the attribute's value as the browser reads it
        m[1]!.replaceAll('&amp;', '&'),
      );

    const ops = await page('/mainnet/KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn/operations?entrypoints=mint');
    expect(preloads(ops)).toEqual(['/assets/contract-2.js', '/assets/ops-3.js']);
    expect(ops.indexOf('modulepreload')).toBeLessThan(ops.indexOf('</head>'));
    expect(preloads(await page('/'))).toEqual(['/assets/home-1.js']);
    expect(preloads(await page('/mainnet/KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn/code'))).toEqual([]);
    expect(preloads(await page('/no/such/route/here'))).toEqual([]);
  });

  it("announces the route's API requests as fetch preloads, for the configured networks only", async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'ms-dist-'));
    mkdirSync(path.join(dist, '.vite'));
    const routes: RoutePreload[] = [
      { path: '/', files: [] },
      { path: '/:network/:address/operations', files: ['assets/contract-2.js'] },
      { path: '/:network/:address/code', files: ['assets/contract-2.js'] },
      { path: '/search', files: [] },
    ];
    writeFileSync(path.join(dist, ROUTE_PRELOAD_FILE), JSON.stringify({ routes }));
    // the web's module, as its build writes it to dist-ssr/route-fetches.js (typed as the server reads it)
    const web: WebRouteFetches = await import('../../web/src/app/router/route-fetches');
    const server = await app(true, dist, {
      bootConfig: () => Promise.resolve({ networks: ['mainnet'] }),
      routeFetches: web,
    });
    const page = async (url: string) =>
      brotliDecompressSync(
        (await server.inject({ url, headers: { accept: 'text/html', 'accept-encoding': 'br' } })).rawPayload,
      ).toString();
    const fetches = (html: string) =>
      [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((m) =>
        // the attribute's value as the browser reads it
        m[1]!.replaceAll('&amp;', '&'),
      );
    const kt = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
    const ops = await page(`/mainnet/${kt}/operations?entrypoints=mint`);
    expect(fetches(ops)).toEqual([
      `/v1/account/mainnet/${kt}`,
      `/search/v1/account/mainnet/${kt}`,
      `/v1/contract/mainnet/${kt}?stats=true`,
      `/v1/contract/mainnet/${kt}/views/schema`,
      `/v1/contract/mainnet/${kt}/opg?size=10`,
    ]);
    expect(ops.indexOf('as="fetch"')).toBeLessThan(ops.indexOf('</head>'));
    const protocol = 'PtJakart2xVj7pYXJBXrqHgd82rdkLey5ZeeGikgPkLX7SNJZF4';
    expect(fetches(await page(`/mainnet/${kt}/code?protocol=${protocol}`)).at(-1)).toBe(
      `/v1/contract/mainnet/${kt}/code?protocol=${protocol}`,
    );
    // another address, other requests: the page is not served from the first one's cache
    const other = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
    expect(fetches(await page(`/mainnet/${other}/code`))).toContain(`/v1/contract/mainnet/${other}/code`);
    // home: the heads and the default network's recently called table
    expect(fetches(await page('/'))).toEqual([
      '/v1/head',
      '/v1/stats/mainnet/recently_called_contracts?size=3&offset=0',
    ]);
    expect(fetches(await page(`/ghostnet/${kt}/operations`))).toEqual([]);
    expect(fetches(await page(`/mainnet/KT1%22%3E%3Cscript%3E/operations`))).toEqual([]);
    expect(fetches(await page('/search?text=KT1'))).toEqual([]);
  });

  it("reads the route requests from the web build's dist-ssr/route-fetches.js, and announces none without it", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'ms-build-'));
    const dist = path.join(root, 'dist');
    mkdirSync(path.join(dist, '.vite'), { recursive: true });
    const routes: RoutePreload[] = [{ path: '/:network/:address/operations', files: [] }];
    writeFileSync(path.join(dist, ROUTE_PRELOAD_FILE), JSON.stringify({ routes }));
    const kt = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
    const preloadsOf = async () => {
      const server = await app(true, dist, {
        bootConfig: () => Promise.resolve({ networks: ['mainnet'] }),
        serverRender: false,
      });
      const html = (
        await server.inject({ url: `/mainnet/${kt}/operations`, headers: { accept: 'text/html' } })
      ).body;
      await server.close();
      return [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map(
        (m) => m[1],
      );
    };
    expect(await preloadsOf()).toEqual([]);
    mkdirSync(path.join(root, 'dist-ssr'));
    writeFileSync(
      path.join(root, 'dist-ssr/route-fetches.js'),
      'export const defaultNetwork = (c) => c.networks[0] ?? null;\n' +
        'export const routeFetches = (route, params) => [`/v1/built/${params.network}/${params.address}`];\n',
    );
    expect(await preloadsOf()).toEqual([`/v1/built/mainnet/${kt}`]);
  });

  it('matches a pathname to the most specific route, optional parameters included', () => {
    const routes: RoutePreload[] = [
      { path: '/', files: [] },
      { path: '/search', files: [] },
      { path: '/constant/:network/:address', files: [] },
      { path: '/:network/recently_called', files: [] },
      { path: '/:network/:address/interact/:entrypoint?', files: [] },
      { path: '/:network/:address/storage', files: [] },
      { path: '/:network/:address/storage/big_map/:ptr/keys', files: [] },
      { path: '/:network/:address/storage/big_map/:ptr/:keyhash', files: [] },
    ];
    const match = (p: string) => matchRoute(routes, p)?.path ?? null;
    expect(match('/')).toBe('/');
    expect(match('/search')).toBe('/search');
    expect(match('/constant/mainnet/expru')).toBe('/constant/:network/:address');
    expect(match('/mainnet/recently_called')).toBe('/:network/recently_called');
    expect(match('/mainnet/KT1x/interact')).toBe('/:network/:address/interact/:entrypoint?');
    expect(match('/mainnet/KT1x/interact/transfer')).toBe('/:network/:address/interact/:entrypoint?');
    expect(match('/mainnet/KT1x/storage/')).toBe('/:network/:address/storage');
    expect(match('/mainnet/KT1x/storage/big_map/12/keys')).toBe(
      '/:network/:address/storage/big_map/:ptr/keys',
    );
    expect(match('/mainnet/KT1x/storage/big_map/12/exprabc')).toBe(
      '/:network/:address/storage/big_map/:ptr/:keyhash',
    );
    expect(match('/mainnet/KT1x/interact/a/b')).toBeNull();
    expect(match('/mainnet')).toBeNull();
  });
});
