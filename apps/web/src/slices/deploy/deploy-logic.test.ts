import { describe, expect, it } from 'vitest';
import {
  DEPLOY_MESSAGES,
  fileError,
  MAX_CODE_BYTES,
  parseCode,
  scriptEntrypoints,
  storageValue,
} from './deploy-logic';
import { callParameters } from '../contract/interact/call-logic';

const ADDER = `parameter int;
storage (pair (int %total) (string %label));
code { UNPAIR; DIP { UNPAIR }; ADD; PAIR; NIL operation; PAIR }`;

describe('deploy: code file', () => {
  it('enforces the 1 MB limit and a chosen file', () => {
    expect(fileError(null)).toBe('You should select file to upload');
    expect(fileError({ size: MAX_CODE_BYTES })).toBe('Code file size should be less than 1MB');
    expect(fileError({ size: MAX_CODE_BYTES - 1 })).toBeNull();
  });
  it('reads the storage form of a script and turns the filled form into the initial storage', () => {
    const parsed = parseCode(ADDER);
    expect(parsed.code).toHaveLength(3);
    expect(Object.keys(parsed.schema.properties ?? {})).toEqual(['total', 'label']);
    expect(parsed.model).toEqual({ total: 0, label: '' });
    expect(parsed.typedef[0]?.type).toBe('pair');
    expect(storageValue(parsed.storageType, { total: 40, label: 'e2e' })).toEqual({
      prim: 'Pair',
      args: [{ int: '40' }, { string: 'e2e' }],
    });
  });
  it('rejects text that is not a complete script', () => {
    expect(() => parseCode('storage int; code { CDR }')).toThrow('The script has no parameter section');
    expect(() => parseCode('parameter (int')).toThrow();
    expect(DEPLOY_MESSAGES.uploadFailed).toBe(
      'Error occured during upload file. Please, check file format and size.',
    );
  });
});

describe('scriptEntrypoints', () => {
  it("gives each entrypoint of a script not yet deployed with its parameter's form schema", () => {
    const { code } = parseCode(
      'parameter (or (int %add) (unit %reset)); storage int; code { CDR; NIL operation; PAIR }',
    );
    const eps = scriptEntrypoints(code);
    expect(eps.map((e) => e.name)).toEqual(['add', 'reset']);
    const add = eps[0]!.schema;
    const field = Object.keys(add.properties ?? {})[0]!;
    expect(add.properties?.[field]?.prim).toBe('int');
    // the form's data makes the call's parameter, as the Interact tab makes it
    expect(callParameters(code, 'add', { [field]: '2' })).toEqual({ entrypoint: 'add', value: { int: '2' } });
    expect(scriptEntrypoints(parseCode('parameter nat; storage nat; code { FAILWITH }').code)).toEqual([
      expect.objectContaining({ name: 'default' }),
    ]);
  });
});
