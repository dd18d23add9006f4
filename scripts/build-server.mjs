#!/usr/bin/env node
// `npm run build:server`: bundles the server (apps/server/src/main.ts and our packages, which are TypeScript
// sources) into plain JavaScript in apps/server/dist, so that it starts without transpiling: `npm start` and
// the end-to-end tests run it. Dependencies stay in node_modules (not bundled; scripts/bundle-node.mjs). Each
// worker thread's code is an entry of its own beside main.mjs (packages/interpreter/src/bundled-worker.ts
// finds it there).
import path from 'node:path';
import { bundleNode, ROOT, SERVER_ENTRIES } from './bundle-node.mjs';

const started = Date.now();
await bundleNode({
  outdir: path.join(ROOT, 'apps/server/dist'),
  entries: SERVER_ENTRIES,
});
console.log(`server bundle: apps/server/dist (${Date.now() - started} ms)`);
