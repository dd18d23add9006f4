// Golden tables of ordered-map.json, formatter-skip-spaces.json, offchain-view-code.json and api-handlers.json.
import { describe, expect, it } from 'vitest';
import { diffMichelsonCode, DIFF_LINE_SIZE, skipSpaces } from '../src/code-diff';
import type { CodeDiffItem } from '../src/code-diff';
import { formatMichelson } from '../src/format';
import {
  MichelsonDataError,
  parseMichelsonExpression,
  parseMichelsonScript,
  toMicheline,
} from '../src/micheline';
import { lambdasInValue } from '../src/script-facts';
import type { Micheline } from '../src/micheline';
import { offchainViewInput, offchainViewResult, offchainViewScript } from '../src/offchain-view';
import { OrderedMap } from '../src/ordered-map';
import { eventPayloadMiguel, runCodeOperations } from '../src/run-results';
import { goldenCases, hasShared, readShared } from './golden';

interface MapIn {
  adds: { key: Micheline; value: Micheline }[];
  get_key: Micheline;
  remove_key: Micheline;
}
interface MapOut {
  keys_in_order: Micheline[];
  get_value: Micheline;
  len_after_remove: number;
}

describe.skipIf(!hasShared)('ordered-map.json goldens', () => {
  it.each(goldenCases<MapIn, MapOut>('ordered-map.json').map((c) => [c.name, c] as const))('%s', (_n, c) => {
    const m = new OrderedMap<Micheline>({ prim: 'string' });
    for (const { key, value } of c.input.adds) m.add(key, value);
    expect(m.keys()).toEqual(c.expected.keys_in_order);
    expect(m.get(c.input.get_key)).toEqual(c.expected.get_value);
    expect(m.remove(c.input.remove_key)).toBe(true);
    expect(m.size).toBe(c.expected.len_after_remove);
  });
});

describe('OrderedMap', () => {
  it('orders by the key type (numbers numerically, pairs component-wise, addresses by bytes)', () => {
    const ints = new OrderedMap<string>({ prim: 'int' });
    for (const n of ['10', '-3', '2', '100']) ints.add({ int: n }, n);
    expect(ints.entries().map(([, v]) => v)).toEqual(['-3', '2', '10', '100']);
    const pairs = new OrderedMap<number>(parseMichelsonExpression('pair nat string'));
    pairs
      .add(parseMichelsonExpression('Pair 1 "b"'), 1)
      .add(parseMichelsonExpression('Pair 1 "a"'), 2)
      .add(parseMichelsonExpression('Pair 0 "z"'), 3);
    expect(pairs.entries().map(([, v]) => v)).toEqual([3, 2, 1]);
    const addrs = new OrderedMap<number>({ prim: 'address' });
    addrs
      .add({ string: 'KT1HBy1L43tiLe5MVJZ5RoxGy53Kx8kMgyoU' }, 1)
      .add({ string: 'tz1dMH7tW7RhdvVMR4wKVFF1Ke8m8ZDvrTTE' }, 2);
    expect(addrs.entries().map(([, v]) => v)).toEqual([2, 1]); // implicit accounts sort before contracts
    expect(addrs.has({ string: 'tz1dMH7tW7RhdvVMR4wKVFF1Ke8m8ZDvrTTE' })).toBe(true);
    expect(addrs.remove({ string: 'tz1KfEsrtDaA1sX7vdM4qmEPWuSytuqCDp5j' })).toBe(false);
  });
  it('rejects keys of another type', () => {
    const m = new OrderedMap<number>({ prim: 'nat' });
    m.add({ int: '1' }, 1);
    expect(() => m.add({ string: 'x' }, 2)).toThrow(MichelsonDataError);
  });
});

describe.skipIf(!hasShared)('formatter-skip-spaces.json goldens', () => {
  it.each(
    goldenCases<{ s: string; offset: number }, number>('formatter-skip-spaces.json').map(
      (c) => [c.name, c] as const,
    ),
  )('%s', (_n, c) => expect(skipSpaces(c.input.s, c.input.offset)).toBe(c.expected));
});

