// End to end with Taquito's own toolkit, as the web app's sandbox wallet will use it: estimate
// (simulate_operation), preapply, inject, and confirmation by polling blocks.
import { afterEach, describe, expect, it } from 'vitest';
import { TezosToolkit } from '@taquito/taquito';
import { InMemorySigner } from '@taquito/signer';
import { BOOTSTRAP_ACCOUNTS, startStandaloneSandbox } from '../src/index';
import { DEMO_KERNEL } from '../src/seed/kernel';
import { freshSecretKey, tempDir } from './helpers';

const FRESH_SK = freshSecretKey();
let node: { url: string; close(): Promise<void> } | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

describe('Taquito TezosToolkit against the standalone sandbox', () => {
  it('transfers to bootstrap2 and to a fresh account, then the fresh account sends back (auto-reveal)', async () => {
    // a block every 2 s (not 0.3 s): Taquito's confirmation polls the head, and on a loaded host several blocks
    // could pass between two polls, so the block holding the operation was never seen (CI, session 33)
    node = await startStandaloneSandbox({ dataDir: await tempDir(), blockTimeMs: 2_000, port: 0 });
    const tezos = new TezosToolkit(node.url);
    tezos.setProvider({
      signer: await InMemorySigner.fromSecretKey(BOOTSTRAP_ACCOUNTS[0]!.sk),
      config: { confirmationPollingTimeoutSecond: 60 },
    });
    const b2 = BOOTSTRAP_ACCOUNTS[1]!.pkh;
    const before = await tezos.tz.getBalance(b2);

    const op = await tezos.contract.transfer({ to: b2, amount: 3 });
    await op.confirmation(1);
    expect(op.status).toBe('applied');
    expect((await tezos.tz.getBalance(b2)).minus(before).toNumber()).toBe(3_000_000);

    const freshSigner = await InMemorySigner.fromSecretKey(FRESH_SK);
    const fresh = await freshSigner.publicKeyHash();
    const alloc = await tezos.contract.transfer({ to: fresh, amount: 5 });
    await alloc.confirmation(1);
    expect((await tezos.tz.getBalance(fresh)).toNumber()).toBe(5_000_000);

    const tezos2 = new TezosToolkit(node.url);
    tezos2.setProvider({ signer: freshSigner, config: { confirmationPollingTimeoutSecond: 60 } });
    const back = await tezos2.contract.transfer({ to: b2, amount: 1 });
    await back.confirmation(1);
    const after = (await tezos.tz.getBalance(fresh)).toNumber();
    expect(after).toBeLessThan(4_000_000); // 1 tez sent plus reveal and transfer fees
    expect(after).toBeGreaterThan(3_900_000);
    expect(await tezos.rpc.getManagerKey(fresh)).toBe(await freshSigner.publicKey());
  });

  it('originates a smart rollup with Taquito (estimate from the result size, then inclusion)', async () => {
    node = await startStandaloneSandbox({
      dataDir: await tempDir(),
      blockTimeMs: 600_000,
      bakeOnInject: true,
      port: 0,
    });
    const tezos = new TezosToolkit(node.url);
    tezos.setProvider({
      signer: await InMemorySigner.fromSecretKey(BOOTSTRAP_ACCOUNTS[4]!.sk),
      config: { confirmationPollingTimeoutSecond: 10 },
    });
    const op = await tezos.contract.smartRollupOriginate({
      pvmKind: 'wasm_2_0_0' as never,
      kernel: DEMO_KERNEL,
      parametersType: { prim: 'bytes' },
    });
    await op.confirmation(1);
    expect(op.status).toBe('applied');
    expect(op.storageLimit).toBeGreaterThanOrEqual(6552);
    const address = op.operationResults!.address;
    expect(address).toMatch(/^sr1/);
    expect(op.operationResults!.size).toBe('6552');
    const info = await fetch(
      `${node.url}/chains/main/blocks/head/context/smart_rollups/smart_rollup/${address}/genesis_info`,
    );
    expect(await info.json()).toMatchObject({ level: op.includedInBlock });
  });

  it('includes an operation at once with bakeOnInject, without waiting for the block timer', async () => {
    node = await startStandaloneSandbox({
      dataDir: await tempDir(),
      blockTimeMs: 600_000,
      bakeOnInject: true,
      port: 0,
    });
    const tezos = new TezosToolkit(node.url);
    tezos.setProvider({
      signer: await InMemorySigner.fromSecretKey(BOOTSTRAP_ACCOUNTS[2]!.sk),
      config: { confirmationPollingTimeoutSecond: 10 },
    });
    const op = await tezos.contract.transfer({ to: BOOTSTRAP_ACCOUNTS[3]!.pkh, amount: 1 });
    await op.confirmation(1);
    expect(op.includedInBlock).toBe(3);
  });
});
