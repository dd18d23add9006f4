import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  decodeParameters,
  entrypointNames,
  entrypointType,
  findByName,
  fromParameters,
  resolveEntrypoint,
  storedEntrypointNames,
  toParameters,
} from '../src/entrypoints';
import { bigMapKeyHash, globalConstantHash, scriptExpressionHash, scriptHash, ticketHash } from '../src/hash';
import type { Micheline } from '../src/micheline';
import { parseMichelsonExpression, parseMichelsonScript } from '../src/micheline';
import {
  annotations,
  expandGlobalConstants,
  failStrings,
  globalConstantsOf,
  isPackedLambda,
  lambdasInValue,
  scriptViews,
} from '../src/script-facts';
import { formatMichelsonInline } from '../src/format';
import { contractInterfaces, hasInterface, scriptTags, tagsFromMask, tagsMask } from '../src/tags';
import type { InterfaceName } from '../src/tags';
import { buildTypeTree } from '../src/type-tree';
import { goldenCases, hasShared, SHARED } from './golden';

type TypeIn = { type: Micheline };

describe.skipIf(!hasShared)('entrypoint goldens', () => {
  it.each(goldenCases<TypeIn>('entrypoints.json').map((c) => [c.name, c] as const))(
    'entrypoints.json %s',
    (_n, c) => {
      expect(entrypointNames(c.input.type)).toEqual(c.expected);
    },
  );
  type FromIn = { type: Micheline; parameters: { entrypoint: string; value: Micheline } };
  // FromParameters(p).ToParameters("") in the reference: settle at the entrypoint, serialise it again
  it.each(goldenCases<FromIn>('from-parameters.json').map((c) => [c.name, c] as const))(
    'from-parameters.json %s',
    (_n, c) => {
      const p = c.input.parameters;
      const full = fromParameters(c.input.type, p);
      expect(toParameters(c.input.type, full, p.entrypoint)).toEqual(c.expected);
    },
  );
  type ToIn = { type: Micheline | Micheline[]; value: Micheline; entrypoint: string };
  it.each(goldenCases<ToIn>('to-parameters.json').map((c) => [c.name, c] as const))(
    'to-parameters.json %s',
    (_n, c) => {
      const t = Array.isArray(c.input.type) ? c.input.type[0]! : c.input.type;
      expect(toParameters(t, c.input.value, c.input.entrypoint)).toEqual(c.expected);
    },
  );
  type FindIn = { type: Micheline; field_name: string; is_entrypoint: boolean };
  it.each(goldenCases<FindIn>('find-by-name.json').map((c) => [c.name, c] as const))(
    'find-by-name.json %s',
    (_n, c) => {
      expect(findByName(c.input.type, c.input.field_name, c.input.is_entrypoint) ?? null).toEqual(c.expected);
    },
  );
});

describe.skipIf(!hasShared)('interface and hash goldens', () => {
  type IfIn = { type: Micheline; interface_name?: InterfaceName };
  it.each(goldenCases<IfIn>('contract-interfaces.json').map((c) => [c.name, c] as const))(
    'contract-interfaces.json %s',
    (_n, c) => {
      const t = buildTypeTree(c.input.type);
      expect(
        c.input.interface_name ? hasInterface(t, c.input.interface_name) : contractInterfaces(t),
      ).toEqual(c.expected);
    },
  );
  it.each(goldenCases<{ key: Micheline }>('big-map-key-hash.json').map((c) => [c.name, c] as const))(
    'big-map-key-hash.json %s',
    (_n, c) => {
      expect(bigMapKeyHash(c.input.key)).toBe(c.expected);
    },
  );
  type TicketIn = { content_type_bytes: string; content_bytes: string; ticketer_address: string };
  it.each(goldenCases<TicketIn>('ticket-hash.json').map((c) => [c.name, c] as const))(
    'ticket-hash.json %s',
    (_n, c) => {
      expect(ticketHash(c.input.content_type_bytes, c.input.content_bytes, c.input.ticketer_address)).toBe(
        c.expected,
      );
    },
  );
});

