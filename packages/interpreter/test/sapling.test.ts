/**
 * Sapling types and instructions as Octez defines them (src/proto_alpha/lib_protocol/script_ir_translator.ml,
 * script_ir_unparser.ml, lazy_storage_kind.ml; michelson_test_scripts/): memo sizes, where a sapling_state may
 * appear, SAPLING_EMPTY_STATE, SAPLING_VERIFY_UPDATE's typing, and the sandbox's own error for the proofs it
 * cannot verify.
 */
import { describe, expect, it } from 'vitest';
import type { ChainContext, Expr } from '../src/index';
import {
  MichelsonError,
  loadScript,
  parseData,
  runContract,
  saplingTransactionMemoSize,
  showTy,
  toTy,
  tyToExpr,
  unparse,
} from '../src/index';

/**
 * A transaction in Sapling.transaction_encoding (src/lib_sapling/core.ml) with no input and one output whose
 * payload_enc is 71 + memo bytes long (`Ciphertext.get_memo_size`); the proofs and keys are zeros (never checked
 * by the sandbox, which cannot verify Sapling proofs).
 */
export function saplingTx(memo: number, outputs = 1, deprecated = false): string {
  const u32 = (n: number) => n.toString(16).padStart(8, '0');
  const zeros = (n: number) => '00'.repeat(n);
  const payload = 71 + memo;
  const output = zeros(32 + 192 + 32 + 32) + u32(payload) + zeros(payload) + zeros(24 + 80 + 24);
  const outs = output.repeat(outputs);
  return u32(0) + u32(outs.length / 2) + outs + zeros(64) + zeros(8) + zeros(32) + (deprecated ? '' : u32(0));
}

const errorOf = (f: () => unknown): MichelsonError => {
  try {
    f();
  } catch (e) {
    if (e instanceof MichelsonError) return e;
    throw e;
  }
  throw new Error('no error');
};

describe('sapling types: a memo size, not a type argument', () => {
  it('sapling_state / sapling_transaction n: n is an int in 0..65535 (Sapling_repr.Memo_size.parse_z)', () => {
    for (const prim of ['sapling_state', 'sapling_transaction', 'sapling_transaction_deprecated']) {
      const t = toTy({ prim, args: [{ int: '8' }] });
      expect(showTy(t)).toBe(`(${prim} 8)`);
      expect(tyToExpr(t)).toEqual({ prim, args: [{ int: '8' }] });
      expect(toTy({ prim, args: [{ int: '0' }] }).memo).toBe(0);
      expect(toTy({ prim, args: [{ int: '65535' }] }).memo).toBe(65535);
    }
    // "a positive 16-bit integer (between 0 and 65535)" (Invalid_syntactic_constant)
    for (const bad of ['65536', '-1'])
      expect(errorOf(() => toTy({ prim: 'sapling_state', args: [{ int: bad }] })).message).toContain(
        'between 0 and 65535',
      );
    // parse_memo_size: anything but an int is Invalid_kind
    expect(errorOf(() => toTy({ prim: 'sapling_state', args: [{ prim: 'nat' }] })).data.detail).toBe(
      'invalid_kind',
    );
    expect(errorOf(() => toTy({ prim: 'sapling_state' })).data.detail).toBe('invalid_arity');
  });
});

// michelson_test_scripts/opcodes/sapling_empty_state.tz
const EMPTY_STATE =
  'parameter unit; storage (sapling_state 8); code { DROP; SAPLING_EMPTY_STATE 8; NIL operation; PAIR; };';

