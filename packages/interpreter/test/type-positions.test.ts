/**
 * Where a type may appear, checked while typechecking (before anything runs), with Octez's error trace. Every
 * case sits in a branch that never runs (`PUSH bool False; IF { … } {}`), so only the typechecker can refuse
 * it. Figures from tezos/tezos-mirror src/proto_024_PtTALLiN/lib_protocol/script_ir_translator.ml (the line
 * numbers below are that file's) and script_tc_errors_registration.ml (the fields).
 */
import { describe, expect, it } from 'vitest';
import type { OctezError } from '../src/index';
import { MichelsonError, loadScript, runContract } from '../src/index';

const P = 'proto.024-PtTALLiN.michelson_v1.';
const TICKET = 'PUSH nat 1; PUSH unit Unit; TICKET; ASSERT_SOME';
const dead = (x: string) =>
  `parameter unit; storage unit; code { DROP; PUSH bool False; IF { ${x} } {}; UNIT; NIL operation; PAIR }`;

function run(script: string, legacy = false) {
  return runContract({ script, storage: { prim: 'Unit' }, parameter: { prim: 'Unit' }, legacy });
}
function errorsOf(script: string, legacy = false): OctezError[] {
  const r = run(script, legacy);
  if (r.ok) throw new Error(`accepted: ${script}`);
  return r.error.toOctez();
}
const ids = (script: string, legacy = false) => errorsOf(script, legacy).map((e) => e.id.slice(P.length));

