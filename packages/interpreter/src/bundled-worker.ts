/**
 * Where a worker thread's code is. The packages run as TypeScript sources through tsx, and a worker does not
 * inherit its parent's loader, so each worker boots through a `*-boot.mjs` that registers tsx first. The
 * server bundle (scripts/build-server.mjs: apps/server/dist/main.mjs and one `.mjs` per worker beside it,
 * what `npm start` and the end-to-end tests run) defines `__MICHELSCOPE_BUNDLE__`: there a worker is its
 * bundled entry, plain JavaScript that needs no loader.
 */
declare const __MICHELSCOPE_BUNDLE__: boolean | undefined;

export type BundledWorker = 'chain-worker' | 'ssr-worker' | 'script-task' | 'debug-worker';

/** Inside the server bundle, the URL of the worker entry `name`; under tsx, undefined. */
export function bundledWorker(name: BundledWorker): URL | undefined {
  if (typeof __MICHELSCOPE_BUNDLE__ === 'undefined' || !__MICHELSCOPE_BUNDLE__) return undefined;
  // every output of the bundle is a file of apps/server/dist, this chunk included
  return new URL(`./${name}.mjs`, import.meta.url);
}
