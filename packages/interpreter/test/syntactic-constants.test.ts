/**
 * Count arguments Octez refuses (`parse_uint10` / `parse_uint11` of its typechecker): an origination
 * fails with `ill_typed_contract` then `invalid_syntactic_constant` {location, expected_form,
 * wrong_expression}, as Octez traces it; counts in range are not refused.
 */
import { describe, expect, it } from 'vitest';
import type { OctezError } from '../src/index';
import { originateContract, parseScript } from '../src/index';

const TEN = 'a positive 10-bit integer (between 0 and 1023)';
const ELEVEN = 'a positive 11-bit integer (between 0 and 2047)';

function originate(code: string): OctezError[] {
  const r = originateContract({
    script: `parameter unit; storage unit; code ${code}`,
    storage: { prim: 'Unit' },
  });
  return r.ok ? [] : r.errors;
}
const constantOf = (errors: OctezError[]) => errors.find((e) => e.id.endsWith('.invalid_syntactic_constant'));

describe('invalid_syntactic_constant', () => {
  it('DROP 1024: the ill-typed contract, then the constant at its location with both forms', () => {
    const src = 'parameter unit; storage unit; code { DROP 1024; UNIT; NIL operation; PAIR }';
    const r = originateContract({ script: src, storage: { prim: 'Unit' } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      {
        kind: 'permanent',
        id: 'proto.024-PtTALLiN.michelson_v1.ill_typed_contract',
        ill_typed_code: parseScript(src),
        type_map: [],
      },
      {
        kind: 'permanent',
        id: 'proto.024-PtTALLiN.michelson_v1.invalid_syntactic_constant',
        // root 0, parameter 1, unit 2, storage 3, unit 4, code 5, { 6, DROP 7, 1024 8
        location: 8,
        expected_form: TEN,
        wrong_expression: { int: '1024' },
      },
    ]);
  });

  // Each instruction at its largest accepted count is not refused (it may fail for its stack), one more is.
  it.each([
    ['DROP', '{ DROP %n }', 1023, TEN],
    ['DUP', '{ DUP %n }', 1023, TEN],
    ['DIG', '{ DIG %n }', 1023, TEN],
    ['DUG', '{ DUG %n }', 1023, TEN],
    ['DIP', '{ DIP %n { } }', 1023, TEN],
    ['PAIR', '{ PAIR %n }', 1023, TEN],
    ['UNPAIR', '{ UNPAIR %n }', 1023, TEN],
    ['GET', '{ GET %n }', 2047, ELEVEN],
    ['UPDATE', '{ UNIT; UPDATE %n }', 2047, ELEVEN],
  ] as const)('%s: %i accepted, one more refused', (_prim, code, max, form) => {
    expect(constantOf(originate(code.replace('%n', String(max))))).toBeUndefined();
    expect(constantOf(originate(code.replace('%n', String(max + 1))))).toMatchObject({
      expected_form: form,
      wrong_expression: { int: String(max + 1) },
    });
  });

  it('refuses negative and non-integer counts (which michel-codec reads as 0)', () => {
    expect(constantOf(originate('{ DROP -1; UNIT; NIL operation; PAIR }'))).toMatchObject({
      wrong_expression: { int: '-1' },
    });
    expect(constantOf(originate('{ DROP "x"; UNIT; NIL operation; PAIR }'))).toMatchObject({
      wrong_expression: { string: 'x' },
      expected_form: TEN,
    });
  });

  it('a type error met before the count is reported instead; a count read before its body wins', () => {
    const before = originate('{ DROP; ADD; DROP 1024 }');
    expect(constantOf(before)).toBeUndefined();
    expect(before[0]?.id).toMatch(/ill_typed_contract$/);
    // DIP n reads n before typing its body (whose ADD would fail).
    expect(constantOf(originate('{ CDR; NIL operation; PAIR; DIP 1024 { ADD } }'))).toMatchObject({
      location: 12,
      wrong_expression: { int: '1024' },
    });
  });

  it('a refused count inside a pushed lambda fails the origination too', () => {
    const errors = originate(
      '{ DROP; LAMBDA unit unit { DROP 2000; UNIT }; DROP; UNIT; NIL operation; PAIR }',
    );
    expect(constantOf(errors)).toMatchObject({ wrong_expression: { int: '2000' } });
  });
});
