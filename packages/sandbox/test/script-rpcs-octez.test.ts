// The sandbox's script RPCs (run_code, trace_code, run_view, run_script_view) as Octez's: each test holds the
// figure Octez gives, with the Octez source or regression output it comes from (tezos/tezos-mirror).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parser } from '@taquito/michel-codec';
import { encodeExpr, type Expr } from '@michelscope/interpreter';
import { BOOTSTRAP_ACCOUNTS } from '../src/index';
import { genesisState } from '../src/accounts';
import { originatedAddress } from '../src/execute';
import { computeListings, listingsLevel } from '../src/voting';
import { InMemorySigner } from '@taquito/signer';
import { freshSecretKey, groupInjector, openHarness, type Harness } from './helpers';

const SCRIPTS = '/chains/main/blocks/head/helpers/scripts';
const parser = new Parser();
const code = (text: string) => parser.parseScript(text) as unknown[];
const b4 = BOOTSTRAP_ACCOUNTS[3]!;
let h: Harness;
const run = groupInjector(() => h, b4);

beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

/** run_code's body with Octez's own defaults (amount 0, storage and input as given). */
function runCode(script: string, storage: unknown, input: unknown, extra: Record<string, unknown> = {}) {
  return h.post(`${SCRIPTS}/run_code`, { script: code(script), storage, input, amount: '0', ...extra });
}

