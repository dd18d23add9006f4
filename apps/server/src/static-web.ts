import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough, type Transform } from 'node:stream';
import {
  brotliCompressSync,
  constants as zlibConstants,
  createBrotliCompress,
  createGzip,
  gzipSync,
} from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { internalCallHeaders } from '@michelscope/api';
import { PageLimiter, type PageLimit } from './page-limit';
import { fetchPreloadLinks, loadWebRouteFetches, routeParams, type WebRouteFetches } from './fetch-preloads';
import { jsonForScript } from './page-data';
import { PageRenderer, type PageRendererOptions, type RenderedPage } from './ssr';

/**
 * Paths that belong to the APIs: never answered with the SPA's index.html. The SPA itself owns /search
 * (search page), so only the services' versioned bases are reserved.
 */
const API_PREFIXES = ['/v1/', '/rpc/', '/search/v1/', '/stats/v1/', '/metadata/v1/'];

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Vite's content-hashed output: a new build gives new names, so a browser may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * Security headers that only a document (or a worker script, which the app has none of) obeys: a hashed
 * script, style sheet or font does not carry them, ~0.7 kB less on each of a page's asset requests (HTTP/1.1
 * sends headers uncompressed). They keep `x-content-type-options: nosniff` and the resource policy.
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
/** The page (and unhashed files such as the favicon) is revalidated on every load: it names the assets. */
const REVALIDATE = 'no-cache';
/** The id of the `<script type="application/json">` block of index.html that carries GET /v1/config. */
export const BOOT_CONFIG_ID = 'ms-boot-config';

export interface WebOptions {
  distDir?: string;
  /**
   * The answer of GET /v1/config, inlined in index.html so that the app starts without waiting for it
   * (read once, at the first page request: the configuration does not change while the server runs).
   */
  bootConfig?: () => Promise<unknown>;
  /**
   * Renders each page with its data on the server (./ssr) when the web build has its renderer
   * (dist-ssr/entry-server.js beside dist): default on, with ./ssr's default limits; `SERVER_RENDER=off`
   * turns it off.
   */
  serverRender?: boolean | Pick<PageRendererOptions, 'budgetMs' | 'hardLimitMs' | 'maxInFlight'>;
  /**
   * Page requests (index.html, rendered or not) per client (`request.ip`: the visitor behind a trusted proxy)
   * and time window; past it 429 with `retry-after`. Default none. The renderer's API requests are the
   * server's own (`internalCallHeaders`): no client's API limit pays for them.
   */
  pageRateLimit?: PageLimit | false;
  /**
   * The API requests of each route, announced with its page: by default the web build's module beside the
   * renderer (dist-ssr/route-fetches.js, see ./fetch-preloads); none when the build has none.
   */
  routeFetches?: WebRouteFetches | null;
  log?: (line: string) => void;
}

/** The cookie the app keeps its theme in (apps/web/src/features/theme/theme-storage.ts): `0` is light. */
const DARK_COOKIE = /(?:^|;\s*)ms_dark=([01])/;

/**
 * Serves the built SPA with a history fallback: any other GET that accepts HTML gets index.html, so deep
 * links such as /mainnet/KT1…/storage load the app. API paths keep JSON 404 bodies.
 *
 * Assets are served from the brotli / gzip files the build writes beside them (`preCompressed`), chosen by
 * `accept-encoding`; hashed assets (under /assets/) are immutable for a year, everything else `no-cache`.
 */
