/**
 * Big integers in operation bytes (issue 22 item 1): forge and parse of a transaction whose parameter is one
 * `{"int": "9…9"}` of N digits, by the sandbox's forger (local-forging's envelope, the michelson codec for
 * integers and Micheline) and, for comparison up to a size where it stays under a minute, by local-forging's
 * own codecs (measured first, before the sandbox's forger replaces them in this process).
 * Run: npx tsx bench/big-ints.ts [digits...]   (default 1000 10000 68000 1000000)
 */
import { LocalForger } from '@taquito/local-forging';

const sizes = process.argv.slice(2).map(Number);
if (sizes.length === 0) sizes.push(1_000, 10_000, 68_000, 1_000_000);
const TAQUITO_MAX_DIGITS = 10_000; // beyond this local-forging takes minutes

const op = (digits: number) => ({
  branch: 'BLvxCa7Wimg4JCJMR62EvCrBWhzALEJRbDWHhcYtmyAL1y4ikry',
  contents: [
    {
      kind: 'transaction',
      source: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx',
      fee: '100000',
      counter: '1',
      gas_limit: '100000',
      storage_limit: '0',
      amount: '0',
      destination: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
      parameters: { entrypoint: 'default', value: { int: '9'.repeat(digits) } },
    },
  ],
});

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await f();
  return [r, performance.now() - t0];
}

const rows: string[] = [];
const taquito = new LocalForger();
const before = new Map<number, [number, number]>();
for (const n of sizes.filter((d) => d <= TAQUITO_MAX_DIGITS)) {
  const [bytes, forge] = await timed(() => taquito.forge(op(n) as never));
  const [, parse] = await timed(() => taquito.parse(bytes));
  before.set(n, [forge, parse]);
}
const { forgeOperation, parseOperation } = await import('../packages/sandbox/src/forging');
await parseOperation(await forgeOperation(op(10))); // warm-up
for (const n of sizes) {
  const [bytes, forge] = await timed(() => forgeOperation(op(n)));
  const [parsed, parse] = await timed(() => parseOperation(bytes));
  const value = (parsed.contents[0]!.parameters as { value: { int: string } }).value.int;
  if (value !== '9'.repeat(n)) throw new Error(`round trip of ${n} digits failed`);
  const b = before.get(n);
  rows.push(
    `| ${n.toLocaleString('en')} | ${(bytes.length / 2).toLocaleString('en')} B | ${b ? `${b[0].toFixed(0)} ms` : '—'} | ${b ? `${b[1].toFixed(0)} ms` : '—'} | ${forge.toFixed(0)} ms | ${parse.toFixed(0)} ms |`,
  );
}
console.log(
  '| digits | forged size | local-forging forge | local-forging parse | sandbox forger forge | sandbox forger parse |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of rows) console.log(r);
