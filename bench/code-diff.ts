/**
 * Code diff of two large, mostly different scripts (issue 21 part 2): the block diff of `POST /v1/diff`
 * (packages/api/src/services/code-diff.ts) against the line diff of the whole formatted scripts it replaced,
 * on the two largest scripts of ../shared/fixtures/contracts (~125 and ~135 KB of Micheline JSON), and on one
 * script against itself.
 *
 *   npx tsx bench/code-diff.ts [rounds]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { diffArrays } from 'diff';
import { formatMichelson, type Micheline } from '@michelscope/michelson';
import { codeDiff } from '../packages/api/src/services/code-diff';

const FIXTURES = process.env.FIXTURES_DIR ?? '/work/shared/fixtures/contracts/by-alias';
const load = (alias: string) =>
  JSON.parse(readFileSync(path.join(FIXTURES, alias, 'code.json'), 'utf8')) as Micheline;

const rounds = Number(process.argv[2] ?? 5);
const a = load('ctez_tez_plenty_stable_swap');
const b = load('doga_staking');
const time = (f: () => unknown) => {
  const ms: number[] = [];
  for (let i = 0; i <= rounds; i++) {
    const t0 = performance.now();
    f();
    if (i > 0) ms.push(performance.now() - t0);
  }
  ms.sort((x, y) => x - y);
  return `median ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} ms, max ${ms.at(-1)!.toFixed(0)} ms`;
};
console.log(`sizes: ${JSON.stringify(a).length} and ${JSON.stringify(b).length} characters of JSON`);
const whole = () => diffArrays(formatMichelson(a).split('\n'), formatMichelson(b).split('\n'));
console.log(`whole-text line diff (before): ${time(whole)}`);
const d = codeDiff(a, b);
console.log(`block diff: ${time(() => codeDiff(a, b))}`);
console.log(
  `  blocks ${d.blocks.length} (${d.blocks.map((x) => `${x.key}:${x.status}${x.replaced ? '*' : ''}`).join(', ')})`,
);
console.log(`  changed entrypoints: ${d.changed_entrypoints.length}`);
const self = codeDiff(a, a);
console.log(
  `same script: ${time(() => codeDiff(a, a))}; changed blocks ${self.blocks.filter((x) => x.status !== 'same').length}`,
);