describe('hashes', () => {
  it('matches Octez for typed keys and global constants', () => {
    expect(scriptExpressionHash({ int: '0' }, { prim: 'nat' })).toBe(
      'exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC',
    );
    expect(globalConstantHash({ int: '999' })).toBe('expruQN5r2umbZVHy6WynYM8f71F8zS4AERz9bugF8UkPBEqrHLuU8');
  });
  it('script hash is the SHA-256 of the code JSON', () => {
    const code = parseMichelsonScript('parameter unit; storage unit; code { CDR ; NIL operation ; PAIR }');
    expect(scriptHash(code)).toBe(scriptHash(JSON.stringify(code)));
    expect(scriptHash(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(scriptHash(code)).not.toBe(
      scriptHash(parseMichelsonScript('parameter unit; storage unit; code { CAR ; NIL operation ; PAIR }')),
    );
  });
});

describe('entrypoint resolution', () => {
  const t = parseMichelsonExpression('or (or (nat %a) int) string');
  it('names the leaf a default call selects as the entrypoint list does', () => {
    const names = entrypointNames(t);
    expect(names).toEqual(['a', 'entrypoint_1', 'entrypoint_2']);
    const resolve = (v: string) =>
      resolveEntrypoint(t, { entrypoint: 'default', value: parseMichelsonExpression(v) });
    expect(resolve('Left (Left 1)')).toBe('a');
    expect(resolve('Left (Right 1)')).toBe('entrypoint_1');
    expect(resolve('Right "x"')).toBe('entrypoint_2');
    for (const v of ['Left (Left 1)', 'Left (Right 1)', 'Right "x"']) expect(names).toContain(resolve(v));
    // a parameter that is not an or has one entrypoint, default, for calls and list alike
    expect(resolveEntrypoint({ prim: 'nat' }, { entrypoint: 'default', value: { int: '1' } })).toBe(
      'default',
    );
    expect(entrypointNames({ prim: 'nat' })).toEqual(['default']);
    expect(resolveEntrypoint(t, { entrypoint: 'a', value: { int: '1' } })).toBe('a');
  });
  it("knows the reference's stored names of an entrypoint", () => {
    expect(storedEntrypointNames({ prim: 'nat' }, 'default')).toEqual(['default', '@entrypoint_0']);
    expect(storedEntrypointNames(t, 'entrypoint_1')).toEqual(['entrypoint_1', '@entrypoint_1']);
    expect(storedEntrypointNames(t, 'entrypoint_2')).toEqual(['entrypoint_2', '@entrypoint_1']);
    expect(storedEntrypointNames(t, 'a')).toEqual(['a']);
  });
  it('decodes calls under their entrypoint and gives its type', () => {
    expect(decodeParameters(t, { entrypoint: 'a', value: { int: '7' } })).toEqual([
      { prim: 'nat', type: 'nat', name: 'a', value: '7' },
    ]);
    expect(entrypointType(t, 'a')).toEqual({ prim: 'nat' });
    expect(() => decodeParameters(t, { entrypoint: 'nope', value: { int: '7' } })).toThrow(
      /unknown entrypoint: nope/,
    );
  });
});

describe('script facts', () => {
  const script = parseMichelsonScript(
    'parameter (or (lambda %upgrade unit unit) (nat %set)); storage (pair (nat %counter) (lambda %logic unit unit)); code { PUSH string "not admin" ; FAILWITH ; SET_DELEGATE ; CREATE_CONTRACT { parameter unit ; storage unit ; code { CDR ; NIL operation ; PAIR } } ; constant "expruQN5r2umbZVHy6WynYM8f71F8zS4AERz9bugF8UkPBEqrHLuU8" }',
  );
  it('reads fail strings, annotations and constants', () => {
    expect(failStrings(script)).toEqual(['not admin']);
    expect(annotations(script)).toEqual(['%upgrade', '%set', '%counter', '%logic']);
    expect(globalConstantsOf(script)).toEqual(['expruQN5r2umbZVHy6WynYM8f71F8zS4AERz9bugF8UkPBEqrHLuU8']);
    const expanded = expandGlobalConstants(script, {
      expruQN5r2umbZVHy6WynYM8f71F8zS4AERz9bugF8UkPBEqrHLuU8: { prim: 'DROP' },
    });
    expect(globalConstantsOf(expanded)).toEqual([]);
    expect(() => expandGlobalConstants(script, {})).toThrow(/unknown global constant/);
  });
  it('tags: instructions and the fixed upgradable rule', () => {
    const tags = scriptTags(script);
    expect(tags).toEqual(['CREATE_CONTRACT', 'SET_DELEGATE', 'upgradable']);
    expect(tagsFromMask(tagsMask(tags))).toEqual(tags);
    expect(tagsMask(['CREATE_CONTRACT', 'fa2'])).toBe(1 + 256);
  });
  it('lists on-chain views', () => {
    const withViews = parseMichelsonScript(
      'parameter unit; storage nat; code { CDR ; NIL operation ; PAIR }; view "get" unit nat { CDR }; view "twice" nat nat { CAR ; DUP ; ADD }',
    );
    expect(scriptViews(withViews).map((v) => [v.name, v.parameter, v.returnType])).toEqual([
      ['get', { prim: 'unit' }, { prim: 'nat' }],
      ['twice', { prim: 'nat' }, { prim: 'nat' }],
    ]);
    expect(formatMichelsonInline(withViews)).toMatch(/^parameter unit; storage nat; code/);
  });
  it('detects PACKed lambdas stored in values', () => {
    expect(isPackedLambda('0502000000020320')).toBe(true); // { DROP }
    expect(isPackedLambda('050100000006706175736564')).toBe(false); // "paused"
    expect(
      lambdasInValue([{ prim: 'Elt', args: [{ string: 'code' }, { bytes: '0502000000020320' }] }]),
    ).toEqual(['0502000000020320']);
  });
});

describe.skipIf(!hasShared)('tags of real contracts', () => {
  const code = (addr: string): Micheline =>
    JSON.parse(readFileSync(path.join(SHARED, 'fixtures/contracts', addr, 'code.json'), 'utf8')) as Micheline;
  it.each([
    ['KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn', ['fa1', 'fa1-2', 'upgradable']], // tzBTC: code lambdas in storage, epwSetCode takes one
    ['KT197cMAmydiH3QH7Xjqqrf8PgX7Xq5FyDat', ['fa2', 'ledger']],
    ['KT19grxjr12FY5pAikyoKMnzA3Yp9GjvXd8Q', ['SET_DELEGATE', 'CHAIN_ID', 'CHECK_SIGNATURE', 'multisig']], // generic multisig
    ['KT1VYsVfmobT7rsMVivvZ4J8i3bPiqz12NaH', ['fa1', 'fa1-2', 'ledger']],
  ] as const)('%s', (addr, tags) => {
    expect(scriptTags(code(addr))).toEqual(tags);
  });
});
