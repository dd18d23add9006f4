// GET …/blocks/{id}/operation_hashes/{pass}[/{index}] and POST …/helpers/scripts/normalize_data, with the shapes
// and errors of Octez (src/lib_shell/block_directory.ml; src/proto_024_PtTALLiN/lib_plugin/RPC.ml normalize_data
// and script_ir_translator.ml parse_any_ty; tezt/tests/expected/normalize.ml) (issue 33).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMichelsonExpression } from '@michelscope/michelson';
import { BOOTSTRAP_ACCOUNTS } from '../src/index';
import { groupInjector, openHarness, type Harness } from './helpers';

const b2 = BOOTSTRAP_ACCOUNTS[1]!;
const b3 = BOOTSTRAP_ACCOUNTS[2]!;
const m = (src: string) => parseMichelsonExpression(src) as unknown;
const NORMALIZE = '/chains/main/blocks/head/helpers/scripts/normalize_data';
const P = 'proto.024-PtTALLiN.';
let h: Harness;
let groups: string[] = [];

beforeAll(async () => {
  h = await openHarness();
  // a block with one manager group (validation pass 3)
  const send = groupInjector(() => h, b2);
  const first = await send([{ kind: 'transaction', amount: '1', destination: b3.pkh }]);
  groups = [first.hash];
});
afterAll(() => h.close());

