import { describe, expect, it } from 'vitest';
import {
  forgeAddress,
  forgeInt,
  forgeMicheline,
  forgeString,
  unforgeAddress,
  unforgeInt,
  unforgeMicheline,
  unforgePublicKey,
  unforgeString,
  unforgeBakerHash,
  forgeBakerHash,
} from '../src/binary';
import { MichelsonDataError, parseMichelsonExpression } from '../src/micheline';
import type { Micheline } from '../src/micheline';
import { valueStrings } from '../src/script-facts';
import { packValue } from '../src/hash';
import { goldenCases, hasShared } from './golden';

type In = Record<string, unknown>;

/** forge.json groups cases by function; each maps to one of ours. */
const RUNNERS: [string, (i: In) => unknown][] = [
  ['Michelson binary', (i) => unforgeMicheline(i.hex as string)],
  ['Micheline nodes', (i) => forgeMicheline(i.nodes as Micheline[])],
  ['Int.Unforge', (i) => unforgeInt(i.hex as string)],
  ['Int.encode', (i) => forgeInt(i.value as string)],
  ['String.Unforge', (i) => unforgeString(i.hex as string)],
  ['String.Forge', (i) => forgeString(i.string as string)],
  ['Contract(address)', (i) => forgeAddress(i.value as string)],
  ['UnforgeAddress', (i) => unforgeAddress(i.value as string)],
  ['UnforgeContract', (i) => unforgeAddress(i.value as string)],
  ['UnforgePublicKey', (i) => unforgePublicKey(i.value as string)],
  ['CollectStrings', (i) => valueStrings(i.tree as Micheline, i.try_unpack as boolean)],
  ['Unpack', (i) => unforgeMicheline((i.hex as string).slice(2))],
  ['UnforgeBakerHash', (i) => unforgeBakerHash(i.value as string)],
];

describe.skipIf(!hasShared)('forge.json goldens', () => {
  const cases = goldenCases<In>('forge.json')
    .map((c) => ({
      c,
      run: RUNNERS.find(([prefix]) =>
        (c as unknown as { function: string }).function.startsWith(prefix),
      )?.[1],
    }))
    .filter((x) => x.run !== undefined);
  it('runs every case of the file', () => expect(cases.length).toBe(130));
  it.each(cases.map((x) => [x.c.name, x] as const))('%s', (_n, { c, run }) => {
    if (c.expected_error) expect(() => run!(c.input)).toThrow(MichelsonDataError);
    else expect(run!(c.input)).toEqual(c.expected);
  });
});

describe('binary Micheline', () => {
  it('round-trips real values and agrees with PACK', () => {
    const v = parseMichelsonExpression(
      'Pair { Elt "a" (Some 0x00ff) } (Left -1234567890123) (pair %p :t nat nat nat)',
    );
    const hex = forgeMicheline(v, true);
    expect(unforgeMicheline(hex)).toEqual([v]);
    const packed = parseMichelsonExpression('Pair "x" (Pair 1 { 2 ; 3 })');
    expect(`05${forgeMicheline(packed, true)}`).toBe(packValue(packed));
  });
  it('rejects truncated or unknown data', () => {
    expect(() => unforgeMicheline('0100000009aa')).toThrow(MichelsonDataError);
    expect(() => unforgeMicheline('03ff')).toThrow(/unknown opcode/);
    expect(() => unforgeMicheline('0x0')).toThrow(/invalid hex/);
  });
});

describe('baker hashes', () => {
  it('round-trip and reject bad input', () => {
    expect(forgeBakerHash('SG1d1wsgMKvSstzZQ8L4WoskCesdWGzVt5k4')).toBe(
      '94697e9229c88fac7d19d62e139ca6735f9569dd',
    );
    expect(() => unforgeBakerHash('94697e')).toThrow(MichelsonDataError);
    expect(() => forgeBakerHash('tz1LFEVYR7YRCxT6Nm3Zfjdnfj77xZqhbR5U')).toThrow(MichelsonDataError);
  });
});
