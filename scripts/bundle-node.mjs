// Bundles TypeScript entries of this repository into plain ESM JavaScript for Node, so that a process starts
// without transpiling: our packages (TypeScript sources) are bundled, every other bare import stays a
// dependency read from node_modules. Files that find data beside themselves (migrations, the seed's
// contracts, the web build) keep finding it: their `import.meta.url` and `import.meta.dirname` are rewritten
// to their source's place in the repository. Used by scripts/build-server.mjs (the server) and by tests that
// start a child process of their own (packages/indexer/test/kill-restart.test.ts).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';

export const ROOT = path.resolve(import.meta.dirname, '..');

/** The server bundle's entries (`npm start` runs `main`; the others are its worker threads' modules). */
export const SERVER_ENTRIES = {
  main: 'apps/server/src/main.ts',
  'chain-worker': 'packages/sandbox/src/chain-worker.ts',
  'ssr-worker': 'apps/server/src/ssr-worker.ts',
  'script-task': 'packages/sandbox/src/script-task.ts',
  'debug-worker': 'packages/api/src/debug/worker.ts',
};
// its import.meta.url must stay the bundle's own: it finds the worker entries beside it
const KEEP_OWN_URL = path.join(ROOT, 'packages/interpreter/src/bundled-worker.ts');

/** `import.meta.url` / `.dirname` of a source file, as seen from the bundle's folder `out`. */
const sourcePlace = (out) => ({
  name: 'source-place',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (args.path === KEEP_OWN_URL || !/import\.meta\.(url|dirname)\b/.test(text)) return undefined;
      const file = JSON.stringify(path.relative(out, args.path));
      const dir = JSON.stringify(`${path.relative(out, path.dirname(args.path))}/`);
      const contents = text
        .replace(/import\.meta\.url\b/g, `new URL(${file}, import.meta.url).href`)
        .replace(/import\.meta\.dirname\b/g, `decodeURIComponent(new URL(${dir}, import.meta.url).pathname)`);
      return { contents, loader: 'ts' };
    });
  },
});

/** Our packages are bundled; every other bare import stays a dependency read from node_modules. */
const dependenciesExternal = {
  name: 'dependencies-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@michelscope/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Bundles `entries` (name → source path relative to the repository) into `outdir` as `<name>.mjs`, with
 * shared chunks and linked source maps.
 */
export async function bundleNode({ entries, outdir }) {
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: entries,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    define: { __MICHELSCOPE_BUNDLE__: 'true' },
    plugins: [sourcePlace(outdir), dependenciesExternal],
    logLevel: 'warning',
  });
}
