// Golden tables of ordered-map.json, offchain-view-code.json and api-handlers.json.
import { describe, expect, it } from 'vitest';
import { MichelsonDataError, parseMichelsonExpression, toMicheline } from '../src/micheline';
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
