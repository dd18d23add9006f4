// Undeclared package imports: prints one line per import of a package that the importing file's workspace
// does not declare in its package.json, and exits 1 when there is one. Run by `npm run lint`.
// Each workspace (root package.json `workspaces`) is checked against its own package.json; the files outside
// them (scripts/, e2e/, bench/, the root's configs) against the root's. Imports: `import … from`,
// `export … from`, `import '…'`, `import('…')`, `require('…')` in .ts/.tsx/.mts/.mjs/.js/.cjs files, type-only
// imports and tests included (node_modules, dist and dot folders not). Relative paths and Node builtins are
// skipped; `@scope/name/sub` counts as `@scope/name`.
// A workspace's src/ may use its dependencies (and peer and optional ones); its tests, test helpers (`testing`
// modules and folders) and configs its devDependencies and the root's devDependencies too (the monorepo's
// toolchain: vitest, playwright-core). The root's files may also use every workspace package. A type-only
// import is also declared by `@types/<name>` (in either dependency list).
// Usage: node scripts/check-deps.mjs [root] (the root defaults to this repository's).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(
  process.argv[2] ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..'),
);
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const rootPkg = readJson(path.join(ROOT, 'package.json'));
const names = (...groups) => new Set(groups.flatMap((g) => Object.keys(g ?? {})));
const runtime = (pkg) =>
  names(pkg.dependencies, pkg.peerDependencies, pkg.optionalDependencies).add(pkg.name);
const rootDev = names(rootPkg.devDependencies);
const workspaces = (rootPkg.workspaces ?? []).map((dir) => {
  const pkg = readJson(path.join(ROOT, dir, 'package.json'));
  const src = runtime(pkg);
  const dev = new Set([...src, ...names(pkg.devDependencies), ...rootDev]);
  return { dir: path.join(ROOT, dir), name: pkg.name, manifest: `${dir}/package.json`, src, dev };
});
const rootDeps = new Set([...runtime(rootPkg), ...rootDev, ...workspaces.map((ws) => ws.name)]);

const SKIP = new Set(['node_modules', 'dist', 'dist-ssr', 'data', 'coverage']);
function sources(dir, skipDirs, out = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!skipDirs.has(p)) sources(p, skipDirs, out);
    } else if (/\.(tsx?|mts|[mc]?js)$/.test(name) && !/\.d\.[mc]?ts$/.test(name)) out.push(p);
  }
  return out;
}

const BUILTIN = new Set(builtinModules);
/** The package a bare specifier names, or undefined for relative, absolute, builtin and virtual ones. */
function packageOf(spec) {
  if (/^[./]/.test(spec) || spec.startsWith('node:') || /^[a-z]+:/.test(spec)) return undefined;
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return BUILTIN.has(name) ? undefined : name;
}
const typesOf = (name) => `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;

// group 1: the `type` of `import type`/`export type`; 2: its specifier; 3: a side-effect import's; 4: import()'s
// or require()'s. Lines that are comments are skipped.
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(type\s+)?[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;

/** One { file, line, name, manifest } per undeclared import. */
function undeclared() {
  const found = [];
  const check = (file, allowed, manifest) => {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[2] ?? m[3] ?? m[4];
      const at = m.index + m[0].indexOf(spec);
      const lineStart = text.lastIndexOf('\n', at) + 1;
      if (/^\s*(\/\/|\*|\/\*)/.test(text.slice(lineStart, at))) continue;
      const name = packageOf(spec);
      if (!name || allowed.has(name)) continue;
      if (m[1] && allowed.has(typesOf(name))) continue;
      const line = text.slice(0, at).split('\n').length;
      found.push({ file: path.relative(ROOT, file), line, name, manifest });
    }
  };
  const isTest = (rel) =>
    !rel.startsWith('src/') || /\.test\.[cm]?[jt]sx?$/.test(rel) || /(^|\/)testing(\/|\.)/.test(rel);
  for (const ws of workspaces)
    for (const file of sources(ws.dir, new Set())) {
      const rel = path.relative(ws.dir, file).split(path.sep).join('/');
      check(file, isTest(rel) ? ws.dev : ws.src, ws.manifest);
    }
  const wsDirs = new Set(workspaces.map((ws) => ws.dir));
  for (const file of sources(ROOT, wsDirs)) check(file, rootDeps, 'package.json');
  return found;
}

const found = undeclared();
for (const f of found)
  console.error(`${f.file}:${f.line}: '${f.name}' is not declared: add it to ${f.manifest}`);
if (found.length > 0) {
  console.error(
    `${found.length} undeclared import(s): declare each in the package.json named (dependencies for its src/, devDependencies for its tests and tools).`,
  );
  process.exit(1);
}
console.log(`every package import is declared (${workspaces.length} workspaces and the root)`);