export async function registerWeb(app: FastifyInstance, opts: WebOptions = {}): Promise<void> {
  const distDir = opts.distDir ?? WEB_DIST;
  const built = existsSync(path.join(distDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) => {
        const cacheControl = cacheControlOf(distDir, file);
        reply.header('cache-control', cacheControl);
        if (cacheControl === IMMUTABLE) for (const h of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(h);
      },
    });
  }
  let page: Promise<Page> | undefined;
  const shells = new Map<string, Shell>();
  const rendererEntry = path.join(distDir, '../dist-ssr/entry-server.js');
  const renderer =
    built && opts.serverRender !== false && existsSync(rendererEntry)
      ? new PageRenderer({
          ...(typeof opts.serverRender === 'object' ? opts.serverRender : {}),
          entry: rendererEntry,
          log: opts.log,
          api: async ({ method, path: url, body }) => {
            const res = await app.inject({
              method: method === 'POST' ? 'POST' : 'GET',
              url,
              headers: {
                accept: 'application/json',
                // the page's visitor paid one page token for all of them
                ...internalCallHeaders(),
                ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
              },
              ...(body !== undefined ? { payload: body } : {}),
            });
            const headers: Record<string, string> = {};
            const type = res.headers['content-type'];
            if (typeof type === 'string') headers['content-type'] = type;
            return { status: res.statusCode, headers, body: res.body };
          },
        })
      : null;
  if (renderer) {
    // started once the server listens (the boot configuration comes from the API through inject)
    app.addHook('onListen', () => {
      page ??= loadPage(distDir, opts.bootConfig, opts.routeFetches);
      void page.then(({ config }) => config && renderer.start('http://localhost/', config));
    });
    app.addHook('onClose', () => renderer.close());
  }
  const pages = opts.pageRateLimit ? new PageLimiter(opts.pageRateLimit) : null;
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => url.startsWith(p) || url === p.slice(0, -1));
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({ message: 'not found' });
    }
    if (!built) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built yet: run `npm run build:web` (npm start does it for you).');
    }
    // A file added to dist after start (the app rebuilt under a running server) is served from disk; a
    // missing asset is a 404, never index.html (a script answered with HTML leaves a blank page).
    if (url.startsWith('/assets/')) {
      const file = builtFile(distDir, url);
      if (!file) return reply.code(404).type('text/plain').send('not found');
      return reply.sendFile(file, distDir);
    }
    if (pages) {
      const verdict = pages.take(request.ip);
      void reply
        .header('x-ratelimit-limit', String(verdict.limit))
        .header('x-ratelimit-remaining', String(verdict.remaining))
        .header('x-ratelimit-reset', String(verdict.resetSeconds));
      if (!verdict.allowed) return sendTooManyPages(reply, verdict.resetSeconds);
    }
    page ??= loadPage(distDir, opts.bootConfig, opts.routeFetches);
    const { html, routes, networks, homeNetwork, fetchesOf } = await page;
    const route = matchRoute(routes, url);
    const files = route?.files ?? [];
    const key = files.join(' ');
    let shell = shells.get(key);
    if (!shell) {
      shell = compressShell(withModulePreloads(html, files));
      if (shells.size < MAX_SHELLS) shells.set(key, shell);
    }
    // The route's API requests, announced with the page (they differ per address: not cached).
    const params = route ? routeParams(route.path, url) : null;
    const query = new URLSearchParams(request.url.slice(url.length + 1));
    const fetches =
      route && params && fetchesOf
        ? fetchesOf.routeFetches(route.path, params, query, networks, homeNetwork)
        : [];
    const { config } = await page;
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (renderer && config && wantsHtml && request.method === 'GET' && url.length <= MAX_RENDERED_URL) {
      const dark = DARK_COOKIE.exec(request.headers.cookie ?? '')?.[1] !== '0';
      // A page the renderer takes carries the answers it was made from (the app asks for none of them):
      // announcing them too would make the browser ask the API for each while the renderer does.
      const carriesData = route?.rendered !== false && renderer.takes();
      const rendered = renderer.render(`http://localhost${request.url}`, config, dark);
      return sendRendered(
        request,
        reply,
        withFetchPreloads(shell.text, carriesData ? [] : fetches),
        rendered,
      );
    }
    if (fetches.length > 0)
      return sendShell(request, reply, compressShell(withFetchPreloads(shell.text, fetches)));
    return sendShell(request, reply, shell);
  });
}

/** A page request past the client's page budget: a short page that says when to come back. */
function sendTooManyPages(reply: FastifyReply, retryAfter: number) {
  return reply
    .code(429)
    .header('retry-after', String(retryAfter))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many requests · Michelscope</title>' +
        `</head><body><p>Too many pages were asked from your address. Retry in ${retryAfter} s.</p></body></html>`,
    );
}

function cacheControlOf(distDir: string, file: string): string {
  const rel = path.relative(distDir, file).split(path.sep);
  return rel.length > 1 && rel[0] === 'assets' ? IMMUTABLE : REVALIDATE;
}

