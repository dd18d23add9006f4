// Import cycles between our modules, type-only imports included (ESLint's import plugins skip those):
// prints each cycle and exits 1 when there is one. Run by `npm run lint`.
// Edges: relative imports and `@michelscope/<pkg>[/<sub>]` (resolved through the package's exports), from
// `import … from`, `export … from`, `import('…')` in .ts/.tsx sources (tests included, node_modules not).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const rootPkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const packages = new Map(
  rootPkg.workspaces.map((dir) => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8'));
    return [pkg.name, { dir: path.join(ROOT, dir), exports: pkg.exports ?? {} }];
  }),
);

function sources(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function resolveFile(base) {
  for (const c of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ])
    if (existsSync(c) && statSync(c).isFile()) return c;
  const js = base.replace(/\.js$/, '');
  return js !== base ? resolveFile(js) : undefined;
}

function resolve(spec, from) {
  if (spec.startsWith('.')) return resolveFile(path.resolve(path.dirname(from), spec));
  const m = /^(@michelscope\/[^/]+)(\/.*)?$/.exec(spec);
  const pkg = m && packages.get(m[1]);
  if (!pkg) return undefined;
  const target = pkg.exports[`.${m[2] ?? ''}`];
  return typeof target === 'string' ? resolveFile(path.join(pkg.dir, target)) : undefined;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const graph = new Map();
for (const dir of [...packages.values()].map((p) => p.dir)) {
  for (const file of sources(dir)) {
    const text = readFileSync(file, 'utf8');
    const deps = new Set();
    for (const m of text.matchAll(IMPORT)) {
      const target = resolve(m[1] ?? m[2], file);
      if (target && target !== file) deps.add(target);
    }
    graph.set(file, deps);
  }
}

// Tarjan's strongly connected components; every component of two or more files holds a cycle.
let index = 0;
const idx = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
function connect(v) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!idx.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const comp = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      comp.push(w);
    } while (w !== v);
    if (comp.length > 1) components.push(comp);
  }
}
for (const v of graph.keys()) if (!idx.has(v)) connect(v);

for (const comp of components) {
  const rel = comp.map((f) => path.relative(ROOT, f)).sort();
  console.error(`import cycle between:\n  ${rel.join('\n  ')}`);
}
if (components.length > 0) {
  console.error(
    `${components.length} import cycle(s): break them (move the shared piece into its own module).`,
  );
  process.exit(1);
}
console.log(`no import cycles among ${graph.size} modules`);
