import { describe, expect, it } from 'vitest';
import { emptyModel, entrypointModel, storageModel } from '../src/default-model';
import { formToMicheline } from '../src/form-data';
import { jsonSchema } from '../src/json-schema';
import type { Micheline } from '../src/micheline';
import { parseMichelsonExpression } from '../src/micheline';
import { toMiguel } from '../src/miguel';
import { valueStrings } from '../src/script-facts';
import { enrichBigMaps, normalizeValue } from '../src/value-forms';
import { parseTimestamp } from '../src/value';
import type { BigMapDiffEntry } from '../src/value-forms';
import { goldenCases, hasShared } from './golden';

describe.skipIf(!hasShared)('value goldens', () => {
  type TbnIn = { type: Micheline; value: Micheline; optimized: boolean };
  // Settle then serialise back: the value comes back unchanged (literal forms kept)
  it.each(goldenCases<TbnIn>('to-base-node.json').map((c) => [c.name, c] as const))(
    'to-base-node.json %s',
    (_n, c) => {
      expect(normalizeValue(c.input.type, c.input.value)).toEqual(c.expected);
    },
  );
  type EnrichIn = { type: Micheline; value: Micheline; big_map_diffs: BigMapDiffEntry[] };
  it.each(goldenCases<EnrichIn>('enrich-big-map.json').map((c) => [c.name, c] as const))(
    'enrich-big-map.json %s',
    (_n, c) => {
      expect(JSON.stringify(enrichBigMaps(c.input.type, c.input.value, c.input.big_map_diffs))).toBe(
        JSON.stringify(c.expected),
      );
    },
  );
  type StrIn = { tree: Micheline; try_unpack: boolean };
  it.each(goldenCases<StrIn>('untyped-get-strings.json').map((c) => [c.name, c] as const))(
    'untyped-get-strings.json %s',
    (_n, c) => {
      expect(valueStrings(c.input.tree, c.input.try_unpack)).toEqual(c.expected);
    },
  );
});

describe('value forms', () => {
  const t = parseMichelsonExpression('pair (address %a) (timestamp %t) (key_hash %k)');
  const readable = parseMichelsonExpression(
    'Pair "KT1W8fz6dG7Cg6Lnac6dvSD8dV7Ts7q4Pdr8" "2020-12-08T19:53:51Z" "tz1eKkWU5hGtfLUiqNpucHrXymm83z3DG9Sq"',
  );
  const optimized = parseMichelsonExpression(
    'Pair 0x01ec634b3c5e0ecfe4899310e4e5e4a0a87b8f117500 (Pair 1607457231 0x00ccf564a5a0bdb15c3dbdf84d68dacac3e1f968a3)',
  );
  it('converts between readable and optimized forms', () => {
    expect(normalizeValue(t, readable, 'optimized')).toEqual(optimized);
    expect(normalizeValue(t, optimized, 'readable')).toEqual(normalizeValue(t, readable));
  });
  it('binarises comb pairs and rejects mismatches', () => {
    expect(
      normalizeValue(parseMichelsonExpression('pair nat nat nat'), [
        { int: '1' },
        { int: '2' },
        { int: '3' },
      ]),
    ).toEqual(parseMichelsonExpression('Pair 1 (Pair 2 3)'));
    expect(() => normalizeValue({ prim: 'nat' }, { string: 'x' })).toThrow(/does not match type nat/);
  });
});

describe('default_model', () => {
  const storageT = parseMichelsonExpression(
    'pair (address %admin) (pair (map %balances address nat) (option %pending (pair (nat %amount) (timestamp %at)))) (or %mode (unit %open) (nat %closed))',
  );
  const storage = parseMichelsonExpression(
    'Pair "tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a" (Pair { Elt "tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a" 5 } (Some (Pair 7 1602590721))) (Right 3)',
  );
  it('lifts the storage root and converts back to the same value (fork)', () => {
    const model = storageModel(storageT, storage);
    expect(model).toEqual({
      admin: 'tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a',
      '@pair_3': {
        '@pair_4': {
          balances: [{ '@address_6': 'tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a', '@nat_7': '5' }],
          pending: { schemaKey: 'Some', '@pair_9': { amount: '7', at: '2020-10-13T12:05:21Z' } },
        },
        mode: { schemaKey: 'R', closed: '3' },
      },
    });
    expect(toMiguel(storageT, formToMicheline(storageT, model))).toEqual(toMiguel(storageT, storage));
  });
  it('keys entrypoint models by the entrypoint node', () => {
    const p = parseMichelsonExpression('or (pair %approve (address %spender) (nat %value)) (nat %burn)');
    expect(
      entrypointModel(
        p,
        'approve',
        parseMichelsonExpression('Pair "tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a" 10'),
      ),
    ).toEqual({
      approve: { spender: 'tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a', value: '10' },
    });
  });
  it('builds an empty model from a schema', () => {
    const m = emptyModel(jsonSchema(storageT));
    expect(m).toEqual({
      admin: '',
      '@pair_3': { '@pair_4': { balances: [], pending: { schemaKey: 'None' } }, mode: { schemaKey: 'L' } },
    });
  });
});

describe.skipIf(!hasShared)('timestamp-parse.json goldens', () => {
  type In = { micheline: Micheline };
  it.each(goldenCases<In>('timestamp-parse.json').map((c) => [c.name, c] as const))('%s', (_n, c) => {
    const want = c.expected as { unix_seconds: number | string; rfc3339: string | null };
    const got = parseTimestamp(c.input.micheline);
    expect(got.unixSeconds).toBe(String(want.unix_seconds));
    expect(got.rfc3339 ?? null).toBe(want.rfc3339);
  });
});
