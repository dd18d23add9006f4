import { describe, expect, it } from 'vitest';
import { assertDataValid } from '@taquito/michel-codec';
import { entrypointSchemaOf, jsonSchema } from '../src/json-schema';
import type { JsonSchema } from '../src/json-schema';
import { formToMicheline, FormValidationError, parametersForExecution } from '../src/form-data';
import type { Micheline } from '../src/micheline';
import { parseMichelsonExpression } from '../src/micheline';
import { buildTypeTree, entrypointLeaves, typeToMicheline } from '../src/type-tree';
import { goldenCases, hasShared } from './golden';

type TypeInput = { type: Micheline };
type FormInput = { type: Micheline; form_data: unknown };

/** Replaces the `$NOW_RFC3339` placeholder with the RFC 3339 time our schema holds. */
function withNow(expected: unknown, got: unknown): unknown {
  const now = JSON.stringify(got).match(/"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"/)?.[1];
  return JSON.parse(JSON.stringify(expected).replaceAll('$NOW_RFC3339', now ?? 'missing'));
}

describe.skipIf(!hasShared)('json-schema.json goldens', () => {
  it.each(goldenCases<TypeInput>('json-schema.json').map((c) => [c.name, c] as const))('%s', (_n, c) => {
    const got = jsonSchema(c.input.type);
    expect(got).toEqual(withNow(c.expected, got));
  });
});

describe.skipIf(!hasShared)('form-to-micheline.json goldens', () => {
  it.each(goldenCases<FormInput>('form-to-micheline.json').map((c) => [c.name, c] as const))(
    '%s',
    (_n, c) => {
      if (c.expected_error) {
        expect(() => formToMicheline(c.input.type, c.input.form_data)).toThrow(FormValidationError);
      } else {
        // the reference compares the compact JSON text byte for byte
        expect(JSON.stringify(formToMicheline(c.input.type, c.input.form_data))).toBe(
          JSON.stringify(c.expected),
        );
      }
    },
  );
});

describe.skipIf(!hasShared)('parameters-for-execution.json goldens', () => {
  type In = { type: Micheline; entrypoint: string; form_data: unknown };
  it.each(goldenCases<In>('parameters-for-execution.json').map((c) => [c.name, c] as const))(
    '%s',
    (_n, c) => {
      const run = () => parametersForExecution(c.input.type, c.input.entrypoint, c.input.form_data);
      if (c.expected_error) expect(run).toThrow(FormValidationError);
      else {
        const r = run();
        expect(r.entrypoint).toBe(c.input.entrypoint);
        // the result must be data of the entrypoint's type
        const leaf = entrypointLeaves(buildTypeTree(c.input.type)).find(
          (l) => l.name === c.input.entrypoint,
        )!;
        const { annots: _a, ...bare } = typeToMicheline(leaf.node);
        expect(() => assertDataValid(r.value as never, bare as never)).not.toThrow();
      }
    },
  );
});

describe('form validation texts (spec §5)', () => {
  const nat = parseMichelsonExpression('nat %amount');
  const msg = (type: Micheline, data: unknown): string => {
    try {
      formToMicheline(type, data);
      return 'ok';
    } catch (e) {
      return (e as Error).message;
    }
  };
  it('nat', () => {
    expect(msg(nat, { amount: 'abc' })).toBe('Only digits are allowed');
    expect(msg(nat, { amount: '' })).toBe('Nat field is required');
    expect(msg(nat, { amount: '-5' })).toBe('Nat must be positive');
    expect(msg(nat, { amount: '007' })).toBe("Nat can't starts from zero");
    expect(formToMicheline(nat, { amount: 12 })).toEqual({ int: '12' });
  });
  it('bytes', () => {
    const b = parseMichelsonExpression('bytes %b');
    expect(msg(b, { b: 'abc' })).toBe('The length of the byte string must be even');
    expect(msg(b, { b: 'zz' })).toBe('String must be HEX');
    expect(formToMicheline(b, { b: '0xABcd' })).toEqual({ bytes: 'abcd' });
  });
  it('address and contract', () => {
    const a = parseMichelsonExpression('address %a');
    expect(msg(a, { a: '' })).toBe('Required field');
    expect(msg(a, { a: 'tz1short' })).toBe('The length of the address is 36 characters');
    expect(msg(a, { a: 'tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6b' })).toBe(
      'In this field you should write the address',
    );
    const c = parseMichelsonExpression('contract %c nat');
    expect(msg(c, { c: 'tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a' })).toBe(
      'In this field you should write the address of the contract. It begins with KT.',
    );
    expect(msg(c, { c: 'KT1' })).toBe('The length of the contract address is 36 characters');
    expect(formToMicheline(c, { c: 'KT1VZj8kJYcpqr3fAPC8sLjSNuDvYDz5V39Z%cb' })).toEqual({
      string: 'KT1VZj8kJYcpqr3fAPC8sLjSNuDvYDz5V39Z%cb',
    });
  });
  it('names the unfilled field', () => {
    const t = parseMichelsonExpression('pair (nat %a) (string %b)');
    expect(() => formToMicheline(t, { a: 1 })).toThrow(
      expect.objectContaining({ field: 'b', message: 'some required fields are not filled' }),
    );
  });
});

