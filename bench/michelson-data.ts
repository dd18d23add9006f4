/**
 * Benchmarks of the Michelson data layer (@michelscope/michelson) over the real contract corpus in
 * ../shared/fixtures (contracts/ and contracts/by-alias/): typedef + Miguel of the largest storage,
 * formatting the largest code, JSON schema of the largest parameter type, and Miguel trees of 10,000
 * and 30,001 nodes. Prints a Markdown table (mean and best time per run).
 *
 *   node --import tsx bench/michelson-data.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildTypeTree,
  diffValues,
  entrypointSchemaOf,
  entrypointLeaves,
  formatMichelson,
  jsonSchema,
  parseMichelsonScript,
  scriptSection,
  toMiguel,
  typedefOf,
} from '@michelscope/michelson';
import type { Micheline, MiguelNode } from '@michelscope/michelson';

const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/fixtures');
if (!existsSync(SHARED)) {
  console.warn(`${SHARED} not found: nothing to benchmark`);
  process.exit(0);
}

const read = (p: string): Micheline => JSON.parse(readFileSync(p, 'utf8')) as Micheline;
const dirs = ['contracts', 'contracts/by-alias']
  .flatMap((root) => readdirSync(path.join(SHARED, root)).map((d) => path.join(SHARED, root, d)))
  .filter((d) => existsSync(path.join(d, 'code.json')));
const size = (p: string): number => readFileSync(p).length;

const largestStorage = dirs
  .filter((d) => existsSync(path.join(d, 'storage.json')))
  .sort((a, b) => size(path.join(b, 'storage.json')) - size(path.join(a, 'storage.json')))[0]!;
/** The storage whose Miguel tree has the most nodes (storages that do not decode are skipped). */
function mostNodesStorage(): { dir: string; nodes: number } {
  let best = { dir: '', nodes: -1 };
  for (const d of dirs.filter((x) => existsSync(path.join(x, 'storage.json')))) {
    try {
      const st = scriptSection(read(path.join(d, 'code.json')), 'storage')!;
      const nodes = countNodes(toMiguel(st, read(path.join(d, 'storage.json'))));
      if (nodes > best.nodes) best = { dir: d, nodes };
    } catch {
      // not decodable: not a candidate
    }
  }
  return best;
}
const largestCode = [...dirs].sort(
  (a, b) => size(path.join(b, 'code.json')) - size(path.join(a, 'code.json')),
)[0]!;
const paramSize = (d: string): number =>
  JSON.stringify(scriptSection(read(path.join(d, 'code.json')), 'parameter')).length;
const largestParam = [...dirs].sort((a, b) => paramSize(b) - paramSize(a))[0]!;

function bench(name: string, subject: string, fn: () => unknown, minMs = 1000, minRuns = 10): string {
  for (let i = 0; i < Math.min(3, minRuns); i++) fn(); // warm-up (JIT)
  const times: number[] = [];
  const t0 = performance.now();
  while (performance.now() - t0 < minMs || times.length < minRuns) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  const mean = (performance.now() - t0) / times.length;
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const ms = (x: number): string => `${x.toFixed(2)} ms`;
  return `| ${name} | ${subject} | ${ms(median)} | ${ms(mean)} | ${ms(times[0]!)} | ${times.length} |`;
}

const countNodes = (nodes: MiguelNode[]): number =>
  nodes.reduce((n, x) => n + 1 + countNodes(x.children ?? []), 0);

/** A `map nat (pair address nat)` value with `entries` entries and its type. */
function syntheticMap(entries: number): { type: Micheline; value: Micheline } {
  const type: Micheline = {
    prim: 'map',
    args: [
      { prim: 'nat' },
      {
        prim: 'pair',
        args: [
          { prim: 'address', annots: ['%owner'] },
          { prim: 'nat', annots: ['%amount'] },
        ],
      },
    ],
  };
  const value: Micheline = Array.from({ length: entries }, (_, i) => ({
    prim: 'Elt',
    args: [
      { int: String(i) },
      { prim: 'Pair', args: [{ string: 'tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a' }, { int: String(i) }] },
    ],
  }));
  return { type, value };
}

const rows: string[] = [];
{
  const code = read(path.join(largestStorage, 'code.json'));
  const storage = read(path.join(largestStorage, 'storage.json'));
  const st = scriptSection(code, 'storage')!;
  const kb = (size(path.join(largestStorage, 'storage.json')) / 1024).toFixed(0);
  const subject = `${path.basename(largestStorage)} (${kb} KB storage, ${countNodes(toMiguel(st, storage))} Miguel nodes)`;
  rows.push(
    bench('**typedef + Miguel of the largest storage**', subject, () => {
      const t = buildTypeTree(st);
      typedefOf(t);
      return toMiguel(t, storage);
    }),
  );
  const most = mostNodesStorage();
  if (most.dir) {
    const st2 = scriptSection(read(path.join(most.dir, 'code.json')), 'storage')!;
    const v2 = read(path.join(most.dir, 'storage.json'));
    rows.push(
      bench(
        'typedef + Miguel of the storage with the most nodes',
        `${path.basename(most.dir)} (${most.nodes} Miguel nodes)`,
        () => {
          const t = buildTypeTree(st2);
          typedefOf(t);
          return toMiguel(t, v2);
        },
      ),
    );
  }
  rows.push(
    bench('typedef of the storage type alone', path.basename(largestStorage), () =>
      typedefOf(buildTypeTree(st)),
    ),
  );
  rows.push(
    bench('diff storage with itself', `${path.basename(largestStorage)}`, () =>
      diffValues(st, storage, storage),
    ),
  );
}
{
  const code = read(path.join(largestCode, 'code.json'));
  const kb = (size(path.join(largestCode, 'code.json')) / 1024).toFixed(0);
  rows.push(
    bench(
      '**format the largest code** (multi-line, width 88)',
      `${path.basename(largestCode)} (${kb} KB code)`,
      () => formatMichelson(code),
    ),
  );
  const text = formatMichelson(code);
  rows.push(
    bench(
      'parse Michelson text',
      `${path.basename(largestCode)} (${(text.length / 1024).toFixed(0)} KB text)`,
      () => parseMichelsonScript(text),
    ),
  );
}
{
  const p = scriptSection(read(path.join(largestParam, 'code.json')), 'parameter')!;
  const t = buildTypeTree(p);
  const n = entrypointLeaves(t).length;
  rows.push(
    bench(
      '**JSON schema of the largest parameter** + each entrypoint',
      `${path.basename(largestParam)} (${n} entrypoints)`,
      () => {
        jsonSchema(p);
        for (const l of entrypointLeaves(t)) entrypointSchemaOf(t, l.name);
      },
    ),
  );
}
for (const entries of [3_333, 10_000]) {
  const { type, value } = syntheticMap(entries);
  const nodes = countNodes(toMiguel(type, value));
  rows.push(
    bench(
      `${entries === 3_333 ? '**' : ''}Miguel tree of ${nodes.toLocaleString('en')} nodes${entries === 3_333 ? '**' : ''}`,
      `map of ${entries.toLocaleString('en')} entries`,
      () => toMiguel(type, value),
    ),
  );
}

console.log(
  `Node ${process.version}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${new Date().toISOString().slice(0, 10)}\n`,
);
console.log('| operation | subject | median | mean | best | runs |\n|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
