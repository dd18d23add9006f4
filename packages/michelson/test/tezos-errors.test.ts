// Golden tables of errors.json and tezos-error-descriptions.json (bcd-api §6.13).
import { describe, expect, it } from 'vitest';
import { MichelsonDataError } from '../src/micheline';
import {
  formatTezosError,
  formatTezosErrors,
  isTezosError,
  parseTezosError,
  parseTezosErrors,
  tezosErrorDescription,
  tezosErrorKey,
} from '../src/tezos-errors';
import type { TezosError } from '../src/tezos-errors';
import { GOLDEN, hasShared, readShared } from './golden';

interface Case<I, E> {
  name: string;
  input: I;
  expected: E;
}
interface Parsed {
  fields: Record<string, unknown>;
  details_type: string | null;
  details: Record<string, unknown>;
}
interface ErrorsFile {
  parse: Case<{ error: unknown }, Parsed>[];
  format: Case<Parsed, { with_after_format?: string | null; asserted?: string }>[];
  scan_and_misc: Case<Record<string, unknown>, Record<string, unknown>>[];
}

const file = (
  hasShared ? readShared('fixtures/bcd-golden/errors.json') : { parse: [], format: [], scan_and_misc: [] }
) as ErrorsFile;
const named = <T extends { name: string }>(cs: T[]) => cs.map((c, i) => [`#${i} ${c.name}`, c] as const);

/** Our error in the shape of the golden: common fields, detail type, details. */
function asGolden(e: TezosError): Parsed {
  const { type, ...details } = e.details;
  return { fields: { id: e.id, kind: e.kind, title: e.title, descr: e.descr }, details_type: type, details };
}

describe.skipIf(!hasShared)(`errors.json goldens (${GOLDEN})`, () => {
  it.each(named(file.parse))('parse %s', (_n, c) => {
    expect(asGolden(parseTezosError(c.input.error))).toEqual(c.expected);
  });
  it.each(named(file.format))('format %s', (_n, c) => {
    const e = parseTezosError({ ...c.input.fields, ...c.input.details });
    const out = formatTezosError(e);
    if ('with_after_format' in c.expected) expect(out.with ?? null).toBe(c.expected.with_after_format);
    expect(out.id).toBe(c.input.fields.id);
  });
  const [scan, tezlink] = file.scan_and_misc;
  it('scan: the errors column (bytea text of the JSON) parses', () => {
    const json = JSON.stringify(scan!.input.db_bytes_json);
    const bytea = `\\x${Buffer.from(json).toString('hex')}`;
    const errors = parseTezosErrors(bytea);
    expect(scan!.expected.error).toBe(false);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.title).toBe('Non existing contract');
  });
  it('tezlink error: id, kind, message and Is()', () => {
    const e = parseTezosError(tezlink!.input.error);
    expect(e.id).toBe(tezlink!.expected.id);
    expect(e.kind).toBe(tezlink!.expected.kind);
    expect(e.error_message).toContain(tezlink!.expected.error_message_contains);
    expect(isTezosError(e, 'tezlink_error')).toBe(tezlink!.expected.is_tezlink_error);
    expect(isTezosError(e, 'contract.non_existing_contract')).toBe(
      tezlink!.expected['is_contract.non_existing_contract'],
    );
  });
});

describe.skipIf(!hasShared)('tezos-error-descriptions.json goldens', () => {
  const table = (
    hasShared ? readShared('fixtures/bcd-golden/tezos-error-descriptions.json') : { errors: {} }
  ) as {
    count: number;
    errors: Record<string, { title: string; descr: string }>;
  };
  const entries = Object.entries(table.errors);
  it('has every id', () => expect(entries.length).toBe(table.count));
  it.each(entries)('%s', (id, want) => {
    expect(tezosErrorDescription(id)).toEqual(want);
    expect(tezosErrorDescription(`proto.019-PtParisB.${id}`)).toEqual(want);
  });
});

