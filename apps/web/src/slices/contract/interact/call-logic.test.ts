import { describe, expect, it } from 'vitest';
import { parseMichelsonScript } from '@michelscope/michelson';
import {
  callParameters,
  mutezToTez,
  parseBurnCap,
  simulationTotals,
  entrypointLabel,
  burnCapKeyAllowed,
} from './call-logic';
import { validateFormData } from './form-validation';

const CODE = parseMichelsonScript(`
parameter (or (pair %approve (address %spender) (nat %value)) (or (bytes %setMetadata) (unit %default)));
storage unit;
code { CDR; NIL operation; PAIR }`);

// The schema GET …/entrypoints gives for a FA1.2 approve (sandbox seed).
const APPROVE = {
  type: 'object',
  properties: {
    spender: { type: 'string', prim: 'address', title: 'spender', default: '', minLength: 36, maxLength: 36 },
    value: { type: 'integer', prim: 'nat', title: 'value', default: 0 },
  },
};

describe('call parameters', () => {
  it('builds {entrypoint, value} of a named pair entrypoint from the form data', () => {
    expect(
      callParameters(CODE, 'approve', { spender: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx', value: 10 }),
    ).toEqual({
      entrypoint: 'approve',
      value: { prim: 'Pair', args: [{ string: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx' }, { int: '10' }] },
    });
  });
  it('rejects a script without a parameter section', () => {
    expect(() => callParameters(parseMichelsonScript('storage unit; code { CDR }'), 'x', {})).toThrow(
      /no parameter/,
    );
  });
  it("labels the unnamed entrypoint 'NO NAME'", () => {
    expect(entrypointLabel('')).toBe('NO NAME');
    expect(entrypointLabel('mint')).toBe('mint');
  });
});

describe('form validation with the spec texts', () => {
  it('reports address and nat errors with their paths', () => {
    expect(validateFormData(APPROVE as never, { spender: 'tz1short', value: -1 })).toEqual([
      { path: ['spender'], message: 'The length of the address is 36 characters' },
      { path: ['value'], message: 'Nat must be positive' },
    ]);
    expect(
      validateFormData(APPROVE as never, { spender: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx', value: 3 }),
    ).toEqual([]);
  });
  it('checks bytes and list items', () => {
    const schema = {
      type: 'object',
      properties: {
        data: { type: 'string', prim: 'bytes' },
        list: {
          type: 'array',
          items: { type: 'object', properties: { to: { type: 'string', prim: 'contract' } } },
        },
      },
    };
    const errors = validateFormData(schema, { data: 'abc', list: [{ to: 'KT1short' }] });
    expect(errors.map((e) => e.path)).toEqual([['data'], ['list', 0, 'to']]);
    expect(errors[0]?.message).toBe('The length of the byte string must be even');
    expect(errors[1]?.message).toBe('The length of the contract address is 36 characters');
  });
});

describe('burn cap and amounts', () => {
  it('accepts non-negative decimals, strips leading zeros and rejects the rest', () => {
    expect(parseBurnCap('007.5')).toEqual({ value: '7.5' });
    expect(parseBurnCap('.25')).toEqual({ value: '0.25' });
    expect(parseBurnCap('')).toEqual({ value: '' });
    expect(parseBurnCap('1.2.3')).toEqual({ error: 'The value must be a float number' });
    expect(parseBurnCap('-1')).toEqual({ error: 'The value must be a float number' });
    expect(burnCapKeyAllowed('a')).toBe(false);
    expect(burnCapKeyAllowed('.')).toBe(true);
    expect(burnCapKeyAllowed('Backspace')).toBe(true);
  });
  it('shows mutez as tez with up to 6 decimals and sums simulations', () => {
    expect(mutezToTez(1_500_000)).toBe('1.5');
    expect(mutezToTez(1)).toBe('0.000001');
    expect(
      simulationTotals([
        { consumed_gas: 2000, burned: 5 },
        { consumed_gas: 500, burned: 10 },
      ]),
    ).toEqual({ gas: 2.5, burned: 15, storage: 0 });
  });
});