describe('operation_hashes/{pass} and /{pass}/{index}', () => {
  it('the hashes of one validation pass, and one hash, as Octez answers them', async () => {
    const all = (await h.get('/chains/main/blocks/head/operation_hashes')).body as string[][];
    expect(all).toEqual([[], [], [], groups]);
    for (let pass = 0; pass < 4; pass++) {
      const r = await h.get(`/chains/main/blocks/head/operation_hashes/${pass}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(all[pass]);
    }
    const one = await h.get('/chains/main/blocks/head/operation_hashes/3/0');
    expect(one).toEqual({ status: 200, body: groups[0] });
    // int_of_string's forms are accepted, as by Octez's path arguments
    expect((await h.get('/chains/main/blocks/head/operation_hashes/0x3/0')).body).toBe(groups[0]);
    // an older block, by level
    expect((await h.get('/chains/main/blocks/1/operation_hashes/3')).body).toEqual([]);
  });

  it('errors: a pass past the block is Invalid_argument (500), a miss under /{pass}/{index} is 404, text is 400', async () => {
    const past = await h.get('/chains/main/blocks/head/operation_hashes/4');
    expect(past.status).toBe(500);
    expect(past.body).toEqual([
      { kind: 'temporary', id: 'failure', msg: 'Invalid_argument("operations_hashes_path")' },
    ]);
    expect((await h.get('/chains/main/blocks/head/operation_hashes/-1')).status).toBe(500);
    for (const path of ['3/1', '0/0', '4/0', '-1/0', '3/-1']) {
      const r = await h.get(`/chains/main/blocks/head/operation_hashes/${path}`);
      expect(r.status, path).toBe(404);
    }
    const text = await h.get('/chains/main/blocks/head/operation_hashes/three');
    expect(text.status).toBe(400);
    expect(text.body[0]).toMatchObject({ id: 'rpc.argument_parsing' });
    expect(text.body[0].msg).toContain("'list_offset'");
    expect((await h.get('/chains/main/blocks/head/operation_hashes/3/x')).body[0].msg).toContain(
      "'operation_offset'",
    );
    expect((await h.get('/chains/main/blocks/99999/operation_hashes/3')).status).toBe(404);
  });
});

describe('normalize_data', () => {
  const normalize = (data: string, type: string, mode: string, extra: Record<string, unknown> = {}) =>
    h.post(NORMALIZE, { data: m(data), type: m(type), unparsing_mode: mode, ...extra });

  it('tezt "Test normalize in unparsing mode": each mode', async () => {
    const data = '{Pair 0 3 6 9; Pair 1 (Pair 4 (Pair 7 10)); {2; 5; 8; 11}}';
    const type = 'list (pair nat nat nat nat)';
    const expected: Record<string, string> = {
      Readable: '{ Pair 0 3 6 9 ; Pair 1 4 7 10 ; Pair 2 5 8 11 }',
      Optimized: '{ { 0 ; 3 ; 6 ; 9 } ; { 1 ; 4 ; 7 ; 10 } ; { 2 ; 5 ; 8 ; 11 } }',
      Optimized_legacy:
        '{ Pair 0 (Pair 3 (Pair 6 9)) ; Pair 1 (Pair 4 (Pair 7 10)) ; Pair 2 (Pair 5 (Pair 8 11)) }',
    };
    for (const [mode, out] of Object.entries(expected)) {
      const r = await normalize(data, type, mode);
      expect(r.status, mode).toBe(200);
      expect(r.body, mode).toEqual({ normalized: m(out) });
    }
  });

  it('addresses and timestamps both ways; data that does not match its type is kept (never typechecked)', async () => {
    const tz1 = BOOTSTRAP_ACCOUNTS[0]!.pkh;
    const optimized = await normalize(
      `Pair "${tz1}" "2019-09-26T10:59:51Z"`,
      'pair address timestamp',
      'Optimized',
    );
    expect(optimized.body).toEqual({
      normalized: m(`Pair 0x000002298c03ed7d454a101eb7022bc95f7e5f41ac78 1569495591`),
    });
    const readable = await normalize(
      '{ 0x000002298c03ed7d454a101eb7022bc95f7e5f41ac78 ; 1569495591 ; Unit }',
      'pair address timestamp unit',
      'Readable',
    );
    expect(readable.body).toEqual({ normalized: m(`Pair "${tz1}" "2019-09-26T10:59:51Z" Unit`) });
    // ill-typed (a string for a nat, an unknown big map id): Octez's normalize_data keeps it
    expect((await normalize('Pair "x" 42', 'pair nat (big_map nat nat)', 'Optimized')).body).toEqual({
      normalized: m('Pair "x" 42'),
    });
  });

  it('legacy: sapling_transaction_deprecated only in legacy mode', async () => {
    const r = await normalize('0x', 'sapling_transaction_deprecated 8', 'Readable');
    expect(r.status).toBe(500);
    expect(r.body).toEqual([
      {
        kind: 'permanent',
        id: `${P}michelson_v1.deprecated_instruction`,
        prim: 'sapling_transaction_deprecated',
      },
    ]);
    const legacy = await normalize('0x', 'sapling_transaction_deprecated 8', 'Readable', { legacy: true });
    expect(legacy).toEqual({ status: 200, body: { normalized: { bytes: '' } } });
  });

  it("a type that is not one: parse_any_ty's errors, with Micheline locations", async () => {
    const err = async (type: unknown) => {
      const r = await h.post(NORMALIZE, { data: { int: '0' }, type, unparsing_mode: 'Readable' });
      expect(r.status).toBe(500);
      return r.body;
    };
    expect(await err(m('pair nat'))).toEqual([
      {
        kind: 'permanent',
        id: `${P}michelson_v1.invalid_arity`,
        location: 0,
        primitive_name: 'pair',
        expected_arity: 2,
        wrong_arity: 0,
      },
    ]);
    expect(await err(m('list (option nat int)'))).toEqual([
      {
        kind: 'permanent',
        id: `${P}michelson_v1.invalid_arity`,
        location: 1,
        primitive_name: 'option',
        expected_arity: 1,
        wrong_arity: 2,
      },
    ]);
    expect(await err(m('map (list nat) nat'))).toEqual([
      {
        kind: 'permanent',
        id: `${P}michelson_v1.comparable_type_expected`,
        location: 1,
        wrong_type: m('list nat'),
      },
    ]);
    expect(await err(m('set (big_map nat nat)'))).toEqual([
      { kind: 'permanent', id: `${P}michelson_v1.unexpected_lazy_storage`, loc: 1 },
    ]);
    expect(await err(m('big_map nat (contract unit)'))).toEqual([
      { kind: 'permanent', id: `${P}michelson_v1.unexpected_contract`, loc: 2 },
    ]);
    expect(await err({ prim: 'Pair' })).toEqual([
      {
        kind: 'permanent',
        id: `${P}michelson_v1.invalid_primitive_namespace`,
        location: 0,
        primitive_name: 'Pair',
        expected_namespace: 'type',
        wrong_namespace: 'constant',
      },
    ]);
    expect(await err(m('pair nat 3'))).toEqual([
      {
        kind: 'permanent',
        id: `${P}michelson_v1.invalid_expression_kind`,
        location: 2,
        expected_kinds: ['primitiveApplication'],
        wrong_kind: 'integer',
      },
    ]);
    expect(await err(m('sapling_state 70000'))).toEqual([
      {
        kind: 'permanent',
        id: `${P}michelson_v1.invalid_syntactic_constant`,
        location: 1,
        expected_form: 'a positive 16-bit integer (between 0 and 65535)',
        wrong_expression: { int: '70000' },
      },
    ]);
  });

  it('a body that does not decode is a 400: missing fields, unknown mode or primitive', async () => {
    for (const body of [
      { data: { int: '0' }, type: { prim: 'nat' } },
      { data: { int: '0' }, type: { prim: 'nat' }, unparsing_mode: 'Pretty' },
      { data: { int: '0' }, type: { prim: 'natural' }, unparsing_mode: 'Readable' },
      { data: { prim: 'Foo' }, type: { prim: 'nat' }, unparsing_mode: 'Readable' },
      { data: { int: '0' }, type: { prim: 'nat' }, unparsing_mode: 'Readable', legacy: 'yes' },
    ]) {
      const r = await h.post(NORMALIZE, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
  });
});