interface ViewIn {
  parameter: unknown;
  code: unknown;
  return_type: unknown;
  storage_type: unknown;
}

describe.skipIf(!hasShared)('offchain-view-code.json goldens', () => {
  it.each(goldenCases<ViewIn, unknown>('offchain-view-code.json').map((c) => [c.name, c] as const))(
    '%s',
    (_n, c) => {
      const build = () =>
        offchainViewScript({
          parameter: c.input.parameter,
          code: c.input.code,
          returnType: c.input.return_type,
          storageType: c.input.storage_type,
        });
      if (c.expected_error) expect(build).toThrow(MichelsonDataError);
      else expect(JSON.stringify(build())).toBe(JSON.stringify(c.expected));
    },
  );
});

describe('off-chain views', () => {
  const view = {
    parameter: { prim: 'nat' },
    code: [{ prim: 'UNPAIR' }, { prim: 'ADD' }],
    returnType: { prim: 'nat' },
    storageType: { prim: 'nat' },
  };
  it('builds a script whose parameter carries input and storage', () => {
    const [param, storage, code] = offchainViewScript(view);
    expect(param).toEqual(parseMichelsonExpression('parameter (pair nat nat)'));
    expect(storage).toEqual(parseMichelsonExpression('storage (option nat)'));
    expect((code!.args![0] as Micheline[])[1]).toEqual(view.code);
    expect(offchainViewInput({ int: '5' }, { int: '2' })).toEqual(parseMichelsonExpression('Pair 2 5'));
    expect(offchainViewInput({ int: '5' })).toEqual({ int: '5' });
  });
  it('reads the result storage', () => {
    expect(offchainViewResult(view.returnType, parseMichelsonExpression('Some 7'))?.[0]?.value).toBe('7');
    expect(offchainViewResult(view.returnType, { prim: 'None' })).toBeNull();
    expect(() => offchainViewResult(view.returnType, { int: '1' })).toThrow(/option/);
  });
  it('refuses malformed metadata', () => {
    expect(() => offchainViewScript({ ...view, code: '[{"prim":' })).toThrow(/not valid JSON/);
    expect(() => offchainViewScript({ ...view, returnType: { prim: 1 } })).toThrow(MichelsonDataError);
  });
});

interface HandlerCase {
  name: string;
  input: Record<string, unknown>;
  expected: Record<string, unknown>;
}

describe.skipIf(!hasShared)(
  'api-handlers.json goldens (the pure parts: event payloads, run_code internal operations)',
  () => {
    const cases = goldenCases<Record<string, unknown>, Record<string, unknown>>(
      'api-handlers.json',
    ) as HandlerCase[];
    const [noPayload, withPayload, runCode] = cases;
    it('an event without payload has no payload (and does not fail)', () => {
      const op = (noPayload!.input.operations as { payload_type: unknown; payload: unknown }[])[0]!;
      expect(noPayload!.expected['response[0].payload']).toBeNull();
      expect(eventPayloadMiguel(op.payload_type, op.payload)).toBeUndefined();
    });
    it('an event payload is a Miguel array', () => {
      const op = (withPayload!.input.operations as { payload_type: unknown; payload: unknown }[])[0]!;
      const payload = eventPayloadMiguel(op.payload_type, op.payload)!;
      expect(payload).toHaveLength(withPayload!.expected['response[0].payload.length'] as number);
      expect(payload[0]!.value).toBe(withPayload!.expected['response[0].payload[0].value']);
      expect(payload[0]).toMatchObject({ prim: 'nat', type: 'nat', name: '@nat_1' });
    });
    it('run_code internal events get amount 0 and an empty destination', () => {
      const ops = runCodeOperations(runCode!.input.run_code_response);
      expect(1 + ops.length).toBe(runCode!.expected.length);
      expect(ops[0]!.kind).toBe(runCode!.expected['operations[1].kind']);
      expect(ops[0]!.amount).toBe(runCode!.expected['operations[1].amount']);
      expect(ops[0]!.destination).toBe(runCode!.expected['operations[1].destination']);
      expect(ops[0]!.source).toBe('KT1FSSJtvHsRL3orgtj8mBi4EoaKJyStG2FF');
    });
  },
);

