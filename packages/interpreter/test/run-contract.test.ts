/**
 * runContract on real mainnet contracts from ../shared/fixtures/contracts: an FA1.2 token (USDtz-style,
 * ledger big map 36) and the hic et nunc OBJKT FA2 ledger (big map 511), with the big-map entries sampled
 * from mainnet. Plus self-contained checks of failures, gas, step events, fresh big maps and views.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChainContext, Expr, LazyStorageDiffItem, StepEvent } from '../src/index';
import { originateContract, parseData, runContract, runView, toTy } from '../src/index';
import { fixtureChain } from './fixture-chain';

const contracts = path.resolve(__dirname, '../../../../shared/fixtures/contracts');
const hasShared = existsSync(contracts);
if (!hasShared) console.warn(`runContract fixture tests skipped: ${contracts} not found`);

const readJson = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8'));
interface Sample {
  key: Expr;
  value: Expr;
}

function addressOf(bytes: Expr): string {
  return (parseData(bytes, toTy({ prim: 'address' })) as { str: string }).str;
}
function updatesOf(diff: LazyStorageDiffItem[], id: string): { key: Expr; value?: Expr }[] {
  const d = diff.find((x) => x.kind === 'big_map' && x.id === id)?.diff;
  return d && 'updates' in d && Array.isArray(d.updates) ? d.updates : [];
}
const RECIPIENT = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';

describe.skipIf(!hasShared)('FA1.2 token (KT1LN4LPSqTMS7Sd2CJw4bbDGRkMv2t68Fy9)', () => {
  const addr = 'KT1LN4LPSqTMS7Sd2CJw4bbDGRkMv2t68Fy9';
  const dir = path.join(contracts, addr);
  const code = readJson(path.join(dir, 'code.json')) as Expr;
  const storage = readJson(path.join(dir, 'storage.json')) as Expr;
  const samples = readJson(path.join(dir, 'bigmaps/36.json')) as Sample[];
  const balanceOf = (s: Sample): bigint =>
    BigInt(((s.value as { args: { int: string }[] }).args[0] as { int: string }).int);
  const holder = [...samples].sort((a, b) => (balanceOf(b) > balanceOf(a) ? 1 : -1))[0] as Sample;
  const holderAddress = addressOf(holder.key);
  const chain = fixtureChain(dir, code, storage);
  const call = (
    parameter: Expr,
    extra: Partial<Parameters<typeof runContract>[0]> = {},
  ): ReturnType<typeof runContract> =>
    runContract({
      script: code,
      storage,
      parameter,
      entrypoint: 'transfer',
      self: addr,
      sender: holderAddress,
      source: holderAddress,
      chain,
      ...extra,
    });

  it('moves tokens between two ledger entries and reports an in-place big-map update', () => {
    const r = call({
      prim: 'Pair',
      args: [{ string: holderAddress }, { prim: 'Pair', args: [{ string: RECIPIENT }, { int: '1000' }] }],
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.operations).toEqual([]);
    expect(r.lazyStorageDiff.map((d) => [d.id, d.diff.action])).toEqual([['36', 'update']]);
    const ups = updatesOf(r.lazyStorageDiff, '36');
    const byAddr = new Map(ups.map((u) => [(u.key as { string: string }).string, u.value]));
    expect(byAddr.get(holderAddress)).toEqual({
      prim: 'Pair',
      args: [{ int: String(balanceOf(holder) - 1000n) }, []],
    });
    expect(byAddr.get(RECIPIENT)).toEqual({ prim: 'Pair', args: [{ int: '1000' }, []] });
    expect((r.storage as { prim: string; args: Expr[] }).args[0]).toEqual({ int: '36' });
    expect(r.consumedMilligas).toBeGreaterThan(0);
  });

  it('rejects a transfer above the balance with the contract error in Octez shape', () => {
    const tooMuch = String(balanceOf(holder) + 1n);
    const r = call({
      prim: 'Pair',
      args: [{ string: holderAddress }, { prim: 'Pair', args: [{ string: RECIPIENT }, { int: tooMuch }] }],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('script_rejected');
    const [err] = r.errors;
    expect(err?.id).toMatch(/^proto\..*\.michelson_v1\.script_rejected$/);
    expect(typeof err?.location).toBe('number');
    expect(err?.with).toBeDefined();
  });

  it('answers a getBalance callback with a transaction to the callback contract', () => {
    const callback = 'KT1Q36KWPSba7dHsH5E4ZsQHehrChc51e19d';
    const withCallback: ChainContext = {
      ...chain,
      contract: (a) => (a === callback ? { parameter: { prim: 'nat' } } : null),
    };
    const r = runContract({
      script: code,
      storage,
      entrypoint: 'getBalance',
      self: addr,
      chain: withCallback,
      parameter: { prim: 'Pair', args: [{ string: holderAddress }, { string: callback }] },
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.operations.map((o) => o.json)).toEqual([
      {
        kind: 'transaction',
        source: addr,
        nonce: 0,
        amount: '0',
        destination: callback,
        parameters: { entrypoint: 'default', value: { int: String(balanceOf(holder)) } },
      },
    ]);
  });

  it('refuses unknown entrypoints and ill-typed parameters as bad_contract_parameter', () => {
    const a = call({ int: '1' }, { entrypoint: 'nope' });
    const b = call({ string: 'not a pair' });
    for (const r of [a, b]) {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors[0]?.id).toMatch(/bad_contract_parameter$/);
    }
  });

  it('runs out of gas under a tiny gas limit', () => {
    const r = call(
      {
        prim: 'Pair',
        args: [{ string: holderAddress }, { prim: 'Pair', args: [{ string: RECIPIENT }, { int: '1' }] }],
      },
      { gasLimit: 50_000 },
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.id).toMatch(/gas_exhausted\.operation$/);
  });
});

describe.skipIf(!hasShared)('FA2 OBJKT ledger (KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton)', () => {
  const addr = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
  const dir = path.join(contracts, addr);
  const code = readJson(path.join(dir, 'code.json')) as Expr;
  const storage = readJson(path.join(dir, 'storage.json')) as Expr;
  const samples = readJson(path.join(dir, 'bigmaps/511.json')) as Sample[];
  const entry = samples.find((s) => BigInt((s.value as { int: string }).int) >= 2n) as Sample;
  const [ownerBytes, tokenId] = (entry.key as { args: Expr[] }).args as [Expr, { int: string }];
  const owner = addressOf(ownerBytes);
  const owned = BigInt((entry.value as { int: string }).int);

  it('transfers an edition and updates both ledger keys', () => {
    const parameter = [
      {
        prim: 'Pair',
        args: [
          { string: owner },
          [{ prim: 'Pair', args: [{ string: RECIPIENT }, { prim: 'Pair', args: [tokenId, { int: '1' }] }] }],
        ],
      },
    ];
    const r = runContract({
      script: code,
      storage,
      parameter,
      entrypoint: 'transfer',
      self: addr,
      sender: owner,
      source: owner,
      chain: fixtureChain(dir, code, storage),
    });
    if (!r.ok) throw new Error(r.error.message);
    const ups = updatesOf(r.lazyStorageDiff, '511');
    const value = (who: string): Expr | undefined =>
      ups.find(
        (u) => ((u.key as { args: { string: string }[] }).args[0] as { string: string }).string === who,
      )?.value;
    expect(value(owner)).toEqual({ int: String(owned - 1n) });
    expect(value(RECIPIENT)).toEqual({ int: '1' });
    expect(r.lazyStorageDiff.filter((d) => d.diff.action !== 'update')).toEqual([]);
  });

  it('refuses a transfer by someone who is neither owner nor operator', () => {
    const parameter = [
      {
        prim: 'Pair',
        args: [
          { string: owner },
          [{ prim: 'Pair', args: [{ string: RECIPIENT }, { prim: 'Pair', args: [tokenId, { int: '1' }] }] }],
        ],
      },
    ];
    const r = runContract({
      script: code,
      storage,
      parameter,
      entrypoint: 'transfer',
      self: addr,
      sender: RECIPIENT,
      chain: fixtureChain(dir, code, storage),
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.kind).toBe('script_rejected');
  });
});

describe.skipIf(!hasShared)('error locations match a recorded mainnet failure', () => {
  it('atomic swap KT1PbQ8FAk5RHtkAyuU49ddbm1nyVoxm8J1E: initiate with a past refund time', () => {
    const dir = path.join(contracts, 'KT1PbQ8FAk5RHtkAyuU49ddbm1nyVoxm8J1E');
    const recorded = readJson(path.join(dir, 'runtime_error.json')) as { location: number; with: Expr };
    const r = runContract({
      script: readJson(path.join(dir, 'code.json')) as Expr,
      storage: { prim: 'Pair', args: [[], { prim: 'Unit' }] },
      entrypoint: 'initiate',
      amount: 1_000_000n,
      now: 1_600_000_000n,
      parameter: {
        prim: 'Pair',
        args: [
          { string: RECIPIENT },
          {
            prim: 'Pair',
            args: [{ prim: 'Pair', args: [{ bytes: '00'.repeat(32) }, { int: '0' }] }, { int: '0' }],
          },
        ],
      },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatchObject({ location: recorded.location, with: recorded.with });
  });
});

describe('runContract on inline scripts', () => {
  const counter = `parameter (or (int %add) (unit %reset)); storage (pair int (big_map nat string));
    code { UNPAIR; IF_LEFT { DIP { UNPAIR }; ADD } { DROP; UNPAIR; DROP; PUSH int 0 };
           DIP { PUSH string "seen"; SOME; PUSH nat 7; UPDATE }; PAIR; NIL operation; PAIR };
    view "current" unit int { CDR; CAR }`;

  it('allocates a fresh big map with the id the chain gives and reports alloc + updates', () => {
    const r = runContract({
      script: counter,
      storage: { prim: 'Pair', args: [{ int: '5' }, []] },
      parameter: { int: '3' },
      entrypoint: 'add',
      allocateBigMapId: () => 42n,
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.storage).toEqual({ prim: 'Pair', args: [{ int: '8' }, { int: '42' }] });
    expect(r.lazyStorageDiff).toEqual([
      {
        kind: 'big_map',
        id: '42',
        diff: {
          action: 'alloc',
          key_type: { prim: 'nat' },
          value_type: { prim: 'string' },
          updates: [
            {
              key_hash: expect.stringMatching(/^expr/) as string,
              key: { int: '7' },
              value: { string: 'seen' },
            },
          ],
        },
      },
    ]);
  });

  it('copies a big map sent to another contract to a temporary id', () => {
    const target = 'KT1Q36KWPSba7dHsH5E4ZsQHehrChc51e19d';
    const sender = `parameter unit; storage (big_map nat string);
      code { CDR; DUP; PUSH address "${target}"; CONTRACT (big_map nat string); ASSERT_SOME; PUSH mutez 0; DIG 2;
             TRANSFER_TOKENS; NIL operation; SWAP; CONS; PAIR }`;
    const chain: ChainContext = {
      contract: (a) =>
        a === target ? { parameter: { prim: 'big_map', args: [{ prim: 'nat' }, { prim: 'string' }] } } : null,
      bigMapTypes: (id) =>
        id === 5n ? { key: toTy({ prim: 'nat' }), value: toTy({ prim: 'string' }) } : null,
    };
    let temp = 0n;
    const r = runContract({
      script: sender,
      storage: { int: '5' },
      parameter: { prim: 'Unit' },
      chain,
      allocateBigMapId: () => 100n,
      allocateTemporaryBigMapId: () => --temp,
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.storage).toEqual({ int: '5' });
    expect(
      r.lazyStorageDiff.map((d) => [d.id, d.diff.action, 'source' in d.diff ? d.diff.source : null]),
    ).toEqual([
      ['5', 'update', null],
      ['-1', 'copy', '5'],
    ]);
    expect(r.operations[0]?.json).toMatchObject({
      kind: 'transaction',
      destination: target,
      parameters: { value: { int: '-1' } },
    });
  });

  it('reports step events with locations, instructions and stacks when a listener is attached', () => {
    const steps: StepEvent[] = [];
    const r = runContract({
      script: counter,
      storage: { prim: 'Pair', args: [{ int: '1' }, []] },
      parameter: { prim: 'Unit' },
      entrypoint: 'reset',
      onStep: (e) => steps.push(e),
    });
    expect(r.ok).toBe(true);
    expect(steps[0]?.prim).toBe('UNPAIR');
    expect(steps.map((s) => s.prim)).toContain('IF_LEFT');
    const last = steps[steps.length - 1] as StepEvent;
    expect(last.prim).toBe('PAIR');
    expect(last.stack).toHaveLength(1);
    expect(steps.every((s, i) => i === 0 || s.gasLeft <= (steps[i - 1] as StepEvent).gasLeft)).toBe(true);
    expect(new Set(steps.map((s) => s.location)).size).toBeGreaterThan(3);
  });

  it('runs an on-chain view against the given storage', () => {
    const r = runView({
      script: counter,
      storage: { prim: 'Pair', args: [{ int: '11' }, []] },
      view: 'current',
      input: { prim: 'Unit' },
    });
    expect(r).toMatchObject({ ok: true, data: { int: '11' } });
  });

  it('rejects an ill-typed script and never throws on garbage input', () => {
    const bad = runContract({
      script: 'parameter int; storage nat; code { UNPAIR; ADD; NIL operation; PAIR }',
      storage: { int: '1' },
      parameter: { int: '1' },
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.kind).toBe('ill_typed');
    const garbage = runContract({
      script: counter,
      storage: null as unknown as Expr,
      parameter: { int: 'x' },
    });
    expect(garbage.ok).toBe(false);
  });

  it('keeps tickets in storage across calls and joins them', () => {
    const minter = `parameter nat; storage (option (ticket string));
      code { UNPAIR; PUSH string "gold"; TICKET; ASSERT_SOME; SWAP;
             IF_NONE {} { PAIR; JOIN_TICKETS; ASSERT_SOME }; SOME; NIL operation; PAIR }`;
    const self = 'KT1Q36KWPSba7dHsH5E4ZsQHehrChc51e19d';
    const first = runContract({ script: minter, storage: { prim: 'None' }, parameter: { int: '5' }, self });
    if (!first.ok) throw new Error(first.error.message);
    const ticket = { prim: 'Pair', args: [{ string: self }, { string: 'gold' }, { int: '5' }] };
    expect(first.storage).toEqual({ prim: 'Some', args: [ticket] });
    const second = runContract({ script: minter, storage: first.storage, parameter: { int: '3' }, self });
    expect(second).toMatchObject({
      ok: true,
      storage: { prim: 'Some', args: [{ args: [{ string: self }, { string: 'gold' }, { int: '8' }] }] },
    });
    // A ticket forged in an external parameter is refused.
    const forged = runContract({
      script: 'parameter (ticket string); storage unit; code { CDR; NIL operation; PAIR }',
      storage: { prim: 'Unit' },
      parameter: ticket,
    });
    expect(forged.ok).toBe(false);
  });

  it('expands global constants through the chain context', () => {
    const hash = 'exprtWsu7N8st7XBhS685Qa2B6xtEUCtQ3o4ZRLAtzrNAnkbPzMqxP';
    const script = `parameter unit; storage int; code { DROP; constant "${hash}"; NIL operation; PAIR }`;
    const chain: ChainContext = {
      globalConstant: (h) => (h === hash ? [{ prim: 'PUSH', args: [{ prim: 'int' }, { int: '9' }] }] : null),
    };
    expect(runContract({ script, storage: { int: '0' }, parameter: { prim: 'Unit' }, chain })).toMatchObject({
      ok: true,
      storage: { int: '9' },
    });
    expect(runContract({ script, storage: { int: '0' }, parameter: { prim: 'Unit' } }).ok).toBe(false);
  });

  it('without addresses from the chain, CREATE_CONTRACT originates as Octez run_code does (issue 33)', () => {
    // Octez lib_plugin/RPC.ml: run_code without `self` initialises the origination nonce with the zero operation
    // hash, its dummy SELF takes index 0 and CREATE_CONTRACT the next ones. tezt contract_opcodes.ml regression
    // "opcodes -create_contract-": storage (Some "KT1Mjjcb6tmSsLm7Cb3DSQszePjfchPM4Uxm");
    // michelson_test_scripts/opcodes/create_contract.tz, and the same twice in one run (indexes 1 and 2).
    const create = `parameter unit; storage (option address);
      code { DROP; UNIT; AMOUNT; NONE key_hash;
             CREATE_CONTRACT { parameter unit; storage unit; code { CDR; NIL operation; PAIR } };
             DIP { SOME; NIL operation }; CONS; PAIR }`;
    const once = runContract({ script: create, storage: { prim: 'None' }, parameter: { prim: 'Unit' } });
    expect(once).toMatchObject({
      ok: true,
      storage: { prim: 'Some', args: [{ string: 'KT1Mjjcb6tmSsLm7Cb3DSQszePjfchPM4Uxm' }] },
    });
    const twice = `parameter unit; storage (pair address address);
      code { DROP;
             UNIT; PUSH mutez 0; NONE key_hash; CREATE_CONTRACT { parameter unit; storage unit; code { CDR; NIL operation; PAIR } };
             UNIT; PUSH mutez 0; NONE key_hash; CREATE_CONTRACT { parameter unit; storage unit; code { CDR; NIL operation; PAIR } };
             DIG 2; NIL operation; SWAP; CONS; SWAP; CONS; DUG 2; SWAP; PAIR; SWAP; PAIR }`;
    const dummy = { string: 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi' };
    expect(
      runContract({
        script: twice,
        storage: { prim: 'Pair', args: [dummy, dummy] },
        parameter: { prim: 'Unit' },
      }),
    ).toMatchObject({
      ok: true,
      storage: {
        prim: 'Pair',
        args: [
          { string: 'KT1Mjjcb6tmSsLm7Cb3DSQszePjfchPM4Uxm' },
          { string: 'KT1HMCxCyeGbZaGBsLMKVyMbMRzFpZBxKoY7' },
        ],
      },
    });
  });
});

describe('originateContract', () => {
  it('gives the storage size Octez burns for (store_input.tz: 41 bytes)', () => {
    const r = originateContract({
      script: 'parameter string; storage string; code {CAR; NIL operation; PAIR};',
      storage: { string: '' },
    });
    expect(r).toMatchObject({ ok: true, storageSize: 41 });
  });

  it('allocates the big maps of the initial storage with their entries', () => {
    const r = originateContract({
      script: 'parameter unit; storage (big_map nat string); code {CDR; NIL operation; PAIR};',
      storage: [{ prim: 'Elt', args: [{ int: '1' }, { string: 'a' }] }],
      allocateBigMapId: () => 9n,
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.storage).toEqual({ int: '9' });
    // expru2dKq… is the well-known script-expression hash of the nat key 1.
    expect(r.lazyStorageDiff).toEqual([
      {
        kind: 'big_map',
        id: '9',
        diff: {
          action: 'alloc',
          key_type: { prim: 'nat' },
          value_type: { prim: 'string' },
          updates: [
            {
              key_hash: 'expru2dKqDfZG8hu4wNGkiyunvq2hdSKuVYtcKta7BWP6Q18oNxKjS',
              key: { int: '1' },
              value: { string: 'a' },
            },
          ],
        },
      },
    ]);
  });

  it('refuses deprecated instructions and ill-typed initial storage', () => {
    const legacyOnly = originateContract({
      script: 'parameter mutez; storage mutez; code { UNPAIR; SUB; NIL operation; PAIR }',
      storage: { int: '1' },
    });
    expect(legacyOnly.ok).toBe(false);
    const badStorage = originateContract({
      script: 'parameter unit; storage nat; code { CDR; NIL operation; PAIR }',
      storage: { int: '-1' },
    });
    expect(badStorage.ok).toBe(false);
    if (!badStorage.ok) expect(badStorage.error.kind).toBe('ill_typed');
  });
});

describe("an internal call's parameter is already typed (Octez's Typed_arg)", () => {
  // a contract that drops its parameter: the script's own work does not depend on it
  const script = `parameter (or (string %note) (pair %pair nat (list bytes))); storage unit;
    code { CDR; NIL operation; PAIR }`;
  const gas = (value: Expr, entrypoint: string, internal: boolean) => {
    const r = runContract({
      script,
      storage: { prim: 'Unit' },
      parameter: value,
      entrypoint,
      ...(internal ? { ticketsInParameter: true } : {}),
    });
    expect(r.ok).toBe(true);
    return r.consumedMilligas;
  };
  const short = { string: 'a' };
  const long = { string: 'a'.repeat(10_000) };

  it('charges no decoding nor parsing of it: the same gas for a short and a long value', () => {
    expect(gas(long, 'note', true)).toBe(gas(short, 'note', true));
    // an external parameter is decoded (10 milligas a byte) and parsed: the long one costs more
    expect(gas(long, 'note', false) - gas(short, 'note', false)).toBe(10 * 9_999);
  });

  it("charges the equality of its type with the entrypoint's: cost_TY_EQ (35 + 22 per node) of its size", () => {
    const pairValue = { prim: 'Pair', args: [{ int: '7' }, [{ bytes: '00' }, { bytes: 'ff' }]] };
    // string: 1 node; pair nat (list bytes): 4 nodes
    expect(gas(pairValue, 'pair', true) - gas(short, 'note', true)).toBe(22 * (4 - 1));
    // external: 60 per decoded node (+10 per byte), 100 per parsed node, instead of the type equality
    const external = gas(short, 'note', false) - gas(short, 'note', true);
    expect(external).toBe(60 + 10 + 100 - (35 + 22));
  });
});
