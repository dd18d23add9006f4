#!/usr/bin/env node
// `npm run build:server`: bundles the server (apps/server/src/main.ts and our packages, which are TypeScript
// sources) into plain JavaScript in apps/server/dist, so that it starts without transpiling: `npm start` and
// the end-to-end tests run it. Dependencies stay in node_modules (not bundled). Each worker thread's code is
// an entry of its own beside main.mjs (packages/interpreter/src/bundled-worker.ts finds it there).
// Files that find data beside themselves (migrations, the seed's contracts, the web build) keep finding it:
// their `import.meta.url` and `import.meta.dirname` are rewritten to their source's place in the repository.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'apps/server/dist');
const ENTRIES = {
  main: 'apps/server/src/main.ts',
  'chain-worker': 'packages/sandbox/src/chain-worker.ts',
  'ssr-worker': 'apps/server/src/ssr-worker.ts',
  'script-task': 'packages/sandbox/src/script-task.ts',
  'debug-worker': 'packages/api/src/debug/worker.ts',
};
// its import.meta.url must stay the bundle's own: it finds the worker entries beside it
const KEEP_OWN_URL = path.join(ROOT, 'packages/interpreter/src/bundled-worker.ts');

/** `import.meta.url` / `.dirname` of a source file, as seen from the bundle's folder. */
const sourcePlace = {
  name: 'source-place',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (args.path === KEEP_OWN_URL || !/import\.meta\.(url|dirname)\b/.test(text)) return undefined;
      const file = JSON.stringify(path.relative(OUT, args.path));
      const dir = JSON.stringify(`${path.relative(OUT, path.dirname(args.path))}/`);
      const contents = text
        .replace(/import\.meta\.url\b/g, `new URL(${file}, import.meta.url).href`)
        .replace(/import\.meta\.dirname\b/g, `decodeURIComponent(new URL(${dir}, import.meta.url).pathname)`);
      return { contents, loader: 'ts' };
    });
  },
};

/** Our packages are bundled; every other bare import stays a dependency read from node_modules. */
const dependenciesExternal = {
  name: 'dependencies-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@michelscope/') ? undefined : { path: args.path, external: true },
    );
  },
};

const started = Date.now();
await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: ENTRIES,
  outdir: OUT,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  define: { __MICHELSCOPE_BUNDLE__: 'true' },
  plugins: [sourcePlace, dependenciesExternal],
  logLevel: 'warning',
});
console.log(`server bundle: apps/server/dist (${Date.now() - started} ms)`);