describe('run_code results', () => {
  it('reads transactions, originations and events, skipping junk', () => {
    const ops = runCodeOperations({
      operations: [
        {
          kind: 'transaction',
          source: 'KT1',
          destination: 'tz1x',
          amount: '15',
          parameters: { entrypoint: 'do', value: { int: '1' } },
        },
        { kind: 'origination', source: 'KT1', balance: '7' },
        { kind: 'event', source: 'KT1', tag: 'moved', type: { prim: 'nat' }, payload: { int: '3' } },
        null,
        { kind: 'transaction', amount: 'lots', parameters: { value: { prim: 7 } } },
      ],
    });
    expect(ops.map((o) => [o.kind, o.amount, o.destination])).toEqual([
      ['transaction', 15, 'tz1x'],
      ['origination', 7, ''],
      ['event', 0, ''],
      ['transaction', 0, ''],
    ]);
    expect(ops[0]).toMatchObject({ entrypoint: 'do', value: { int: '1' } });
    expect(eventPayloadMiguel(ops[2]!.payloadType, ops[2]!.payload)?.[0]?.value).toBe('3');
    expect(ops[3]!.value).toBeUndefined();
    expect(runCodeOperations('nope')).toEqual([]);
    expect(() => eventPayloadMiguel({ prim: 'nat' }, { string: 'x' })).toThrow(MichelsonDataError);
  });
});

describe.skipIf(!hasShared)(
  'operation-parsers-misc.json: lambda-migration cases (the pure rule; the indexer owns the rest)',
  () => {
    const cases = goldenCases<{ file?: string }, { migrations?: unknown[] }>(
      'operation-parsers-misc.json',
    ).filter((c) => (c as unknown as { function: string }).function.startsWith('Migration.Parse'));
    it('has both cases', () => expect(cases).toHaveLength(2));
    it.each(cases.map((c) => [c.name, c] as const))('%s', (_n, c) => {
      const op = readShared(`fixtures/${c.input.file!}`) as {
        metadata: { operation_result: { big_map_diff?: { value?: unknown }[] } };
      };
      const diffs = op.metadata.operation_result.big_map_diff ?? [];
      const withLambda = diffs.filter(
        (d) => d.value != null && lambdasInValue(toMicheline(d.value)).length > 0,
      );
      // One `lambda` migration per operation whose big-map updates store a PACKed lambda.
      expect(withLambda.length > 0 ? 1 : 0).toBe(c.expected.migrations!.length);
    });
  },
);