describe('schema-driven forms build valid Michelson data', () => {
  /** Fills every field of a schema with a valid sample value (what a user would type). */
  function fill(s: JsonSchema): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(s.properties ?? {})) out[k] = sample(p);
    return out;
  }
  function sample(p: JsonSchema): unknown {
    if (p.oneOf) {
      const last = p.oneOf[p.oneOf.length - 1]!;
      return { ...fill(last), schemaKey: last.properties!.schemaKey!.const };
    }
    if (p.type === 'array') return [fill(p.items!)];
    if (p.type === 'object') return fill(p);
    switch (p.prim) {
      case 'address':
        return 'tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a';
      case 'contract':
        return 'KT1VZj8kJYcpqr3fAPC8sLjSNuDvYDz5V39Z';
      case 'bytes':
        return '00ff';
      case 'lambda':
        return '{ DROP ; UNIT }';
      default:
        return p.default;
    }
  }
  it('for a rich parameter type', () => {
    const t = parseMichelsonExpression(
      'or (pair %transfer (address %from) (pair (list %txs (pair (address %to) (nat %amount))) (option %memo bytes))) (or (map %set nat (pair (bool %on) (timestamp %at))) (contract %cb nat))',
    );
    const tree = buildTypeTree(t);
    for (const ep of ['transfer', 'set', 'cb']) {
      const schema = entrypointSchemaOf(tree, ep)!;
      const { value } = parametersForExecution(tree, ep, fill(schema));
      const epType = parseMichelsonExpression(
        {
          transfer:
            'pair (address %from) (pair (list %txs (pair (address %to) (nat %amount))) (option %memo bytes))',
          set: 'map nat (pair bool timestamp)',
          cb: 'address',
        }[ep]!,
      );
      expect(() => assertDataValid(value as never, epType as never)).not.toThrow();
    }
  });
});

describe('parametersForExecution', () => {
  const p = parseMichelsonExpression(
    'or (pair %transfer (address %to) (nat %amount)) (or (nat %burn) (unit))',
  );
  it('accepts the fields of a named pair at the top level or under its name', () => {
    const data = { to: 'tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a', amount: '5' };
    const expected = {
      entrypoint: 'transfer',
      value: parseMichelsonExpression('Pair "tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a" 5'),
    };
    expect(parametersForExecution(p, 'transfer', data)).toEqual(expected);
    expect(parametersForExecution(p, 'transfer', { transfer: data })).toEqual(expected);
  });
  it('sends unnamed entrypoints to default wrapped in their Left/Right path', () => {
    expect(parametersForExecution(p, 'entrypoint_2', {})).toEqual({
      entrypoint: 'default',
      value: parseMichelsonExpression('Right (Right Unit)'),
    });
  });
  it('refuses empty number fields instead of sending {"int": null}', () => {
    expect(() => parametersForExecution(p, 'burn', { burn: null })).toThrow(
      'some required fields are not filled',
    );
    expect(() => parametersForExecution(p, 'nope', {})).toThrow(/unknown entrypoint/);
  });
});

describe('collections from forms', () => {
  it('sorts map keys and set elements typed in any order', () => {
    const t = parseMichelsonExpression('pair (map %m string nat) (set %s int)');
    const v = formToMicheline(t, {
      m: [
        { '@string_3': 'b', '@nat_4': 1 },
        { '@string_3': 'a', '@nat_4': 2 },
      ],
      s: [{ '@int_6': 5 }, { '@int_6': -1 }],
    });
    expect(v).toEqual(parseMichelsonExpression('Pair { Elt "a" 2 ; Elt "b" 1 } { -1 ; 5 }'));
  });
});