/** index.html as sent (boot configuration inlined, the route's modulepreloads), and its brotli and gzip forms. */
interface Shell {
  text: string;
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** What the build says a route needs (apps/web/build/route-preload.ts): a route of the SPA and its chunks. */
export interface RoutePreload {
  /** React Router syntax: `/:network/:address/operations`, `/:network/:address/views/:view?`. */
  path: string;
  /** Files under dist, e.g. `assets/contract-1a2b3c.js`. */
  files: string[];
  /** False for a route the server never renders (the workspace's forms); absent in older builds: true. */
  rendered?: boolean;
}

/** index.html with the boot configuration inlined, and the route table's preloads; read once. */
interface Page {
  html: string;
  /** GET /v1/config as inlined (null when it could not be read). */
  config: unknown;
  routes: RoutePreload[];
  /** The networks of the boot configuration (a route's API requests are announced for these only). */
  networks: string[];
  /** The network home opens on when the reader chose none (its table is announced with the page). */
  homeNetwork: string | null;
  /** The web's route requests (null: none announced). */
  fetchesOf: WebRouteFetches | null;
}

/** index.html variants kept compressed (one per set of route chunks: a few dozen at most). */
const MAX_SHELLS = 200;

/** Written by the web build beside index.html. */
export const ROUTE_PRELOAD_FILE = '.vite/route-preload.json';

async function loadPage(
  distDir: string,
  bootConfig: WebOptions['bootConfig'],
  given: WebRouteFetches | null | undefined,
): Promise<Page> {
  let html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const fetchesOf = given !== undefined ? given : await loadWebRouteFetches(distDir);
  let networks: string[] = [];
  let homeNetwork: string | null = null;
  let bootConfigAnswer: unknown = null;
  if (bootConfig) {
    try {
      const config = await bootConfig();
      bootConfigAnswer = config;
      html = inlineBootConfig(html, config);
      const listed = (config as { networks?: unknown } | null)?.networks;
      if (Array.isArray(listed)) networks = listed.filter((n): n is string => typeof n === 'string');
      homeNetwork =
        fetchesOf?.defaultNetwork({
          networks,
          sandbox_mode: (config as { sandbox_mode?: unknown } | null)?.sandbox_mode === true,
        }) ?? null;
    } catch {
      // The app asks GET /v1/config itself when the block is missing.
    }
  }
  return {
    html,
    config: bootConfigAnswer,
    routes: readRoutePreloads(distDir),
    networks,
    homeNetwork,
    fetchesOf,
  };
}

/** The build's route preloads; none (the app still loads, one round trip later) when missing or malformed. */
function readRoutePreloads(distDir: string): RoutePreload[] {
  try {
    const parsed = JSON.parse(readFileSync(path.join(distDir, ROUTE_PRELOAD_FILE), 'utf8')) as {
      routes?: unknown;
    };
    if (!Array.isArray(parsed.routes)) return [];
    return parsed.routes.filter(
      (r): r is RoutePreload =>
        typeof r === 'object' &&
        r !== null &&
        typeof (r as RoutePreload).path === 'string' &&
        Array.isArray((r as RoutePreload).files) &&
        (r as RoutePreload).files.every((f) => typeof f === 'string' && /^assets\/[\w.-]+\.js$/.test(f)),
    );
  } catch {
    return [];
  }
}

/**
 * The route a pathname opens, React Router style: `:name` matches one segment, `:name?` one or none,
 * anything else itself; of several matches the most specific (most literal segments, then fewest
 * optional ones) wins, the first of equals.
 */
export function matchRoute(routes: readonly RoutePreload[], pathname: string): RoutePreload | null {
  const segments = pathname.split('/').filter((s) => s !== '');
  let best: { route: RoutePreload; score: number } | null = null;
  for (const route of routes) {
    const score = matchScore(route.path, segments);
    if (score !== null && (best === null || score > best.score)) best = { route, score };
  }
  return best?.route ?? null;
}

function matchScore(pattern: string, segments: string[]): number | null {
  const parts = pattern.split('/').filter((s) => s !== '');
  let i = 0;
  let score = 0;
  for (const part of parts) {
    const segment = segments[i];
    if (part.startsWith(':') && part.endsWith('?')) {
      if (segment !== undefined) i++;
      score += 1;
    } else if (part.startsWith(':')) {
      if (segment === undefined) return null;
      i++;
      score += 2;
    } else {
      if (segment !== part) return null;
      i++;
      score += 10;
    }
  }
  return i === segments.length ? score : null;
}

/**
 * Adds `<link rel="modulepreload" crossorigin href="/assets/…">` before `</head>` for each file the page
 * does not name already, so that the browser fetches the route's chunks together with the boot chunk.
 */
export function withModulePreloads(html: string, files: readonly string[]): string {
  const links = files
    .filter((f) => !html.includes(`/${f}"`))
    .map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`);
  if (links.length === 0 || !html.includes('</head>')) return html;
  return html.replace('</head>', `${links.join('\n')}\n</head>`);
}

/**
 * Adds `<link rel="preload" as="fetch" crossorigin href="/v1/…">` before `</head>` for each API request
 * the route's loader starts (the web's, ./fetch-preloads), so that it starts with the scripts; the app's fetch of the
 * same URL (same origin, same credentials mode, no custom header) takes the preloaded answer.
 */
export function withFetchPreloads(html: string, urls: readonly string[]): string {
  if (urls.length === 0 || !html.includes('</head>')) return html;
  return html.replace('</head>', `${fetchPreloadLinks(urls).join('\n')}\n</head>`);
}

/** Pages longer than this are not rendered on the server (an address, a hash and a query fit easily). */
const MAX_RENDERED_URL = 2_048;
/** The id of the element the server's rendering of a page goes in (apps/web/src/app/ssr-markup.ts). */
export const SSR_MARKUP_ID = 'ms-ssr';
/** The element holding the answers the rendered page was made from (apps/web/src/app/ssr-markup.ts). */
export const SSR_DATA_ID = 'ms-ssr-data';

/**
 * index.html in two parts around the app's root: the first (the head: scripts, styles and data to preload)
 * is sent at once, the second once the page is rendered, with the rendering's styles and markup in
 * `<div id="ms-ssr">` before the root (React escaped every text and attribute of it), or without it.
 */
export function splitForServerPage(html: string): [string, (page: RenderedPage | null) => string] {
  const at = html.indexOf('<div id="root">');
  if (at < 0) return [html, () => ''];
  const rest = html.slice(at);
  return [
    html.slice(0, at),
    (page) =>
      page
        ? `${page.styles}<div id="${SSR_MARKUP_ID}" inert>${page.html}</div>` +
          (page.data !== undefined
            ? `<script type="application/json" id="${SSR_DATA_ID}">${page.data}</script>`
            : '') +
          rest
        : rest,
  ];
}

/**
 * A page made for one request, streamed and compressed in the one encoding the browser takes: the head goes
 * (flushed) while the page renders, so the browser fetches the app's code and data meanwhile.
 */
function sendRendered(
  request: FastifyRequest,
  reply: FastifyReply,
  html: string,
  rendered: Promise<RenderedPage | null>,
) {
  const encoding = pageEncoding(request, reply);
  const out: Transform =
    encoding === 'br'
      ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
      : encoding === 'gzip'
        ? createGzip({ level: 6 })
        : new PassThrough();
  if (encoding === 'br' || encoding === 'gzip') reply.header('content-encoding', encoding);
  const [head, tail] = splitForServerPage(html);
  out.write(head);
  if (!(out instanceof PassThrough)) (out as Transform & { flush(): void }).flush();
  void rendered.then((page) => out.end(tail(page)));
  return reply.send(out);
}

function compressShell(html: string): Shell {
  const raw = Buffer.from(html);
  return {
    text: html,
    html: raw,
    // per-address pages are compressed on each request: a fast brotli level (index.html is ~2 kB)
    br: brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
    gzip: gzipSync(raw, { level: 9 }),
  };
}

/**
 * Adds `<script type="application/json" id="ms-boot-config">` before `</head>`. It is data, not script
 * (a Content-Security-Policy without 'unsafe-inline' allows it); `<`, `>`, `&` and the JavaScript line
 * separators are escaped so that no value can close the element.
 */
export function inlineBootConfig(html: string, config: unknown): string {
  const json = jsonForScript(config);
  const block = `<script type="application/json" id="${BOOT_CONFIG_ID}">${json}</script>`;
  return html.includes('</head>') ? html.replace('</head>', `${block}\n</head>`) : block + html;
}

/** Sets a page's headers (no-cache, HTML, varies by encoding); the encoding the browser takes, if any. */
function pageEncoding(request: FastifyRequest, reply: FastifyReply): string | null {
  const header = request.headers['accept-encoding'];
  reply
    .header('cache-control', REVALIDATE)
    .header('vary', 'accept-encoding')
    .type('text/html; charset=utf-8');
  return typeof header === 'string' ? negotiate(header, ['br', 'gzip', 'identity']) : null;
}

function sendShell(request: FastifyRequest, reply: FastifyReply, shell: Shell) {
  const encoding = pageEncoding(request, reply);
  if (encoding === 'br') return reply.header('content-encoding', 'br').send(shell.br);
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(shell.gzip);
  return reply.send(shell.html);
}

/** The path of `url` relative to `distDir` when it names a regular file inside it, else null. */
function builtFile(distDir: string, url: string): string | null {
  let rel: string;
  try {
    rel = decodeURIComponent(url).replace(/^\/+/, '');
  } catch {
    return null;
  }
  const full = path.resolve(distDir, rel);
  if (!full.startsWith(distDir + path.sep)) return null;
  try {
    return statSync(full).isFile() ? path.relative(distDir, full) : null;
  } catch {
    return null;
  }
}
