/**
 * The API requests a page's route loader starts, announced in index.html as
 * `<link rel="preload" as="fetch" crossorigin>` so that the browser asks the API together with the scripts.
 * Which requests a route starts is the web's to say: its build writes them as a module for the server
 * (apps/web/src/app/router/route-fetches.ts, built to dist-ssr/route-fetches.js), loaded here; this file only
 * matches a request's path to a route of the web's route table and writes the links.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** What dist-ssr/route-fetches.js exports (apps/web/src/app/router/route-fetches.ts). */
export interface WebRouteFetches {
  /**
   * The API URLs (same origin) the loader of `route` (a route table path) starts for its path parameters
   * `params` and query, on the configured `networks`; [] when unknown or not well formed.
   */
  routeFetches(
    route: string,
    params: Readonly<Record<string, string>>,
    query: URLSearchParams,
    networks: readonly string[],
    homeNetwork?: string | null,
  ): string[];
  /** The network home opens on for a reader who chose none. */
  defaultNetwork(config: { networks: string[]; sandbox_mode?: boolean }): string | null;
}

/**
 * The web build's module of route requests (dist-ssr/route-fetches.js beside `distDir`), or null when that
 * build has none (the pages are then served without fetch preloads).
 */
export async function loadWebRouteFetches(distDir: string): Promise<WebRouteFetches | null> {
  const file = path.join(distDir, '../dist-ssr/route-fetches.js');
  if (!existsSync(file)) return null;
  const mod = (await import(pathToFileURL(file).href)) as Partial<WebRouteFetches>;
  return typeof mod.routeFetches === 'function' && typeof mod.defaultNetwork === 'function'
    ? (mod as WebRouteFetches)
    : null;
}

/**
 * The parameters of `pathname` under a route path (`:name`, `:name?`), or null when it does not match;
 * segments are URI-decoded (null when one cannot be).
 */
export function routeParams(pattern: string, pathname: string): Record<string, string> | null {
  const parts = pattern.split('/').filter((s) => s !== '');
  const segments = pathname.split('/').filter((s) => s !== '');
  const out: Record<string, string> = {};
  let i = 0;
  try {
    for (const part of parts) {
      const segment = segments[i];
      if (part.startsWith(':')) {
        const optional = part.endsWith('?');
        if (segment === undefined) {
          if (optional) continue;
          return null;
        }
        out[part.slice(1).replace(/\?$/, '')] = decodeURIComponent(segment);
        i++;
      } else {
        if (segment !== part) return null;
        i++;
      }
    }
  } catch {
    return null;
  }
  return i === segments.length ? out : null;
}

/** `<link rel="preload" as="fetch" crossorigin href="…">` for each URL (escaped for the attribute). */
export function fetchPreloadLinks(urls: readonly string[]): string[] {
  const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return urls.map((u) => `<link rel="preload" as="fetch" crossorigin href="${attr(u)}">`);
}
