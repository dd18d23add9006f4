#!/usr/bin/env node
/**
 * The JavaScript a first visit to home downloads, gzipped (issue 8: target ≤ 250 kB).
 *
 * Reads the built app (apps/web/dist; `--build` runs `npm run build:web` first) and follows what the browser
 * fetches for `/`: the entry scripts and modulepreloads of index.html, every chunk they import statically,
 * then the home route chunk (HomePage-*.js, when the router loads home lazily) with its own static imports;
 * home is now in the entry (router/screens.tsx imports it eagerly), so there is no such chunk to add.
 * Each file is gzipped with zlib's default level (as Vite reports sizes); kB = 1000 bytes.
 *
 * Run: node bench/web-bundle.mjs [--build] [--json]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'apps/web/dist');
const TARGET_KB = 250;
const HOME_CHUNK = /^HomePage-[\w-]+\.js$/;

const args = new Set(process.argv.slice(2));
if (args.has('--build') || !existsSync(path.join(DIST, 'index.html'))) {
  const r = spawnSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** `/assets/x.js` or `./x.js` relative to `from` (a dist-relative path) → dist-relative path. */
function resolveAsset(spec, from) {
  if (/^[a-z]+:/i.test(spec) || spec.startsWith('//')) return null; // another origin
  const rel = spec.startsWith('/') ? spec.slice(1) : path.posix.join(path.posix.dirname(from), spec);
  return path.posix.normalize(rel);
}

/** Static imports and re-exports of a built chunk (not `import()`). */
function staticImports(code) {
  const found = new Set();
  const re = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+\.js)["']/g;
  for (const m of code.matchAll(re)) found.add(m[1]);
  return [...found];
}

const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
const roots = [
  ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
].map((m) => resolveAsset(m[1], 'index.html'));

const files = new Map(); // dist-relative path → { raw, gzip, why }
function visit(file, why) {
  if (file === null || files.has(file)) return;
  const code = readFileSync(path.join(DIST, file));
  files.set(file, { raw: code.length, gzip: gzipSync(code).length, why });
  for (const spec of staticImports(code.toString('utf8')))
    visit(resolveAsset(spec, file), `import of ${file}`);
}
for (const file of roots) visit(file, 'index.html');
const entryCount = files.size;
const entryGzip = [...files.values()].reduce((t, f) => t + f.gzip, 0);

const home = readdirSync(path.join(DIST, 'assets')).filter((f) => HOME_CHUNK.test(f));
if (home.length > 1) {
  console.error(`expected at most one HomePage chunk in ${DIST}/assets, found ${home.length}`);
  process.exit(1);
}
if (home.length === 1) visit(`assets/${home[0]}`, 'home route (lazy)');

const kB = (n) => (n / 1000).toFixed(1);
const rows = [...files].map(([file, s]) => ({ file, ...s })).sort((a, b) => b.gzip - a.gzip);
const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip }), { raw: 0, gzip: 0 });

if (args.has('--json')) {
  console.log(JSON.stringify({ total, entryGzip, files: rows, targetKb: TARGET_KB }, null, 2));
} else {
  console.log(
    `First visit to home: ${rows.length} JS files (${entryCount} from the entry, the rest for the home route)`,
  );
  for (const r of rows)
    console.log(`  ${kB(r.gzip).padStart(7)} kB gz  ${kB(r.raw).padStart(7)} kB  ${r.file}`);
  console.log(
    `Total: ${kB(total.gzip)} kB gzipped (${kB(total.raw)} kB raw): entry ${kB(entryGzip)} kB + home route ${kB(total.gzip - entryGzip)} kB; target ≤ ${TARGET_KB} kB`,
  );
}
process.exit(total.gzip <= TARGET_KB * 1000 ? 0 : 2);