describe('Michelson code diff', () => {
  const text = (row: CodeDiffItem[]): string => row.map((x) => x.chunk).join('');
  const sideText = (rows: CodeDiffItem[][]): string =>
    rows
      .filter((r) => r.length > 0)
      .map(text)
      .join('\n');
  const a = parseMichelsonScript(
    'parameter (or (nat %add) (nat %sub)); storage nat; code { UNPAIR ; IF_LEFT { ADD } { SWAP ; SUB ; ISNAT ; IF_NONE { PUSH string "too low" ; FAILWITH } {} } ; NIL operation ; PAIR }',
  );
  const b = parseMichelsonScript(
    'parameter (or (nat %add) (nat %sub)); storage nat; code { UNPAIR ; IF_LEFT { ADD ; PUSH nat 1 ; ADD } { SWAP ; SUB ; ISNAT ; IF_NONE { PUSH string "balance too low" ; FAILWITH } {} } ; NIL operation ; PAIR }',
  );

  it('finds nothing between equal scripts', () => {
    const d = diffMichelsonCode(a, a);
    expect([d.removed, d.added, d.changed]).toEqual([0, 0, 0]);
    expect(d.left).toEqual(d.right.map((r) => r.map((x) => ({ ...x, type: x.type === 2 ? -2 : x.type }))));
    expect(d.left.flat().every((x) => x.type === 0 || x.type === -2)).toBe(true);
  });
  it('marks inserted text on the right, aligned with the common lines, re-wrapping not counted', () => {
    const d = diffMichelsonCode(a, b);
    expect([d.removed, d.added]).toEqual([0, 2]);
    expect(d.left).toHaveLength(d.right.length);
    expect(sideText(d.left)).toBe(formatMichelson(a, { lineSize: DIFF_LINE_SIZE }));
    expect(sideText(d.right)).toBe(formatMichelson(b, { lineSize: DIFF_LINE_SIZE }));
    const added = d.right
      .flat()
      .filter((x) => x.type === 1)
      .map((x) => x.chunk);
    expect(added.join('|')).toMatch(/PUSH nat 1/);
    expect(added.join('|')).toMatch(/balance /);
    expect(d.left.flat().some((x) => x.type === -1)).toBe(false);
    const row = d.right.findIndex((r) => text(r).includes('NIL operation'));
    expect(text(d.left[row]!).trim()).toBe('NIL operation ;');
    expect(
      d.right
        .flat()
        .filter((x) => x.type === 2)
        .every((x) => /^ +$/.test(x.chunk)),
    ).toBe(true);
  });
  it('reverses: removed on the left', () => {
    const d = diffMichelsonCode(b, a);
    expect([d.removed, d.added]).toEqual([2, 0]);
    expect(d.left.flat().filter((x) => x.type === -1).length).toBeGreaterThan(0);
  });
  it.skipIf(!hasShared)('shows only the edits between two versions of a real contract', () => {
    const code = readShared('fixtures/contracts/by-alias/typed_minter/code.json') as Micheline;
    let edits = 0;
    const edited = JSON.parse(JSON.stringify(code), (_k, v: unknown) =>
      v && typeof v === 'object' && 'int' in v && edits < 3 && ++edits ? { int: '424242' } : v,
    ) as Micheline;
    expect(edits).toBe(3);
    const d = diffMichelsonCode(code, edited);
    expect(d.added).toBe(3);
    // `DUG 2` → `DUG 424242` keeps the 2 in common: that row has an insertion only.
    expect(d.removed).toBe(2);
    const changedRows = d.right.filter((r) => r.some((x) => x.type === 1));
    expect(changedRows).toHaveLength(3);
    for (const row of changedRows) expect(text(row)).toMatch(/PUSH nat 424242 ;|DUG 424242 ;/);
    const chunks = [...d.left.flat(), ...d.right.flat()].filter((x) => x.type === 1 || x.type === -1);
    expect(chunks.every((x) => /^\d+$/.test(x.chunk.trim()))).toBe(true);
  });
  it.skipIf(!hasShared)(
    'lays real contracts out exactly on both sides',
    () => {
      const pairs: [string, string][] = [
        ['fxhash_moderation_team', 'fxhash_moderation_user'],
        ['harbinger_oracle__coinbase_normalizer', 'harbinger_oracle__coinbase_storage'],
        ['typed_minter', 'typed_marketplace'],
      ];
      for (const [x, y] of pairs) {
        const l = readShared(`fixtures/contracts/by-alias/${x}/code.json`) as Micheline;
        const r = readShared(`fixtures/contracts/by-alias/${y}/code.json`) as Micheline;
        const d = diffMichelsonCode(l, r);
        expect(sideText(d.left)).toBe(formatMichelson(l, { lineSize: DIFF_LINE_SIZE }));
        expect(sideText(d.right)).toBe(formatMichelson(r, { lineSize: DIFF_LINE_SIZE }));
        expect(d.removed + d.added).toBeGreaterThan(0);
        expect(d.left).toHaveLength(d.right.length);
        expect(diffMichelsonCode(l, l).removed).toBe(0);
      }
    },
    60_000,
  );
});
