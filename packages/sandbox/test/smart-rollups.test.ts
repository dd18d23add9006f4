// smart_rollup_originate (recorded, no PVM): the receipt in the node's shape and field order, the
// sr1 address from the origination nonce, the size and its burn, refusals and failures, and the
// `…/context/smart_rollups/…` RPCs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ACCOUNTS } from '../src/index';
import { originatedAddress } from '../src/execute';
import { originationSize, smartRollupAddress } from '../src/smart-rollups';
import { DEMO_KERNEL } from '../src/seed/kernel';
import { openHarness, signedOperation, type Harness } from './helpers';

const b4 = BOOTSTRAP_ACCOUNTS[3]!;
let h: Harness;
let counter = 0;

beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => {
  await h.close();
});

async function inject(contents: Array<Record<string, unknown>>) {
  const branch = (await h.get('/chains/main/blocks/head/hash')).body;
  const full = contents.map((c, i) => ({
    source: b4.pkh,
    fee: '10000',
    counter: String(counter + 1 + i),
    gas_limit: '100000',
    storage_limit: '10000',
    ...c,
  }));
  const r = await h.post('/injection/operation', await signedOperation(b4.sk, branch, full));
  if (r.status === 200) counter += contents.length;
  return r;
}

async function run(contents: Array<Record<string, unknown>>) {
  const r = await inject(contents);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const block = await h.sandbox.bakeBlock();
  const op = block.operations[3]!.find((o) => o.hash === r.body)!;
  return { hash: r.body as string, contents: op.contents as any[], level: block.header.level };
}

const originate = (extra: Record<string, unknown> = {}) => ({
  kind: 'smart_rollup_originate',
  pvm_kind: 'wasm_2_0_0',
  kernel: DEMO_KERNEL,
  parameters_ty: { prim: 'bytes' },
  ...extra,
});
const rollups = '/chains/main/blocks/head/context/smart_rollups';

describe('smart_rollup_originate', () => {
  it('sums the size as Octez does (its receipt for parameter type `bytes` says 6552)', () => {
    // Octez' receipt of a Mumbai origination with `parameters_ty: bytes`: size 6552, burn 1,638,000.
    expect(originationSize({ prim: 'bytes' })).toBe(6552n);
    // Each byte of the parameter type's binary form costs one more byte.
    expect(originationSize({ prim: 'pair', args: [{ prim: 'nat' }, { prim: 'bytes' }] })).toBe(6556n);
  });

  it('records a rollup with the node-shaped receipt, its burn and its context', async () => {
    const before = BigInt((await h.get(`/chains/main/blocks/head/context/contracts/${b4.pkh}/balance`)).body);
    const { hash, contents, level } = await run([originate()]);
    const result = contents[0].metadata.operation_result;
    const address = smartRollupAddress({ hash, originations: 0 });
    expect(address).toMatch(/^sr1/);
    expect(Object.keys(result)).toEqual([
      'status',
      'balance_updates',
      'address',
      'genesis_commitment_hash',
      'consumed_milligas',
      'size',
    ]);
    expect(result).toMatchObject({
      status: 'applied',
      address,
      genesis_commitment_hash: expect.stringMatching(/^src1[1-9A-HJ-NP-Za-km-z]{50}$/),
      consumed_milligas: '2748269',
      size: '6552',
    });
    expect(result.balance_updates).toEqual([
      { kind: 'contract', contract: b4.pkh, change: '-1638000', origin: 'block' },
      { kind: 'burned', category: 'storage fees', change: '1638000', origin: 'block' },
    ]);
    const after = BigInt((await h.get(`/chains/main/blocks/head/context/contracts/${b4.pkh}/balance`)).body);
    expect(before - after).toBe(10_000n + 1_638_000n);

    expect((await h.get(`${rollups}/all`)).body).toEqual([address]);
    expect((await h.get(`${rollups}/smart_rollup/${address}/kind`)).body).toBe('wasm_2_0_0');
    expect((await h.get(`${rollups}/smart_rollup/${address}/genesis_info`)).body).toEqual({
      level,
      commitment_hash: result.genesis_commitment_hash,
    });
    expect(
      (await h.get(`${rollups}/smart_rollup/${address}/last_cemented_commitment_hash_with_level`)).body,
    ).toEqual({ hash: result.genesis_commitment_hash, level });
    expect((await h.get(`${rollups}/smart_rollup/${address}/stakers`)).body).toEqual([]);
    expect((await h.get(`${rollups}/smart_rollup/${address}/whitelist`)).body).toBeNull();
    // Not there before its block.
    expect((await h.get(`/chains/main/blocks/${level - 1}/context/smart_rollups/all`)).body).toEqual([]);
    const unknown = smartRollupAddress({ hash, originations: 7 });
    expect((await h.get(`${rollups}/smart_rollup/${unknown}/kind`)).status).toBe(404);
    expect((await h.get(`${rollups}/smart_rollup/KT1notarollup/kind`)).status).toBe(400);
  });

  it('counts rollups and contracts in one origination nonce, and keeps a whitelist', async () => {
    const { hash, contents } = await run([
      {
        kind: 'origination',
        balance: '0',
        script: {
          code: [
            { prim: 'parameter', args: [{ prim: 'unit' }] },
            { prim: 'storage', args: [{ prim: 'unit' }] },
            {
              prim: 'code',
              args: [[{ prim: 'CDR' }, { prim: 'NIL', args: [{ prim: 'operation' }] }, { prim: 'PAIR' }]],
            },
          ],
          storage: { prim: 'Unit' },
        },
      },
      originate({ whitelist: [b4.pkh, BOOTSTRAP_ACCOUNTS[0]!.pkh] }),
    ]);
    expect(contents[0].metadata.operation_result.originated_contracts).toEqual([originatedAddress(hash, 0)]);
    const address = contents[1].metadata.operation_result.address;
    expect(address).toBe(smartRollupAddress({ hash, originations: 1 }));
    expect((await h.get(`${rollups}/smart_rollup/${address}/whitelist`)).body).toEqual([
      b4.pkh,
      BOOTSTRAP_ACCOUNTS[0]!.pkh,
    ]);
  });

  it('refuses disabled PVM kinds and backtracks when the storage limit is below the size', async () => {
    const refused = await inject([originate({ pvm_kind: 'arith' })]);
    expect(refused.status).toBe(500);
    expect(refused.body[0]).toMatchObject({ id: 'proto.024-PtTALLiN.operation.arith_pvm_disabled' });
    const { contents } = await run([originate({ storage_limit: '6000' })]);
    // As in Octez, a burn that fails after the content ran leaves it `backtracked`, with the error.
    expect(contents[0].metadata.operation_result).toMatchObject({
      status: 'backtracked',
      errors: [{ id: 'proto.024-PtTALLiN.storage_exhausted.operation' }],
    });
  });
});
