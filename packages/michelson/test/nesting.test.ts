import { describe, expect, it } from 'vitest';
import {
  inputExcess,
  jsonNestedTooDeeply,
  MAX_INPUT_DEPTH,
  parseMichelsonExpression,
  parseMichelsonScript,
  textNestedTooDeeply,
  toMicheline,
} from '../src/index';

const nest = (depth: number): unknown => {
  let v: unknown = { int: '1' };
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

describe('input nesting limits', () => {
  it('measures JSON depth iteratively, at the limit and past it', () => {
    expect(jsonNestedTooDeeply(nest(MAX_INPUT_DEPTH - 1))).toBe(false);
    expect(jsonNestedTooDeeply(nest(MAX_INPUT_DEPTH))).toBe(true);
    expect(jsonNestedTooDeeply(nest(100_000))).toBe(true);
    expect(jsonNestedTooDeeply('text')).toBe(false);
    expect(jsonNestedTooDeeply(undefined)).toBe(false);
  });

  it('counts Michelson brackets outside strings and comments', () => {
    expect(textNestedTooDeeply('('.repeat(1001))).toBe(true);
    expect(textNestedTooDeeply('{'.repeat(500) + '}'.repeat(500) + '{'.repeat(500))).toBe(false);
    expect(
      textNestedTooDeeply(`"${'('.repeat(2000)}" # ${'{'.repeat(2000)}\n/* ${'['.repeat(2000)} */ 1`),
    ).toBe(false);
  });

  it('refuses deep Micheline and Michelson text with a message, accepts ordinary depth', () => {
    expect(() => toMicheline(nest(5000))).toThrow('Micheline nested deeper than 1000 levels');
    expect(toMicheline(nest(100))).toEqual(nest(100));
    const deepText = `${'(Some '.repeat(3000)}1${')'.repeat(3000)}`;
    expect(() => parseMichelsonExpression(deepText)).toThrow('Michelson text nested deeper than 1000 levels');
    expect(() => parseMichelsonScript(`code ${'{'.repeat(10_000)}`)).toThrow(
      'nested deeper than 1000 levels',
    );
    expect(parseMichelsonExpression(`${'(Some '.repeat(100)}1${')'.repeat(100)}`)).toMatchObject({
      prim: 'Some',
    });
  });
});

describe('int literal limit', () => {
  it('refuses ints longer than 1,000 digits in JSON, Micheline and Michelson text', () => {
    const big = { prim: 'PUSH', args: [{ prim: 'int' }, { int: '-' + '9'.repeat(1001) }] };
    expect(inputExcess([big])).toBe('int literal longer than 1000 digits');
    expect(inputExcess({ int: '9'.repeat(1000) })).toBeUndefined();
    expect(inputExcess(nest(2000))).toBe('JSON nested deeper than 1000 levels');
    expect(() => toMicheline({ int: '1'.repeat(1_000_000) })).toThrow('int literal longer than 1000 digits');
    expect(() => parseMichelsonExpression(`Pair ${'7'.repeat(1_000_000)} 1`)).toThrow(
      'int literal longer than 1000 digits',
    );
    expect(parseMichelsonExpression('9'.repeat(1000))).toEqual({ int: '9'.repeat(1000) });
  });
});
