// Untrusted input: corrupted values, types and scripts must give MichelsonDataError, never a crash.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as M from '../src/index';
import type { Micheline } from '../src/index';
import { hasShared, SHARED } from './golden';

const JUNK: unknown[] = [
  null,
  1,
  'x',
  {},
  [],
  { prim: 'Pair' },
  { prim: 'Some' },
  { prim: 'Left' },
  { int: 'x' },
  { bytes: 'zz' },
  { string: 5 },
  { prim: 'Elt', args: [{ int: '1' }] },
  [null],
  { prim: 'Pair', args: [null, null] },
  { int: '99999999999999999999999' },
  { bytes: '05' },
  { bytes: '0502' },
  { prim: 'pair', args: [{ prim: 'nat' }] },
  { prim: 'Ticket', args: [] },
];

function fuzzer(seed: number) {
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const mutate = (v: unknown, depth = 0): unknown => {
    if (rnd() < 0.08 || depth > 30) return JUNK[Math.floor(rnd() * JUNK.length)];
    if (Array.isArray(v)) return v.map((x) => mutate(x, depth + 1));
    if (v && typeof v === 'object' && Array.isArray((v as { args?: unknown[] }).args)) {
      return { ...v, args: (v as { args: unknown[] }).args.map((x) => mutate(x, depth + 1)) };
    }
    return v;
  };
  return (v: unknown) => mutate(v) as Micheline;
}

function onlyDataErrors(f: () => unknown): void {
  try {
    f();
  } catch (e) {
    expect(e, String((e as Error).stack)).toBeInstanceOf(M.MichelsonDataError);
  }
}

function exercise(code: Micheline, storage: Micheline, mutate: (v: unknown) => Micheline): void {
  const stT = M.scriptSection(code, 'storage')!;
  const pT = M.scriptSection(code, 'parameter')!;
  for (let i = 0; i < 10; i++) {
    const v = mutate(storage);
    const t = mutate(stT);
    onlyDataErrors(() => M.toMiguel(stT, v));
    onlyDataErrors(() => M.diffValues(stT, v, storage));
    onlyDataErrors(() => M.diffValues(stT, storage, v));
    onlyDataErrors(() => M.normalizeValue(stT, v, 'optimized'));
    onlyDataErrors(() => M.storageModel(stT, v));
    onlyDataErrors(() => M.typedef(t));
    onlyDataErrors(() => M.jsonSchema(t));
    onlyDataErrors(() => M.formatMichelson(mutate(code)));
    onlyDataErrors(() => M.scriptTags(mutate(code)));
    onlyDataErrors(() => M.formToMicheline(pT, mutate({ a: 1 })));
    onlyDataErrors(() => M.toMicheline(mutate(code)));
  }
}

describe('robustness', () => {
  it('survives corrupted values of a hand-written contract', () => {
    const code = M.parseMichelsonScript(
      'parameter (or (nat %a) (pair %b address (option bytes))); storage (pair (big_map %m address (pair nat timestamp)) (list %l (or int string)) (option %o key_hash)); code { FAILWITH }',
    );
    const storage = M.parseMichelsonExpression(
      'Pair { Elt "tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a" (Pair 1 0) } { Left 1 ; Right "x" } (Some "tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a")',
    );
    exercise(code, storage, fuzzer(7));
  });
  it('rejects untrusted JSON with a path', () => {
    expect(() => M.toMicheline({ prim: 'Pair', args: [{ int: 'x' }] })).toThrow(
      'invalid int literal at $.args[0]',
    );
    expect(() => M.toMicheline({ prim: 'a b' })).toThrow(/invalid primitive name/);
    expect(() => M.parseMichelsonExpression('Pair 1 (')).toThrow(M.MichelsonDataError);
  });
});

describe.skipIf(!hasShared)('robustness over the corpus', () => {
  const dir = path.join(SHARED, 'fixtures/contracts');
  const dirs = hasShared
    ? readdirSync(dir).filter(
        (d) => existsSync(path.join(dir, d, 'code.json')) && existsSync(path.join(dir, d, 'storage.json')),
      )
    : [];
  it.each(dirs.slice(0, 40).map((d) => [d] as const))('%s', (d) => {
    const read = (f: string) => JSON.parse(readFileSync(path.join(dir, d, f), 'utf8')) as Micheline;
    exercise(read('code.json'), read('storage.json'), fuzzer(d.length * 31));
  });
});