describe('Tezos errors', () => {
  it('keys drop the protocol part', () => {
    expect(tezosErrorKey('proto.005-PsBabyM1.michelson_v1.script_rejected')).toBe(
      'michelson_v1.script_rejected',
    );
    expect(tezosErrorKey('tezlink_error')).toBe('tezlink_error');
  });
  it('unknown ids keep their own title/descr, else id and kind', () => {
    const e = parseTezosError({ kind: 'branch', id: 'proto.099-PtFuture.some.new_error' });
    expect([e.title, e.descr]).toEqual(['proto.099-PtFuture.some.new_error', 'branch']);
    const f = parseTezosError({ kind: 'branch', id: 'proto.099-PtFuture.x', title: 'T', descr: 'D' });
    expect([f.title, f.descr]).toEqual(['T', 'D']);
  });
  it('formats FAILWITH values, unpacking PACKed bytes', () => {
    const packed = { bytes: '050100000003616263' }; // PACK "abc"
    const out = formatTezosErrors([
      {
        kind: 'temporary',
        id: 'proto.018-Proxford.michelson_v1.script_rejected',
        location: 12,
        with: packed,
      },
      {
        kind: 'temporary',
        id: 'proto.018-Proxford.michelson_v1.script_rejected',
        location: 0,
        with: { prim: 'Pair', args: [{ int: '1' }, { string: 'x' }] },
      },
    ]);
    expect(out?.[0]).toMatchObject({ title: 'Script failed', location: 12, with: '"abc"' });
    expect(out?.[1]).toEqual({
      id: 'proto.018-Proxford.michelson_v1.script_rejected',
      kind: 'temporary',
      title: 'Script failed',
      descr: 'A FAILWITH instruction was reached',
      with: 'Pair 1 "x"',
    });
  });
  it('formats balance_too_low and invalid constants', () => {
    const [low, constant] = formatTezosErrors([
      {
        kind: 'temporary',
        id: 'proto.004-Pt24m4xi.contract.balance_too_low',
        balance: '5',
        amount: 22571025048,
      },
      {
        kind: 'permanent',
        id: 'proto.005-PsBabyM1.invalidSyntacticConstantError',
        wrongExpression: { int: '0' },
        expectedForm: { prim: 'unit' },
      },
    ])!;
    expect(low).toMatchObject({ balance: '5', amount: '22571025048' });
    expect(constant).toMatchObject({ wrong_expression: '0', expected_form: 'unit' });
  });
  it('keeps both fields of the current syntactic-constant id (expected form as text), titled as Octez does', () => {
    const node = {
      kind: 'permanent',
      id: 'proto.024-PtTALLiN.michelson_v1.invalid_syntactic_constant',
      location: 9,
      expected_form: 'a positive 10-bit integer (between 0 and 1023)',
      wrong_expression: { int: '1024' },
    };
    const [current, old] = formatTezosErrors([
      node,
      {
        kind: 'permanent',
        id: 'proto.004-Pt24m4xi.invalidSyntacticConstantError',
        wrong_expression: { prim: 'Pair', args: [{ int: '1' }, { string: 'a' }] },
        expected_form: { prim: 'nat' },
      },
    ])!;
    expect(current).toEqual({
      id: node.id,
      kind: 'permanent',
      title: 'Invalid constant (parse error)',
      descr: 'A compile-time constant was invalid for its expected form.',
      wrong_expression: '1024',
      expected_form: 'a positive 10-bit integer (between 0 and 1023)',
    });
    expect(old).toMatchObject({ wrong_expression: 'Pair 1 "a"', expected_form: 'nat' });
    expect(parseTezosError({ ...node, wrong_expression: { string: 'x' } }).details).toMatchObject({
      type: 'InvalidSyntacticConstantError',
      wrong_expression: { string: 'x' },
      expected_form: node.expected_form,
    });
  });
  it('never crashes on untrusted errors', () => {
    expect(formatTezosErrors('not json')).toBeUndefined();
    expect(formatTezosErrors({})).toBeUndefined();
    expect(
      formatTezosErrors([
        null,
        5,
        { id: 'x.y.contract.balance_too_low', kind: 'temporary', balance: 'lots' },
      ]),
    ).toEqual([
      { id: 'unknown', kind: 'temporary', title: 'unknown', descr: 'temporary' },
      { id: 'unknown', kind: 'temporary', title: 'unknown', descr: 'temporary' },
      {
        id: 'x.y.contract.balance_too_low',
        kind: 'temporary',
        title: 'Balance too low',
        descr: 'An operation tried to spend more tokens than the contract has',
      },
    ]);
    expect(() => parseTezosError({ id: 'a', kind: 'b', with: { prim: 3 } })).toThrow(MichelsonDataError);
    expect(() => parseTezosErrors('{"a":1}')).toThrow(/array/);
  });
});
