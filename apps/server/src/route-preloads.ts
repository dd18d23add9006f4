/**
 * The build's route table (apps/web/build/route-preload.ts writes it beside index.html): each route of the SPA
 * and the chunks it needs, which a page announces as modulepreloads; and the route a request's path opens.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What the build says a route needs (apps/web/build/route-preload.ts): a route of the SPA and its chunks. */
export interface RoutePreload {
  /** React Router syntax: `/:network/:address/operations`, `/:network/:address/views/:view?`. */
  path: string;
  /** Files under dist, e.g. `assets/contract-1a2b3c.js`. */
  files: string[];
  /** False for a route the server never renders (the workspace's forms); absent in older builds: true. */
  rendered?: boolean;
}

/** Written by the web build beside index.html. */
export const ROUTE_PRELOAD_FILE = '.vite/route-preload.json';

/** The build's route preloads; none (the app still loads, one round trip later) when missing or malformed. */
export function readRoutePreloads(distDir: string): RoutePreload[] {
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
