/**
 * Which scripts each route needs, for the server to announce them in index.html
 * (`<link rel="modulepreload">`): without it the browser learns a route's chunks only once the boot chunk
 * has downloaded and run (the router imports the screen), one more round trip before the page's code.
 *
 * Written at build time to `dist/.vite/route-preload.json`: `{ routes: [{ path, files, rendered }] }`, where `path` is
 * a route of the route table (`/:network/:address/operations`, React Router syntax) and `files` the chunks
 * its screen imports (the screen's dynamic imports in app/router/screens.tsx and their static imports,
 * transitively) beyond what index.html loads already. A screen without a dynamic import (home) is in the
 * boot chunk, as the header's search box is: nothing to add.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import {
  APP_ONLY_SCREENS,
  buildRouteTable,
  SCREEN_IDS,
  type LazyScreen,
  type ScreenId,
} from '../src/app/router/route-table';

export const ROUTE_PRELOAD_FILE = '.vite/route-preload.json';

export interface RoutePreload {
  path: string;
  files: string[];
  /** False for the workspace's forms, which the server does not render (APP_ONLY_SCREENS). */
  rendered: boolean;
}

/**
 * The module specifiers each screen of screens.tsx imports dynamically (`id: async () => … import('…')`;
 * none for a screen of the boot chunk, `id: () => Promise.resolve(…)`).
 */
export function screenImports(source: string): Map<string, string[]> {
  const starts = [...source.matchAll(/^ {2}(\w+): (?:async )?\(\) =>/gm)];
  const out = new Map<string, string[]>();
  starts.forEach((m, i) => {
    const body = source.slice(m.index, starts[i + 1]?.index ?? source.length);
    out.set(
      m[1]!,
      [...body.matchAll(/import\('([^']+)'\)/g)].map((x) => x[1]!),
    );
  });
  return out;
}

/** Every screen's full path in the route table (React Router syntax). */
export function screenPaths(): { id: ScreenId; path: string }[] {
  const none: LazyScreen = () => Promise.resolve({});
  const screens = Object.fromEntries(SCREEN_IDS.map((id) => [id, none])) as Record<ScreenId, LazyScreen>;
  const out: { id: ScreenId; path: string }[] = [];
  const walk = (routes: ReturnType<typeof buildRouteTable>, parent: string) => {
    for (const route of routes) {
      const full = `${parent}/${route.path ?? ''}`.replace(/\/+/g, '/');
      const normal = full.length > 1 ? full.replace(/\/$/, '') : full;
      if (route.id && (SCREEN_IDS as readonly string[]).includes(route.id)) {
        out.push({ id: route.id as ScreenId, path: normal });
      }
      if (route.children) walk(route.children, normal);
    }
  };
  walk(buildRouteTable({ networks: [], screens, lookupBigMap: () => Promise.resolve(null) }), '');
  return out;
}

/** The file of a relative specifier imported by `from` (a .tsx or .ts module). */
function resolveModule(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.tsx`, `${base}.ts`]) {
    if (/\.[jt]sx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

export function routePreload(opts: { screensFile: string }): Plugin {
  return {
    name: 'michelscope-route-preload',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (files: string[]) => {
        const seen = new Set<string>();
        const stack = [...files];
        while (stack.length > 0) {
          const f = stack.pop()!;
          if (seen.has(f)) continue;
          seen.add(f);
          stack.push(...(byFile.get(f)?.imports ?? []));
        }
        return seen;
      };
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return;
      const initial = closure([entry.fileName]);
      const chunkOf = (moduleId: string) => chunks.find((c) => c.moduleIds.includes(moduleId))?.fileName;
      const filesOf = (modules: string[]) => {
        const found = modules.map(chunkOf);
        if (found.some((f) => f === undefined)) {
          this.error(`route-preload: no chunk holds one of ${modules.join(', ')}`);
        }
        return [...closure(found as string[])].filter((f) => !initial.has(f)).sort();
      };

      const imports = screenImports(readFileSync(opts.screensFile, 'utf8'));
      const routes: RoutePreload[] = screenPaths().map(({ id, path: routePath }) => {
        const modules = (imports.get(id) ?? []).map((s) => resolveModule(opts.screensFile, s));
        if (!imports.has(id) || modules.some((m) => m === null)) {
          this.error(`route-preload: the modules of screen '${id}' are not found in ${opts.screensFile}`);
        }
        return {
          path: routePath,
          files: modules.length > 0 ? filesOf(modules as string[]) : [],
          rendered: !APP_ONLY_SCREENS.has(id),
        };
      });
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOAD_FILE, source: JSON.stringify({ routes }) });
    },
  };
}
