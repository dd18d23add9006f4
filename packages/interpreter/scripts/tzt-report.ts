/** Runs every TZT file of ../shared/conformance/tzt and prints one line per failure plus totals. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { runTzt } from '../src/tzt';

const dir = path.resolve(import.meta.dirname, '../../../../shared/conformance/tzt');
const files: string[] = [];
const walk = (d: string): void => {
  for (const f of readdirSync(d).sort()) {
    const p = path.join(d, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (f.endsWith('.tzt')) files.push(path.relative(dir, p));
  }
};
walk(dir);
let pass = 0;
const filter = process.argv[2];
for (const f of files) {
  if (filter && !f.includes(filter)) continue;
  const t0 = Date.now();
  const r = runTzt(readFileSync(path.join(dir, f), 'utf8'), { legacy: f.startsWith('legacy/') });
  const ms = Date.now() - t0;
  if (r.pass) pass++;
  else console.log(`FAIL ${f}: ${r.reason.split('\n')[0]?.slice(0, 300)}`);
  if (ms > 500) console.log(`SLOW ${f}: ${ms} ms`);
}
console.log(`${pass} passed, ${files.length - pass} failed`);
