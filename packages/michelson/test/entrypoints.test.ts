import { describe, expect, it } from 'vitest';
import { findEntrypoint } from '../src/entrypoints';
import { parseMichelsonExpression } from '../src/micheline';
import { typeToMicheline } from '../src/type-tree';

// or (or %swap (nat %a) unit) (or (string %b) bytes): two named leaves, one named inner or, two unnamed leaves
const param = parseMichelsonExpression('or (or %swap (nat %a) unit) (or (string %b) bytes)');
const typeOf = (name: string, generatedNames?: boolean) => {
  const f = findEntrypoint(param, name, generatedNames === undefined ? {} : { generatedNames });
  return f && { path: f.path, type: typeToMicheline(f.node) };
};

describe('findEntrypoint: one lookup, two naming rules', () => {
  it('finds field annotations (named inner ors included) and the root as default, under both rules', () => {
    for (const generatedNames of [true, false]) {
      expect(typeOf('a', generatedNames)).toEqual({ path: 'LL', type: { prim: 'nat', annots: ['%a'] } });
      expect(typeOf('swap', generatedNames)?.path).toBe('L');
      expect(typeOf('b', generatedNames)).toEqual({ path: 'RL', type: { prim: 'string', annots: ['%b'] } });
      expect(typeOf('default', generatedNames)?.path).toBe('');
      expect(typeOf('nope', generatedNames)).toBeUndefined();
    }
  });

  it("the explorer's rule (default) also answers the generated names of unnamed leaves", () => {
    // the leaves in order: a, entrypoint_1 (unit), b, entrypoint_3 (bytes)
    expect(typeOf('entrypoint_1')).toEqual({ path: 'LR', type: { prim: 'unit' } });
    expect(typeOf('entrypoint_3')).toEqual({ path: 'RR', type: { prim: 'bytes' } });
  });

  it("Octez's rule (generatedNames: false) knows only field annotations", () => {
    expect(typeOf('entrypoint_1', false)).toBeUndefined();
    expect(typeOf('entrypoint_3', false)).toBeUndefined();
  });
});