describe('types refused where Octez refuses them, before running', () => {
  it.each<[string, string[]]>([
    // PUSH: parse_packable_ty (l. 2957), no lazy storage, operation, contract or ticket (l. 1022)
    ['PUSH (big_map int int) {}; DROP', ['unexpected_lazy_storage']],
    ['PUSH (sapling_state 8) {}; DROP', ['unexpected_lazy_storage']],
    ['PUSH (list operation) {}; DROP', ['unexpected_operation']],
    ['PUSH (contract unit) "tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx"; DROP', ['unexpected_contract']],
    ['PUSH (option (ticket unit)) None; DROP', ['unexpected_ticket']],
    ['PUSH (set (big_map int int)) {}; DROP', ['unexpected_lazy_storage']],
    // PACK: check_packable ~allow_contract:true (l. 4216), traced by Unpackable_type (l. 1116)
    ['EMPTY_BIG_MAP int int; PACK; DROP', ['unpackable_type', 'unexpected_lazy_storage']],
    ['SAPLING_EMPTY_STATE 8; PACK; DROP', ['unpackable_type', 'unexpected_lazy_storage']],
    ['NIL operation; PACK; DROP', ['unpackable_type', 'unexpected_operation']],
    [`${TICKET}; PACK; DROP`, ['unpackable_type', 'unexpected_ticket']],
    // EMPTY_BIG_MAP: parse_big_map_value_ty (l. 3475): no lazy storage, operation or contract (l. 1010)
    ['EMPTY_BIG_MAP int (big_map int int); DROP', ['unexpected_lazy_storage']],
    ['EMPTY_BIG_MAP int (sapling_state 8); DROP', ['unexpected_lazy_storage']],
    ['EMPTY_BIG_MAP int (list (sapling_state 8)); DROP', ['unexpected_lazy_storage']],
    ['EMPTY_BIG_MAP int operation; DROP', ['unexpected_operation']],
    ['EMPTY_BIG_MAP int (contract unit); DROP', ['unexpected_contract']],
    // UNPACK: parse_packable_ty (l. 4228)
    ['PUSH bytes 0x05; UNPACK (big_map int int); DROP', ['unexpected_lazy_storage']],
    ['PUSH bytes 0x05; UNPACK (sapling_state 8); DROP', ['unexpected_lazy_storage']],
    ['PUSH bytes 0x05; UNPACK (contract unit); DROP', ['unexpected_contract']],
    ['PUSH bytes 0x05; UNPACK operation; DROP', ['unexpected_operation']],
    // contract's argument is parse_passable_ty (l. 660), CONTRACT's too (l. 4243): no operation
    ['NONE (contract operation); DROP', ['unexpected_operation']],
    ['SENDER; CONTRACT (list operation); DROP', ['unexpected_operation']],
    // keys: parse_comparable_ty (l. 926), every flag off, then is_comparable
    ['EMPTY_SET (list int); DROP', ['comparable_type_expected']],
    ['EMPTY_MAP (contract unit) int; DROP', ['unexpected_contract']],
    ['EMPTY_SET (option (sapling_state 8)); DROP', ['unexpected_lazy_storage']],
    ['NONE (ticket (list int)); DROP', ['comparable_type_expected']],
    // DUP, DUP n: check_dupable_ty (l. 2866, 2900): tickets anywhere but under lambda, set, contract
    [`${TICKET}; DUP; DROP 2`, ['non_dupable_type', 'unexpected_ticket']],
    [`${TICKET}; SOME; DUP; DROP 2`, ['non_dupable_type', 'unexpected_ticket']],
    [`${TICKET}; UNIT; DUP 2; DROP 3`, ['non_dupable_type', 'unexpected_ticket']],
    ['EMPTY_BIG_MAP int (ticket unit); DUP; DROP 2', ['non_dupable_type', 'unexpected_ticket']],
    // FAILWITH, APPLY's capture, EMIT: check_packable ~allow_contract:false (l. 3829, 3760, 4658)
    ['EMPTY_BIG_MAP int int; FAILWITH', ['unpackable_type', 'unexpected_lazy_storage']],
    ['SELF; FAILWITH', ['unpackable_type', 'unexpected_contract']],
    [
      'LAMBDA (pair (big_map int int) int) int { CDR }; EMPTY_BIG_MAP int int; APPLY; DROP',
      ['unpackable_type', 'unexpected_lazy_storage'],
    ],
    ['SELF; EMIT; DROP', ['unpackable_type', 'unexpected_contract']],
    // CREATE_CONTRACT's script: its parameter with parse_parameter_ty_and_entrypoints, traced (l. 4327)
    [
      'NONE key_hash; PUSH mutez 0; UNIT; CREATE_CONTRACT { parameter (list operation); storage unit; code { CDR; NIL operation; PAIR } }; DROP 2',
      ['ill_formed_type', 'unexpected_operation'],
    ],
    [
      'NONE key_hash; PUSH mutez 0; UNIT; CREATE_CONTRACT { parameter unit; storage (contract unit); code { CDR; NIL operation; PAIR } }; DROP 2',
      ['ill_formed_type', 'unexpected_contract'],
    ],
  ])('%s', (code, expected) => {
    expect(ids(dead(code))).toEqual(['ill_typed_contract', ...expected]);
  });

  it('the errors carry the locations and fields Octez gives', () => {
    // locations count the script's nodes in pre-order: 13 is the PUSH, 14 its big_map type
    expect(errorsOf(dead('PUSH (big_map int int) {}; DROP'))).toEqual([
      {
        kind: 'permanent',
        id: `${P}ill_typed_contract`,
        ill_typed_code: expect.any(Array),
        type_map: [],
      },
      { kind: 'permanent', id: `${P}unexpected_lazy_storage`, loc: 14 },
    ]);
    // check_packable is located at the instruction (16: PACK after EMPTY_BIG_MAP int int)
    expect(errorsOf(dead('EMPTY_BIG_MAP int int; PACK; DROP')).slice(1)).toEqual([
      { kind: 'permanent', id: `${P}unpackable_type`, loc: 16 },
      { kind: 'permanent', id: `${P}unexpected_lazy_storage`, loc: 16 },
    ]);
    // non_dupable_type names the duplicated type
    expect(errorsOf(dead(`${TICKET}; SOME; DUP; DROP 2`))[1]).toMatchObject({
      id: `${P}non_dupable_type`,
      type: { prim: 'option', args: [{ prim: 'ticket', args: [{ prim: 'unit' }] }] },
    });
    expect(errorsOf(dead('EMPTY_SET (pair int (list int)); DROP'))[1]).toEqual({
      kind: 'permanent',
      id: `${P}comparable_type_expected`,
      location: 14,
      wrong_type: { prim: 'pair', args: [{ prim: 'int' }, { prim: 'list', args: [{ prim: 'int' }] }] },
    });
  });

  it('a refused type inside a lambda literal is refused too', () => {
    const e = ids(dead('PUSH (lambda unit unit) { PUSH (big_map int int) {}; DROP }; DROP'));
    expect(e[0]).toBe('ill_typed_contract');
    expect(e[e.length - 1]).toBe('unexpected_lazy_storage');
  });

  it('the first refusal in typechecking order wins; a bad stack before a type argument is a bad stack', () => {
    expect(ids(dead('EMPTY_SET (list int); DROP; PUSH (big_map int int) {}; DROP'))).toEqual([
      'ill_typed_contract',
      'comparable_type_expected',
    ]);
    // UNPACK matches `bytes : S` before reading its type (l. 4226): with no bytes, michel-codec's stack error
    const e = errorsOf(dead('UNPACK (big_map int int); DROP'));
    expect(e.map((x) => x.id)).toEqual([`${P}ill_typed_contract`]);
  });

  it('parameter and storage: ill_formed_type then the precise error (parse_code, l. 5120-5135)', () => {
    const err = (script: string, legacy = false) => {
      try {
        loadScript(script, {}, { legacy });
      } catch (e) {
        if (e instanceof MichelsonError) return e.toOctez().map((x) => x.id.slice(P.length));
        throw e;
      }
      return [];
    };
    const S = 'code { CDR; NIL operation; PAIR }';
    expect(err(`parameter (list operation); storage unit; ${S}`)).toEqual([
      'ill_formed_type',
      'unexpected_operation',
    ]);
    expect(err(`parameter unit; storage (big_map int (big_map int int)); ${S}`)).toEqual([
      'ill_formed_type',
      'unexpected_lazy_storage',
    ]);
    expect(err(`parameter unit; storage (option (contract unit)); ${S}`)).toEqual([
      'ill_formed_type',
      'unexpected_contract',
    ]);
    expect(err(`parameter unit; storage (list operation); ${S}`)).toEqual([
      'ill_formed_type',
      'unexpected_operation',
    ]);
    // a view's return type: parse_view_output_ty (l. 2565), no ticket
    expect(err(`parameter unit; storage unit; ${S}; view "v" unit (ticket unit) { FAILWITH }`)).toEqual([
      'ill_formed_type',
      'unexpected_ticket',
    ]);
    // legacy (Octez until protocol 017: tezos commit 06240007): contracts in storage and big-map values load
    expect(err(`parameter unit; storage (option (contract unit)); ${S}`, true)).toEqual([]);
    expect(err(`parameter unit; storage (big_map int (contract unit)); ${S}`, true)).toEqual([]);
  });
});