describe('SAPLING_EMPTY_STATE', () => {
  it('pushes an empty state; the storage takes a fresh Sapling id with an alloc diff of its memo size', () => {
    // tezt/tests/expected/contract_opcodes.ml/"Alpha- opcodes -sapling_empty_state--storage457300675--
    // input125992234-.out": run script on storage '{}' and input Unit → storage 0 (the first Sapling id of the
    // mockup), the trace showing the state as {} before it is stored.
    const stacks: Expr[][] = [];
    const r = runContract({
      script: EMPTY_STATE,
      storage: [],
      parameter: { prim: 'Unit' },
      allocateSaplingId: () => 0n,
      onStep: (e) => stacks.push(e.stack),
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.storage).toEqual({ int: '0' });
    // lazy_storage_kind.ml Sapling_state: alloc {memo_size}, updates Sapling_repr.diff_encoding
    expect(r.lazyStorageDiff).toEqual([
      {
        kind: 'sapling_state',
        id: '0',
        diff: {
          action: 'alloc',
          updates: { commitments_and_ciphertexts: [], nullifiers: [] },
          memo_size: 8,
        },
      },
    ]);
    expect(stacks).toEqual([[], [[]], [[], []], [{ prim: 'Pair', args: [[], []] }]]);
  });

  it('without a Sapling store, a temporary id; a state kept in storage is updated in place', () => {
    const r = runContract({ script: EMPTY_STATE, storage: [], parameter: { prim: 'Unit' } });
    expect(r.ok && r.storage).toEqual({ int: '-1' });
    const chain: ChainContext = { saplingMemoSize: (id) => (id === 3n ? 8 : null) };
    const keep = runContract({
      script: 'parameter unit; storage (sapling_state 8); code { CDR; NIL operation; PAIR }',
      storage: { int: '3' },
      parameter: { prim: 'Unit' },
      chain,
      allocateSaplingId: () => 4n,
    });
    if (!keep.ok) throw new Error(keep.error.message);
    expect(keep.storage).toEqual({ int: '3' });
    expect(keep.lazyStorageDiff).toEqual([
      {
        kind: 'sapling_state',
        id: '3',
        diff: { action: 'update', updates: { commitments_and_ciphertexts: [], nullifiers: [] } },
      },
    ]);
    // the state replaced by a new one: alloc 4, remove 3 (extract_lazy_storage_diff)
    const replaced = runContract({
      script: EMPTY_STATE,
      storage: { int: '3' },
      parameter: { prim: 'Unit' },
      chain,
      allocateSaplingId: () => 4n,
    });
    if (!replaced.ok) throw new Error(replaced.error.message);
    expect(replaced.lazyStorageDiff.map((d) => [d.kind, d.id, d.diff.action])).toEqual([
      ['sapling_state', '4', 'alloc'],
      ['sapling_state', '3', 'remove'],
    ]);
    // a stored state of another memo size: Octez's state_from_id then memo_size_eq
    const other = runContract({
      script: 'parameter unit; storage (sapling_state 16); code { CDR; NIL operation; PAIR }',
      storage: { int: '3' },
      parameter: { prim: 'Unit' },
      chain,
    });
    expect(!other.ok && other.errors.map((e) => e.id)).toContain(
      'proto.024-PtTALLiN.michelson_v1.inconsistent_memo_sizes',
    );
  });

  it('needs its memo size (ill_typed/sapling_build_empty_state_with_int_parameter.tz)', () => {
    const e = errorOf(() =>
      loadScript(
        'parameter nat; storage (sapling_state 8); code { UNPAIR; SWAP; DROP; SAPLING_EMPTY_STATE; NIL operation; PAIR; };',
      ),
    );
    expect(e.kind).toBe('ill_typed');
  });
});

// src/proto_alpha/lib_protocol/test/integration/michelson/contracts/sapling_contract_drop.tz's shape: a
// transaction verified against the stored state.
const VERIFY = (txMemo: number, stateMemo: number) =>
  `parameter (sapling_transaction ${txMemo}); storage (sapling_state ${stateMemo});
   code { UNPAIR; SAPLING_VERIFY_UPDATE; ASSERT_SOME; CDR; CDR; NIL operation; PAIR }`;

describe('SAPLING_VERIFY_UPDATE', () => {
  it('typechecks as Octez: sapling_transaction ms : sapling_state ms → option (pair bytes (pair int (sapling_state ms)))', () => {
    expect(() => loadScript(VERIFY(8, 8))).not.toThrow();
    // the result type, stated: a script that returns it as storage typechecks, any other does not
    const typed = (out: string) =>
      `parameter (pair (sapling_transaction 8) (sapling_state 8)); storage (option ${out});
       code { CAR; UNPAIR; SAPLING_VERIFY_UPDATE; NIL operation; PAIR }`;
    expect(() => loadScript(typed('(pair bytes (pair int (sapling_state 8)))'))).not.toThrow();
    expect(() => loadScript(typed('(pair int (sapling_state 8))'))).toThrow(MichelsonError);
  });

  it('a memo size mismatch is Octez inconsistent_memo_sizes (state first, transaction second)', () => {
    const e = errorOf(() => loadScript(VERIFY(16, 8)));
    const ids = e.toOctez().map((x) => x.id);
    expect(ids).toEqual([
      'proto.024-PtTALLiN.michelson_v1.ill_typed_contract',
      'proto.024-PtTALLiN.michelson_v1.inconsistent_memo_sizes',
    ]);
    expect(e.toOctez()[1]).toMatchObject({ first_memo_size: 8, other_memo_size: 16 });
  });

  it('runs into the sandbox own error, never a result: proofs cannot be verified', () => {
    const r = runContract({
      script: VERIFY(8, 8),
      storage: [],
      parameter: { bytes: saplingTx(8) },
      allocateSaplingId: () => 0n,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      {
        kind: 'permanent',
        id: 'proto.024-PtTALLiN.michelson_v1.sapling_verify_update_unsupported',
        location: 10,
        message: expect.stringContaining('cannot verify Sapling proofs'),
      },
    ]);
  });

  it('sapling_transaction_deprecated: legacy only (Deprecated_instruction otherwise)', () => {
    const legacy = `parameter (sapling_transaction_deprecated 8); storage (sapling_state 8);
      code { UNPAIR; SAPLING_VERIFY_UPDATE; ASSERT_SOME; CDR; NIL operation; PAIR }`;
    expect(() => loadScript(legacy, {}, { legacy: true })).not.toThrow();
    expect(errorOf(() => loadScript(legacy, {}, { legacy: false })).data.detail).toBe(
      'deprecated_instruction',
    );
    const r = runContract({
      script: legacy,
      storage: [],
      parameter: { bytes: saplingTx(8, 1, true) },
    });
    expect(!r.ok && r.errors[0]?.id).toBe(
      'proto.024-PtTALLiN.michelson_v1.sapling_verify_update_unsupported',
    );
  });
});

describe('sapling values', () => {
  it('a sapling_transaction literal is the bytes of a transaction of its memo size', () => {
    const t8 = toTy({ prim: 'sapling_transaction', args: [{ int: '8' }] });
    const tx = saplingTx(8);
    expect(saplingTransactionMemoSize(tx, false)).toBe(8);
    expect(saplingTransactionMemoSize(saplingTx(8, 0), false)).toBe(null);
    expect(unparse(parseData({ bytes: tx }, t8))).toEqual({ bytes: tx });
    // no output: no memo size to compare (transaction_get_memo_size = None)
    expect(() => parseData({ bytes: saplingTx(3, 0) }, t8)).not.toThrow();
    expect(errorOf(() => parseData({ bytes: saplingTx(16) }, t8)).data.memoSizes).toEqual([8, 16]);
    // not Sapling.transaction_encoding: "a valid Sapling transaction"
    for (const bad of ['', '00', tx + '00', tx.slice(0, -2)])
      expect(errorOf(() => parseData({ bytes: bad }, t8)).message).toContain('a valid Sapling transaction');
    // the deprecated format has no bound_data
    expect(saplingTransactionMemoSize(saplingTx(8, 2, true), true)).toBe(8);
    expect(saplingTransactionMemoSize(saplingTx(8, 2, true), false)).toBe(undefined);
  });

  it('a sapling_state literal is {} or a stored id; nothing else (no forged diffs)', () => {
    const s8 = toTy({ prim: 'sapling_state', args: [{ int: '8' }] });
    expect(unparse(parseData([], s8))).toEqual([]);
    expect(() => parseData({ bytes: '00' }, s8)).toThrow(MichelsonError);
    expect(() => parseData({ int: '0' }, s8)).toThrow(MichelsonError); // no store
  });

  it('sapling_state is not packable, pushable, nor a big-map value; it is storable, passable, dupable', () => {
    // michelson_test_scripts/ill_typed/pack_sapling_state.tz and unpack_sapling_state.tz (tezt
    // script_illtyped.ml: "big_map or sapling_state type not expected here")
    // Each refused while typechecking, with Octez's trace (script_ir_translator.ml: check_packable for PACK,
    // parse_packable_ty for UNPACK and PUSH, parse_big_map_value_ty, parse_storage_ty's ill_formed_type).
    const P = 'proto.024-PtTALLiN.michelson_v1.';
    const ill: [string, string[]][] = [
      [
        'parameter unit; storage (sapling_state 8); code { UNPAIR; DROP; PACK; DROP; SAPLING_EMPTY_STATE 8; NIL operation; PAIR; }',
        ['ill_typed_contract', 'unpackable_type', 'unexpected_lazy_storage'],
      ],
      [
        'parameter bytes; storage (unit); code { CAR; UNPACK (sapling_state 8); DROP; PUSH unit Unit; NIL operation; PAIR; }',
        ['ill_typed_contract', 'unexpected_lazy_storage'],
      ],
      [
        'parameter unit; storage unit; code { DROP; PUSH (sapling_state 8) {}; DROP; UNIT; NIL operation; PAIR }',
        ['ill_typed_contract', 'unexpected_lazy_storage'],
      ],
      [
        'parameter unit; storage unit; code { DROP; EMPTY_BIG_MAP nat (sapling_state 8); DROP; UNIT; NIL operation; PAIR }',
        ['ill_typed_contract', 'unexpected_lazy_storage'],
      ],
      // parse_big_map_value_ty: allow_lazy_storage:false, wherever the big_map type is written
      [
        'parameter unit; storage (big_map nat (sapling_state 8)); code { CDR; NIL operation; PAIR }',
        ['ill_formed_type', 'unexpected_lazy_storage'],
      ],
    ];
    for (const [script, ids] of ill) {
      const r = runContract({
        script,
        storage: /storage \(?unit/.test(script) ? { prim: 'Unit' } : [],
        parameter: script.includes('parameter bytes') ? { bytes: '05' } : { prim: 'Unit' },
      });
      expect(!r.ok && r.error.kind, script).toBe('ill_typed');
      expect(!r.ok && r.error.toOctez().map((e) => e.id), script).toEqual(ids.map((id) => P + id));
    }
    // not comparable (no Sapling type is)
    const cmp = runContract({
      script:
        'parameter unit; storage unit; code { DROP; SAPLING_EMPTY_STATE 8; DUP; COMPARE; DROP; UNIT; NIL operation; PAIR }',
      storage: { prim: 'Unit' },
      parameter: { prim: 'Unit' },
    });
    expect(!cmp.ok && cmp.error.message).toContain('not comparable');
    // the storage type's memo size is the one the code must return (ty_eq: returned, then expected)
    const wrong = errorOf(() =>
      loadScript(
        'parameter unit; storage (sapling_state 8); code { DROP; SAPLING_EMPTY_STATE 16; NIL operation; PAIR }',
      ),
    );
    expect(wrong.toOctez()[1]).toEqual({
      kind: 'permanent',
      id: 'proto.024-PtTALLiN.michelson_v1.inconsistent_memo_sizes',
      first_memo_size: 16,
      other_memo_size: 8,
    });
    // passable (parameter), dupable (DUP): two states in the storage, the second a copy of the first
    const r = runContract({
      script:
        'parameter (sapling_state 8); storage (pair (sapling_state 8) (sapling_state 8)); code { CAR; DUP; PAIR; NIL operation; PAIR }',
      storage: { prim: 'Pair', args: [[], []] },
      parameter: [],
      allocateSaplingId: (() => {
        let n = 0n;
        return () => n++;
      })(),
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.storage).toEqual({ prim: 'Pair', args: [{ int: '0' }, { int: '1' }] });
  });
});
