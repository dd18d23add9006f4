/**
 * The serving of the web build on the one origin: its files (./static-files), and for every other page
 * request index.html, announced with the route's chunks (./route-preloads) and API requests
 * (./fetch-preloads), the boot configuration inlined (./page-html), rendered on the server when it can be
 * (./ssr) and sent compressed (./page-response).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { internalCallHeaders } from '@michelscope/api';
import { DatabasePageLimiter, PageLimiter, type PageCounter, type PageLimit } from './page-limit';
import { loadWebRouteFetches, routeParams, type WebRouteFetches } from './fetch-preloads';
import { PageRenderer, type PageRendererOptions } from './ssr';
import { inlineBootConfig, withFetchPreloads, withModulePreloads } from './page-html';
import { compressShell, sendRendered, sendShell, sendTooManyPages, type Shell } from './page-response';
import { matchRoute, readRoutePreloads, type RoutePreload } from './route-preloads';
import { builtFile, registerStaticFiles } from './static-files';

/**
 * Paths that belong to the APIs: never answered with the SPA's index.html. The SPA itself owns /search
 * (search page), so only the services' versioned bases are reserved.
 */
const API_PREFIXES = ['/v1/', '/rpc/', '/search/v1/', '/stats/v1/', '/metadata/v1/'];

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

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
 * `accept-encoding`; hashed assets (under /assets/) are immutable for a year, everything else `no-cache`
 * (./static-files).
 */
export async function registerWeb(app: FastifyInstance, opts: WebOptions = {}): Promise<void> {
  const distDir = opts.distDir ?? WEB_DIST;
  const built = existsSync(path.join(distDir, 'index.html'));
  if (built) await registerStaticFiles(app, distDir);
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
  const limit = opts.pageRateLimit;
  const pages: PageCounter | null = !limit
    ? null
    : limit.db
      ? new DatabasePageLimiter(limit.db, limit)
      : new PageLimiter(limit);
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
      const verdict = await pages.take(request.ip);
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
        carriesData ? fetches : [],
      );
    }
    if (fetches.length > 0)
      return sendShell(request, reply, compressShell(withFetchPreloads(shell.text, fetches)));
    return sendShell(request, reply, shell);
  });
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

/** Pages longer than this are not rendered on the server (an address, a hash and a query fit easily). */
const MAX_RENDERED_URL = 2_048;