describe('the positions Octez allows', () => {
  it.each([
    // parse_any_ty (l. 973): lazy storage, operations, contracts, tickets wherever nothing else forbids them
    'NIL (big_map int int); DROP',
    'NIL (sapling_state 8); DROP',
    'EMPTY_MAP int (sapling_state 8); DROP',
    'EMPTY_MAP int (big_map int int); DROP',
    'NONE (list operation); DROP',
    'LAMBDA (big_map int int) (sapling_state 8) { DROP; SAPLING_EMPTY_STATE 8 }; DROP',
    // big-map values may hold tickets (allow_ticket:true, l. 1018)
    'EMPTY_BIG_MAP int (ticket unit); DROP',
    // contract's argument is passable (l. 956): lazy storage and tickets allowed
    'NONE (contract (big_map int int)); DROP',
    'NONE (contract (sapling_state 8)); DROP',
    'NONE (contract (ticket unit)); DROP',
    // a lambda hides its types (parse_any_ty for both, l. 769)
    'PUSH (lambda (big_map int int) (contract unit)) { DROP; SELF_ADDRESS; CONTRACT unit; ASSERT_SOME }; DROP',
    'PUSH bytes 0x05; UNPACK (lambda operation (ticket unit)); DROP',
    // PACK allows contracts (hash/signature checks, l. 4218); sets and lambdas are packable
    'SELF; PACK; DROP',
    'NIL (lambda unit (big_map int int)); PACK; DROP',
    'EMPTY_SET int; PACK; DROP',
    // dupable: Sapling states, contracts, lambdas over tickets, sets
    'SAPLING_EMPTY_STATE 8; DUP; DROP 2',
    'SELF; DUP; DROP 2',
    'LAMBDA (ticket unit) unit { DROP; UNIT }; DUP; DROP 2',
  ])('%s', (code) => {
    const r = run(dead(code));
    expect(r.ok ? 'accepted' : r.error.message).toBe('accepted');
  });

  it('legacy scripts keep FAILWITH of any type, as Octez until protocol 017 (tezos commit 9d157db1)', () => {
    expect(run(dead('EMPTY_BIG_MAP int int; FAILWITH'), true).ok).toBe(true);
    expect(ids(dead('EMPTY_BIG_MAP int int; FAILWITH'))).toEqual([
      'ill_typed_contract',
      'unpackable_type',
      'unexpected_lazy_storage',
    ]);
  });

  it('storable and passable: Sapling states and big maps in parameter and storage', () => {
    const r = runContract({
      script:
        'parameter (sapling_state 8); storage (pair (list (sapling_state 8)) (big_map int (ticket unit))); code { CDR; NIL operation; PAIR }',
      storage: { prim: 'Pair', args: [[], []] },
      parameter: [],
      legacy: false,
    });
    expect(r.ok ? 'accepted' : r.error.message).toBe('accepted');
  });
});