describe('chain_id (item 1)', () => {
  // Octez's lib_plugin/RPC.ml takes `chain_id` as `req "chain_id" Chain_id.encoding` and passes it to the step
  // constants unchanged: CHAIN_ID pushes whatever well-encoded id the caller gives (here Ghostnet's).
  const OTHER = 'NetXnHfVqm9iesp';
  const CHAIN_ID_SCRIPT = `parameter (or (pair %ask unit (contract chain_id)) (unit %default)); storage (option chain_id);
    code { CAR; IF_LEFT { CDR; PUSH mutez 0; CHAIN_ID; TRANSFER_TOKENS; NIL operation; SWAP; CONS; NONE chain_id; SWAP; PAIR }
                        { DROP; CHAIN_ID; SOME; NIL operation; PAIR } };
    view "chain" unit chain_id { DROP; CHAIN_ID }`;
  let kt1: string;
  beforeAll(async () => {
    const orig = await run([
      {
        kind: 'origination',
        balance: '0',
        script: { code: code(CHAIN_ID_SCRIPT), storage: { prim: 'None' } },
      },
    ]);
    kt1 = originatedAddress(orig.hash, 0);
  });

  it('run_code and trace_code: CHAIN_ID pushes the given chain id', async () => {
    for (const rpc of ['run_code', 'trace_code']) {
      const r = await h.post(`${SCRIPTS}/${rpc}`, {
        script: code(CHAIN_ID_SCRIPT),
        storage: { prim: 'None' },
        input: { prim: 'Unit' },
        amount: '0',
        chain_id: OTHER,
      });
      expect(r.status, rpc).toBe(200);
      expect(r.body.storage, rpc).toEqual({ prim: 'Some', args: [{ string: OTHER }] });
    }
  });

  it('run_view and run_script_view: the view sees the given chain id', async () => {
    const view = await h.post(`${SCRIPTS}/run_view`, {
      contract: kt1,
      entrypoint: 'ask',
      input: { prim: 'Unit' },
      chain_id: OTHER,
      unparsing_mode: 'Readable',
    });
    expect(view.status).toBe(200);
    expect(view.body).toEqual({ data: { string: OTHER } });
    const scriptView = await h.post(`${SCRIPTS}/run_script_view`, {
      contract: kt1,
      view: 'chain',
      input: { prim: 'Unit' },
      chain_id: OTHER,
      unparsing_mode: 'Readable',
    });
    expect(scriptView.status).toBe(200);
    expect(scriptView.body).toEqual({ data: { string: OTHER } });
  });

  it('the sandbox own chain id when none is given; a malformed one is a 400', async () => {
    const own = (await h.get('/chains/main/chain_id')).body as string;
    const r = await runCode(CHAIN_ID_SCRIPT, { prim: 'None' }, { prim: 'Unit' });
    expect(r.body.storage).toEqual({ prim: 'Some', args: [{ string: own }] });
    for (const bad of ['NetXnHfVqm9iesq', 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU', 42]) {
      const res = await runCode(
        CHAIN_ID_SCRIPT,
        { prim: 'None' },
        { prim: 'Unit' },
        {
          chain_id: bad,
        },
      );
      expect(res.status, String(bad)).toBe(400);
      expect(JSON.stringify(res.body), String(bad)).toContain('chain_id must be a base58 chain id');
    }
  });
});

describe('origination nonce (item 3)', () => {
  // Octez's lib_plugin/RPC.ml `originate_dummy_contract`: Origination_nonce.init ctxt Operation_hash.zero, then
  // fresh_contract_from_current_nonce (index 0) is SELF; a CREATE_CONTRACT during the run takes index 1.
  // Figures from tezt/tests/expected/contract_opcodes.ml/"Alpha- opcodes -self_address-…" and
  // "Alpha- opcodes -create_contract--storage921624073--input125992234-.out".
  const DUMMY = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';
  const CREATED = 'KT1Mjjcb6tmSsLm7Cb3DSQszePjfchPM4Uxm';
  // michelson_test_scripts/opcodes/create_contract.tz
  const CREATE = `parameter unit; storage (option address);
    code { DROP; UNIT; AMOUNT; NONE key_hash;
           CREATE_CONTRACT { parameter unit; storage unit; code { CDR; NIL operation; PAIR } };
           DIP { SOME; NIL operation }; CONS; PAIR }`;

  it('SELF_ADDRESS is the dummy contract KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi, SENDER too', async () => {
    const r = await runCode(
      'parameter unit; storage (pair address address); code { DROP; SENDER; SELF_ADDRESS; PAIR; NIL operation; PAIR }',
      { prim: 'Pair', args: [{ string: DUMMY }, { string: DUMMY }] },
      { prim: 'Unit' },
    );
    expect(r.status).toBe(200);
    expect(r.body.storage).toEqual({ prim: 'Pair', args: [{ string: DUMMY }, { string: DUMMY }] });
  });

  it('CREATE_CONTRACT takes the next index: KT1Mjjcb6tmSsLm7Cb3DSQszePjfchPM4Uxm, then index 2', async () => {
    for (const rpc of ['run_code', 'trace_code']) {
      const r = await h.post(`${SCRIPTS}/${rpc}`, {
        script: code(CREATE),
        storage: { prim: 'None' },
        input: { prim: 'Unit' },
        amount: '50000',
      });
      expect(r.status, rpc).toBe(200);
      expect(r.body.storage, rpc).toEqual({ prim: 'Some', args: [{ string: CREATED }] });
      expect(r.body.operations[0], rpc).toMatchObject({
        kind: 'origination',
        source: DUMMY,
        balance: '50000',
      });
    }
    // Two in one run: indexes 1 and 2 of the zero operation hash (BLAKE2B-160(hash ‖ int32 index), contract_hash.ml).
    const twice = await runCode(
      `parameter unit; storage (pair address address);
       code { DROP;
              UNIT; PUSH mutez 0; NONE key_hash; CREATE_CONTRACT { parameter unit; storage unit; code { CDR; NIL operation; PAIR } };
              UNIT; PUSH mutez 0; NONE key_hash; CREATE_CONTRACT { parameter unit; storage unit; code { CDR; NIL operation; PAIR } };
              DIG 2; NIL operation; SWAP; CONS; SWAP; CONS; DUG 2; SWAP; PAIR; SWAP; PAIR }`,
      { prim: 'Pair', args: [{ string: DUMMY }, { string: DUMMY }] },
      { prim: 'Unit' },
    );
    expect(twice.status).toBe(200);
    expect(twice.body.storage).toEqual({
      prim: 'Pair',
      args: [{ string: CREATED }, { string: 'KT1HMCxCyeGbZaGBsLMKVyMbMRzFpZBxKoY7' }],
    });
  });

  it('with `self` given, CREATE_CONTRACT fails with undefined_operation_nonce (Octez sets no nonce then)', async () => {
    const r = await runCode(CREATE, { prim: 'None' }, { prim: 'Unit' }, { self: DUMMY });
    expect(r.status).toBe(500);
    expect(r.body).toEqual([
      {
        kind: 'temporary',
        id: 'proto.024-PtTALLiN.michelson_v1.runtime_error',
        contract_handle: DUMMY,
        contract_code: 'Deprecated',
      },
      { kind: 'permanent', id: 'proto.024-PtTALLiN.undefined_operation_nonce' },
    ]);
  });
});

describe('big-map ids (item 2)', () => {
  // Octez runs the script in a throwaway copy of the block's context (lib_plugin/RPC.ml run_code →
  // Script_interpreter.execute): a big map the run creates or copies takes the context's next fresh id, with a
  // matching lazy_storage_diff. tezt/tests/expected/contract_opcodes.ml/"Alpha- opcodes -big_map_mem_nat--
  // storage56274299--input453441034-.out": storage (Pair 4 (Some True)), "New map(4) of type (big_map nat nat)",
  // "Set map(4)[1] to 4", "Set map(4)[2] to 11", 4 being the mockup context's next id.
  // michelson_test_scripts/opcodes/big_map_mem_nat.tz
  const MEM_NAT = `parameter nat; storage (pair (big_map nat nat) (option bool));
    code { UNPAIR; DIP { CAR; DUP }; MEM; SOME; SWAP; PAIR; NIL operation; PAIR }`;
  const KEEP = 'parameter unit; storage (big_map nat nat); code { CDR; NIL operation; PAIR }';
  const elt = (k: number, v: number) => ({ prim: 'Elt', args: [{ int: String(k) }, { int: String(v) }] });
  const originateBigMap = async () => {
    const orig = await run([
      { kind: 'origination', balance: '0', script: { code: code(KEEP), storage: [elt(7, 70)] } },
    ]);
    return Number(orig.contents[0].metadata.operation_result.lazy_storage_diff[0].id);
  };

  it('a big map created by the run takes the next fresh id, with its alloc diff; the chain keeps that id', async () => {
    const used = await originateBigMap();
    const next = used + 1;
    for (let i = 0; i < 2; i++) {
      const r = await runCode(
        MEM_NAT,
        { prim: 'Pair', args: [[elt(1, 4), elt(2, 11)], { prim: 'None' }] },
        { int: '1' },
      );
      expect(r.status).toBe(200);
      expect(r.body.storage).toEqual({
        prim: 'Pair',
        args: [{ int: String(next) }, { prim: 'Some', args: [{ prim: 'True' }] }],
      });
      expect(r.body.lazy_storage_diff).toEqual([
        {
          kind: 'big_map',
          id: String(next),
          diff: {
            action: 'alloc',
            updates: [
              { key_hash: expect.stringMatching(/^expr/), key: { int: '1' }, value: { int: '4' } },
              { key_hash: expect.stringMatching(/^expr/), key: { int: '2' }, value: { int: '11' } },
            ],
            key_type: { prim: 'nat' },
            value_type: { prim: 'nat' },
          },
        },
      ]);
    }
    // the runs changed nothing: the next origination gets the id the runs showed
    expect(await originateBigMap()).toBe(next);
  });

  it('a big map copied by the run takes the next fresh id (copy diff from the source id)', async () => {
    const source = await originateBigMap();
    const r = await runCode(
      'parameter unit; storage (pair (big_map nat nat) (big_map nat nat)); code { CDR; CAR; DUP; PAIR; NIL operation; PAIR }',
      { prim: 'Pair', args: [{ int: String(source) }, []] },
      { prim: 'Unit' },
    );
    expect(r.status).toBe(200);
    expect(r.body.storage).toEqual({
      prim: 'Pair',
      args: [{ int: String(source) }, { int: String(source + 1) }],
    });
    expect(r.body.lazy_storage_diff).toContainEqual({
      kind: 'big_map',
      id: String(source + 1),
      diff: { action: 'copy', source: String(source), updates: [] },
    });
  });
});

describe('voting power (item 5)', () => {
  // tezt/tests/contract_opcodes.ml, "Test VOTING_POWER": voting_power.tz on a bootstrap key gives
  // (Pair 4000000000000 20000000000000): each of the five bootstrap bakers' 4,000,000 tez, and their sum
  // (also tezt/tests/expected/RPC_test.ml/"… votes.out": listings 4000000000000 each, total_voting_power
  // "20000000000000"). Octez reads the listings of the voting period (vote_storage.ml update_listings), not the
  // current balances. michelson_test_scripts/opcodes/voting_power.tz:
  const VOTING_POWER = `parameter key; storage (pair nat nat);
    code { CAR; HASH_KEY; VOTING_POWER; DIP { TOTAL_VOTING_POWER }; PAIR; NIL operation; PAIR }`;
  const figures = { prim: 'Pair', args: [{ int: '4000000000000' }, { int: '20000000000000' }] };

  it('VOTING_POWER and TOTAL_VOTING_POWER in run_code: the bootstrap figures', async () => {
    for (const a of BOOTSTRAP_ACCOUNTS) {
      const r = await runCode(
        VOTING_POWER,
        { prim: 'Pair', args: [{ int: '0' }, { int: '0' }] },
        { string: a.pk },
      );
      expect(r.status, a.name).toBe(200);
      expect(r.body.storage, a.name).toEqual(figures);
    }
    // b4 paid fees in this file's operations: its balance moved, its listed power did not
    expect(
      BigInt((await h.get(`/chains/main/blocks/head/context/contracts/${b4.pkh}/balance`)).body),
    ).toBeLessThan(4_000_000_000_000n);
    // a key that is no delegate has no power
    const none = await runCode(
      VOTING_POWER,
      { prim: 'Pair', args: [{ int: '0' }, { int: '0' }] },
      { string: await (await InMemorySigner.fromSecretKey(freshSecretKey())).publicKey() },
    );
    expect(none.body.storage).toEqual({ prim: 'Pair', args: [{ int: '0' }, { int: '20000000000000' }] });
  });

  it('the same figures in an applied operation', async () => {
    const orig = await run([
      {
        kind: 'origination',
        balance: '0',
        script: { code: code(VOTING_POWER), storage: { prim: 'Pair', args: [{ int: '0' }, { int: '0' }] } },
      },
    ]);
    const kt1 = originatedAddress(orig.hash, 0);
    const call = await run([
      {
        kind: 'transaction',
        amount: '0',
        destination: kt1,
        parameters: { entrypoint: 'default', value: { string: BOOTSTRAP_ACCOUNTS[1]!.pk } },
      },
    ]);
    expect(call.contents[0].metadata.operation_result.status).toBe('applied');
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${kt1}/storage`)).body).toEqual(figures);
  });
});

describe('voting listings of a later period (item 5)', () => {
  it('counts delegators, drops delegates under the minimal stake, and is taken at each period end', () => {
    const state = genesisState();
    const [d1, d2] = [BOOTSTRAP_ACCOUNTS[0]!.pkh, BOOTSTRAP_ACCOUNTS[1]!.pkh];
    state.setImplicit('tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU', {
      balance: '1000000',
      counter: '0',
      delegate: d1,
    });
    state.setImplicit(d2, { ...state.implicit(d2)!, balance: '5999999999' });
    const l = computeListings(state);
    expect(l.power.get(d1)).toBe(4_000_001_000_000n);
    expect(l.power.has(d2)).toBe(false); // under minimal_stake (6,000 tez)
    expect(l.total).toBe(4_000_001_000_000n + 3n * 4_000_000_000_000n);
    // Tallinn: 14 cycles of 128 blocks; the listings of a period come from its predecessor's last block
    expect([0, 1791, 1792, 3583, 3584].map(listingsLevel)).toEqual([0, 0, 1792, 1792, 3584]);
  });
});

describe('address registry (item 6)', () => {
  // Tallinn (src/proto_024_PtTALLiN/lib_protocol/address_registry_storage.ml `init`): the registry starts with the
  // zero implicit account at index 0 and a counter at 1; INDEX_ADDRESS adds a missing address at the counter and
  // the call's receipt lists it in `address_registry_diff` ({address, index}, apply_results.ml). run_code works on
  // a throwaway context: what it indexes is not kept.
  const ZERO = 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU';
  const INDEXER =
    'parameter address; storage (option nat); code { CAR; INDEX_ADDRESS; SOME; NIL operation; PAIR }';
  const READER =
    'parameter address; storage (option nat); code { CAR; GET_ADDRESS_INDEX; NIL operation; PAIR }';
  const some = (n: number) => ({ prim: 'Some', args: [{ int: String(n) }] });

  it('agrees across operations and run_code', async () => {
    const x = BOOTSTRAP_ACCOUNTS[4]!.pkh;
    const read = async (address: string) =>
      (await runCode(READER, { prim: 'None' }, { string: address })).body.storage;
    expect(await read(ZERO)).toEqual(some(0));
    expect(await read(x)).toEqual({ prim: 'None' });
    // run_code indexes in its throwaway context: the first free index, then forgotten
    expect((await runCode(INDEXER, { prim: 'None' }, { string: x })).body.storage).toEqual(some(1));
    expect(await read(x)).toEqual({ prim: 'None' });

    const originate = async (script: string) =>
      originatedAddress(
        (
          await run([
            { kind: 'origination', balance: '0', script: { code: code(script), storage: { prim: 'None' } } },
          ])
        ).hash,
        0,
      );
    const indexer = await originate(INDEXER);
    const reader = await originate(READER);
    const call = (destination: string) =>
      run([
        {
          kind: 'transaction',
          amount: '0',
          destination,
          parameters: { entrypoint: 'default', value: { string: x } },
        },
      ]);
    const first = (await call(indexer)).contents[0].metadata.operation_result;
    expect(first.storage).toEqual(some(1));
    expect(first.address_registry_diff).toEqual([{ address: x, index: '1' }]);
    const again = (await call(indexer)).contents[0].metadata.operation_result;
    expect(again.storage).toEqual(some(1));
    expect(again.address_registry_diff).toBeUndefined();
    expect((await call(reader)).contents[0].metadata.operation_result.storage).toEqual(some(1));
    expect(await read(x)).toEqual(some(1));
    // the next address takes the next index, in run_code as in an operation
    expect((await runCode(INDEXER, { prim: 'None' }, { string: b4.pkh })).body.storage).toEqual(some(2));
  });
});

describe('Sapling (item 4)', () => {
  // michelson_test_scripts/opcodes/sapling_empty_state.tz
  const EMPTY_STATE =
    'parameter unit; storage (sapling_state 8); code { DROP; SAPLING_EMPTY_STATE 8; NIL operation; PAIR; };';
  // The shape of src/proto_alpha/lib_protocol/test/integration/michelson/contracts/sapling_contract_drop.tz: a
  // transaction verified against the stored state.
  const VERIFY = (txMemo: number, stateMemo: number) =>
    `parameter (sapling_transaction ${txMemo}); storage (sapling_state ${stateMemo});
     code { UNPAIR; SAPLING_VERIFY_UPDATE; ASSERT_SOME; CDR; CDR; NIL operation; PAIR }`;
  const KEEP = 'parameter unit; storage (sapling_state 8); code { CDR; NIL operation; PAIR }';
  /** Octez's Sapling_repr.diff_encoding of a state without changes. */
  const NO_UPDATES = { commitments_and_ciphertexts: [], nullifiers: [] };
  /**
   * A transaction in Sapling.transaction_encoding (src/lib_sapling/core.ml): no input, one output whose
   * payload_enc is 71 + memo bytes (Ciphertext.get_memo_size); zero proofs, which the sandbox never checks.
   */
  const saplingTx = (memo: number): string => {
    const u32 = (n: number) => n.toString(16).padStart(8, '0');
    const zeros = (n: number) => '00'.repeat(n);
    const output = zeros(32 + 192 + 32 + 32) + u32(71 + memo) + zeros(71 + memo) + zeros(24 + 80 + 24);
    return u32(0) + u32(output.length / 2) + output + zeros(64 + 8 + 32) + u32(0);
  };

  it('run_code: SAPLING_EMPTY_STATE 8 stored as the first Sapling id, 0, with its alloc diff (as Octez)', async () => {
    // tezt/tests/contract_opcodes.ml: ("sapling_empty_state", "{}", "Unit", "0"); the run script output
    // (tezt/tests/expected/contract_opcodes.ml/"Alpha- opcodes -sapling_empty_state--storage457300675--
    // input125992234-.out") stores 0 and traces the state as {} at SAPLING_EMPTY_STATE (location 9).
    // Sapling ids have their own counter (storage.mli Sapling.Next), so the big maps of the tests above do not
    // move it; the run allocates in a throwaway context, so every run gets 0 again.
    for (let i = 0; i < 2; i++) {
      const r = await runCode(EMPTY_STATE, [], { prim: 'Unit' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.storage).toEqual({ int: '0' });
      // lazy_storage_kind.ml Sapling_state: alloc carries {memo_size}
      expect(r.body.lazy_storage_diff).toEqual([
        { kind: 'sapling_state', id: '0', diff: { action: 'alloc', updates: NO_UPDATES, memo_size: 8 } },
      ]);
    }
    const t = await h.post(`${SCRIPTS}/trace_code`, {
      script: code(EMPTY_STATE),
      storage: [],
      input: { prim: 'Unit' },
      amount: '0',
    });
    expect(t.status).toBe(200);
    expect(t.body.storage).toEqual({ int: '0' });
    expect(t.body.trace).toContainEqual({ location: 9, gas: expect.any(String), stack: [[]] });
  });

  it('originates sapling_empty_state.tz, calls it, and run_code reads its stored state by id', async () => {
    const orig = await run([
      { kind: 'origination', balance: '0', script: { code: code(EMPTY_STATE), storage: [] } },
    ]);
    const result = orig.contents[0].metadata.operation_result;
    expect(result.status).toBe('applied');
    expect(result.lazy_storage_diff).toEqual([
      { kind: 'sapling_state', id: '0', diff: { action: 'alloc', updates: NO_UPDATES, memo_size: 8 } },
    ]);
    // lazy_storage_diff.ml: an allocated Sapling state costs bytes_size_for_empty = 33 bytes of storage, on top of
    // the script and storage (4-byte length-prefixed each)
    const scriptBytes = encodeExpr(code(EMPTY_STATE) as Expr).length + encodeExpr({ int: '0' }).length + 8;
    expect(result.storage_size).toBe(String(scriptBytes + 33));
    expect(result.paid_storage_size_diff).toBe(String(scriptBytes + 33));
    const kt1 = result.originated_contracts[0] as string;
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${kt1}/storage`)).body).toEqual({
      int: '0',
    });
    // a call replaces the state by a new one: alloc 1, remove 0 (extract_lazy_storage_diff)
    const call = await run([{ kind: 'transaction', amount: '0', destination: kt1 }]);
    const called = call.contents[0].metadata.operation_result;
    expect(called.status).toBe('applied');
    expect(called.storage).toEqual({ int: '1' });
    expect(called.lazy_storage_diff).toEqual([
      { kind: 'sapling_state', id: '1', diff: { action: 'alloc', updates: NO_UPDATES, memo_size: 8 } },
      { kind: 'sapling_state', id: '0', diff: { action: 'remove' } },
    ]);
    // run_code given the stored id (parse_data: Sapling.state_from_id) keeps it in place
    const keep = await runCode(KEEP, { int: '1' }, { prim: 'Unit' });
    expect(keep.status).toBe(200);
    expect(keep.body.storage).toEqual({ int: '1' });
    expect(keep.body.lazy_storage_diff).toEqual([
      { kind: 'sapling_state', id: '1', diff: { action: 'update', updates: NO_UPDATES } },
    ]);
    // a removed or unknown id, or a state of another memo size, is refused
    expect((await runCode(KEEP, { int: '0' }, { prim: 'Unit' })).status).toBe(500);
    const other = await runCode(
      KEEP.replace('sapling_state 8', 'sapling_state 16'),
      { int: '1' },
      { prim: 'Unit' },
    );
    expect(other.status).toBe(500);
    expect(other.body.map((e: { id: string }) => e.id)).toContain(
      'proto.024-PtTALLiN.michelson_v1.inconsistent_memo_sizes',
    );
  });

  it('SAPLING_VERIFY_UPDATE typechecks as Octez and fails with the sandbox own error, in run_code and on chain', async () => {
    // Octez script_ir_translator.ml: sapling_transaction ms : sapling_state ms →
    // option (pair bytes (pair int (sapling_state ms))); the sandbox cannot verify the Groth16 proofs, so the run
    // stops with michelson_v1.sapling_verify_update_unsupported (ARCHITECTURE §8) instead of a result.
    const r = await runCode(VERIFY(8, 8), [], { bytes: saplingTx(8) });
    expect(r.status).toBe(500);
    expect(r.body).toEqual([
      {
        kind: 'permanent',
        id: 'proto.024-PtTALLiN.michelson_v1.sapling_verify_update_unsupported',
        location: 10,
        message: expect.stringContaining('cannot verify Sapling proofs'),
      },
    ]);
    const orig = await run([
      { kind: 'origination', balance: '0', script: { code: code(VERIFY(8, 8)), storage: [] } },
    ]);
    const kt1 = orig.contents[0].metadata.operation_result.originated_contracts[0] as string;
    const call = await run([
      {
        kind: 'transaction',
        amount: '0',
        destination: kt1,
        parameters: { entrypoint: 'default', value: { bytes: saplingTx(8) } },
      },
    ]);
    const failed = call.contents[0].metadata.operation_result;
    expect(failed.status).toBe('failed');
    expect(failed.errors.map((e: { id: string }) => e.id)).toEqual([
      'proto.024-PtTALLiN.michelson_v1.runtime_error',
      'proto.024-PtTALLiN.michelson_v1.sapling_verify_update_unsupported',
    ]);
    // the state is untouched: the id the origination allocated (2, after the 0 and 1 of the test above)
    expect(orig.contents[0].metadata.operation_result.lazy_storage_diff[0].id).toBe('2');
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${kt1}/storage`)).body).toEqual({
      int: '2',
    });
  });

  it('pack_data refuses lazy storage and tickets, as Octez hash data does', async () => {
    // tezt/tests/hash_data.ml test_bad_hash_data: `{}` of `sapling_state 8` and of `big_map nat bytes`, and
    // tickets, must fail (pack_data parses the type with parse_packable_ty: Unexpected_lazy_storage / _ticket)
    const bad: Array<[unknown, unknown, string]> = [
      [[], { prim: 'sapling_state', args: [{ int: '8' }] }, 'unexpected_lazy_storage'],
      [[], { prim: 'big_map', args: [{ prim: 'nat' }, { prim: 'bytes' }] }, 'unexpected_lazy_storage'],
      [
        {
          prim: 'Pair',
          args: [{ string: 'KT1ThEdxfUcWUwqsdergy3QnbCWGHSUHeHJq' }, { bytes: '01' }, { int: '42' }],
        },
        { prim: 'ticket', args: [{ prim: 'bytes' }] },
        'unexpected_ticket',
      ],
    ];
    for (const [data, type, id] of bad) {
      const r = await h.post(`${SCRIPTS}/pack_data`, { data, type });
      expect(r.status, id).toBe(500);
      expect(r.body, id).toEqual([
        { kind: 'permanent', id: `proto.024-PtTALLiN.michelson_v1.${id}`, loc: 0 },
      ]);
    }
    // the location is the type node's; a lambda hides its types
    const inPair = await h.post(`${SCRIPTS}/pack_data`, {
      data: { prim: 'Pair', args: [[], []] },
      type: {
        prim: 'pair',
        args: [
          { prim: 'lambda', args: [{ prim: 'sapling_state', args: [{ int: '8' }] }, { prim: 'unit' }] },
          { prim: 'sapling_state', args: [{ int: '8' }] },
        ],
      },
    });
    expect(inPair.body[0]).toMatchObject({
      id: 'proto.024-PtTALLiN.michelson_v1.unexpected_lazy_storage',
      loc: 5,
    });
    const ok = await h.post(`${SCRIPTS}/pack_data`, {
      data: { bytes: saplingTx(8) },
      type: { prim: 'sapling_transaction', args: [{ int: '8' }] },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.packed).toMatch(/^050a/);
  });

  it('a memo size mismatch between state and transaction is Octez inconsistent_memo_sizes', async () => {
    // script_ir_translator.ml, SAPLING_VERIFY_UPDATE: memo_size_eq state_memo_size transaction_memo_size
    const r = await runCode(VERIFY(16, 8), [], { bytes: saplingTx(16) });
    expect(r.status).toBe(500);
    expect(r.body.map((e: { id: string }) => e.id)).toEqual([
      'proto.024-PtTALLiN.michelson_v1.ill_typed_contract',
      'proto.024-PtTALLiN.michelson_v1.inconsistent_memo_sizes',
    ]);
    expect(r.body[1]).toMatchObject({ first_memo_size: 8, other_memo_size: 16 });
  });
});

describe('types where Octez refuses them, refused by the typechecker (item 4)', () => {
  // Each in a branch that never runs: Octez refuses the script while typechecking it (parse_code wraps the
  // code's errors in Ill_typed_contract), src/proto_024_PtTALLiN/lib_protocol/script_ir_translator.ml:
  // PUSH parse_packable_ty (l. 2957), PACK check_packable traced by Unpackable_type (l. 4216, 1116),
  // EMPTY_BIG_MAP parse_big_map_value_ty (l. 3475), DUP check_dupable_ty traced by Non_dupable_type (l. 2866).
  const dead = (x: string) =>
    `parameter unit; storage unit; code { DROP; PUSH bool False; IF { ${x} } {}; UNIT; NIL operation; PAIR }`;
  const P = 'proto.024-PtTALLiN.michelson_v1.';

  it('run_code answers ill_typed_contract then the precise error, with its location', async () => {
    const cases: Array<[string, unknown[]]> = [
      // locations: 13 is the instruction in the branch, 14 its first argument
      ['PUSH (big_map int int) {}; DROP', [{ id: `${P}unexpected_lazy_storage`, loc: 14 }]],
      ['PUSH (sapling_state 8) {}; DROP', [{ id: `${P}unexpected_lazy_storage`, loc: 14 }]],
      [
        'EMPTY_BIG_MAP int int; PACK; DROP',
        [
          { id: `${P}unpackable_type`, loc: 16 },
          { id: `${P}unexpected_lazy_storage`, loc: 16 },
        ],
      ],
      [
        'SAPLING_EMPTY_STATE 8; PACK; DROP',
        [
          { id: `${P}unpackable_type`, loc: 15 },
          { id: `${P}unexpected_lazy_storage`, loc: 15 },
        ],
      ],
      ['EMPTY_BIG_MAP int (big_map int int); DROP', [{ id: `${P}unexpected_lazy_storage`, loc: 15 }]],
      ['EMPTY_BIG_MAP int (sapling_state 8); DROP', [{ id: `${P}unexpected_lazy_storage`, loc: 15 }]],
    ];
    for (const [x, precise] of cases) {
      const r = await runCode(dead(x), { prim: 'Unit' }, { prim: 'Unit' });
      expect(r.status, x).toBe(500);
      expect(r.body, x).toEqual([
        { kind: 'permanent', id: `${P}ill_typed_contract`, ill_typed_code: expect.any(Array), type_map: [] },
        ...precise.map((e) => ({ kind: 'permanent', ...(e as object) })),
      ]);
    }
  });

  it('DUP of a ticket is non_dupable_type; a parameter with an operation is ill_formed_type', async () => {
    const dup = await runCode(
      dead('PUSH nat 1; PUSH unit Unit; TICKET; ASSERT_SOME; DUP; DROP 2'),
      { prim: 'Unit' },
      { prim: 'Unit' },
    );
    expect(dup.body.map((e: { id: string }) => e.id)).toEqual([
      `${P}ill_typed_contract`,
      `${P}non_dupable_type`,
      `${P}unexpected_ticket`,
    ]);
    expect(dup.body[1].type).toEqual({ prim: 'ticket', args: [{ prim: 'unit' }] });
    // parse_code (l. 5120): parse_parameter_ty_and_entrypoints under Ill_formed_type (Some "parameter", …)
    const param = await runCode(
      'parameter (list operation); storage unit; code { CDR; NIL operation; PAIR }',
      {
        prim: 'Unit',
      },
      [],
    );
    expect(param.status).toBe(500);
    expect(param.body).toEqual([
      {
        kind: 'permanent',
        id: `${P}ill_formed_type`,
        identifier: 'parameter',
        ill_formed_expression: expect.any(Array),
        location: 2, // the parameter's type (0 the script, 1 `parameter`)
      },
      { kind: 'permanent', id: `${P}unexpected_operation`, loc: 3 },
    ]);
  });

  it('the positions Octez allows run: Sapling states and big maps in lists, maps and lambdas', async () => {
    for (const x of [
      'NIL (sapling_state 8); DROP',
      'EMPTY_MAP int (sapling_state 8); DROP',
      'NIL (big_map int int); DROP',
      'LAMBDA (big_map int int) (sapling_state 8) { DROP; SAPLING_EMPTY_STATE 8 }; DROP',
      'EMPTY_BIG_MAP int (ticket unit); DROP',
      'SELF; PACK; DROP',
    ]) {
      const r = await runCode(dead(x), { prim: 'Unit' }, { prim: 'Unit' });
      expect(r.status, x).toBe(200);
      expect(r.body.storage, x).toEqual({ prim: 'Unit' });
    }
  });
});

describe('SOURCE and SENDER from `source` and `payer` (item B)', () => {
  // Octez lib_plugin/RPC.ml, run_code (also trace_code, run_view, run_script_view):
  //   let sender_and_payer ~sender_opt ~payer_opt ~default_sender =
  //     match (sender_opt, payer_opt) with
  //     | None, None -> (Contract.Originated default_sender, Implicit_account_repr.zero)
  //     | Some c, None -> (c, Implicit_account_repr.zero)
  //     | None, Some c -> (Contract.Implicit c, c)
  //     | Some sender, Some payer -> (sender, payer)
  // with `source` the SENDER, `payer` (Contract.implicit_encoding) the SOURCE, default_sender the contract run.
  const ZERO = 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU';
  const DUMMY = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';
  const WHO = `parameter unit; storage (pair address address);
    code { DROP; SOURCE; SENDER; PAIR; NIL operation; PAIR };
    view "who" unit (pair address address) { DROP; SOURCE; SENDER; PAIR }`;
  const [s, p] = [BOOTSTRAP_ACCOUNTS[1]!.pkh, BOOTSTRAP_ACCOUNTS[2]!.pkh];
  const KT = 'KT1HMCxCyeGbZaGBsLMKVyMbMRzFpZBxKoY7';
  const who = (sender: string, source: string) => ({
    prim: 'Pair',
    args: [{ string: sender }, { string: source }],
  });
  const cases: Array<[string, Record<string, string>, ReturnType<typeof who>]> = [
    ['neither: SENDER self, SOURCE zero', {}, who(DUMMY, ZERO)],
    ['source only: SENDER source, SOURCE zero', { source: s }, who(s, ZERO)],
    ['source only, originated: SENDER source, SOURCE zero', { source: KT }, who(KT, ZERO)],
    ['payer only: SENDER and SOURCE payer', { payer: p }, who(p, p)],
    ['both: SENDER source, SOURCE payer', { source: s, payer: p }, who(s, p)],
  ];

  it.each(cases)('run_code and trace_code, %s', async (_name, extra, expected) => {
    for (const rpc of ['run_code', 'trace_code']) {
      const r = await h.post(`${SCRIPTS}/${rpc}`, {
        script: code(WHO),
        storage: who(ZERO, ZERO),
        input: { prim: 'Unit' },
        amount: '0',
        ...extra,
      });
      expect(r.status, rpc).toBe(200);
      expect(r.body.storage, rpc).toEqual(expected);
    }
  });

  it('run_script_view: the default SENDER is the viewed contract; a payer must be implicit', async () => {
    const orig = await run([
      { kind: 'origination', balance: '0', script: { code: code(WHO), storage: who(ZERO, ZERO) } },
    ]);
    const kt1 = orig.contents[0].metadata.operation_result.originated_contracts[0] as string;
    const chainId = (await h.get('/chains/main/chain_id')).body as string;
    const view = (extra: Record<string, string>) =>
      h.post(`${SCRIPTS}/run_script_view`, {
        contract: kt1,
        view: 'who',
        input: { prim: 'Unit' },
        chain_id: chainId,
        unparsing_mode: 'Readable',
        ...extra,
      });
    expect((await view({})).body).toEqual({ data: who(kt1, ZERO) });
    expect((await view({ source: s })).body).toEqual({ data: who(s, ZERO) });
    expect((await view({ payer: p })).body).toEqual({ data: who(p, p) });
    const bad = await runCode(WHO, who(ZERO, ZERO), { prim: 'Unit' }, { payer: KT });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('payer must be an implicit account');
  });
});
