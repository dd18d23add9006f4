// End to end with Taquito against a real HTTP listener: originate, call entrypoints, read storage
// and a big-map value, run an on-chain view, batch, and see failing calls rejected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TezosToolkit, TezosOperationError, MichelsonMap } from '@taquito/taquito';
import { InMemorySigner } from '@taquito/signer';
import { BOOTSTRAP_ACCOUNTS, startStandaloneSandbox } from '../src/index';
import { contractSource, tempDir } from './helpers';

let node: { url: string; close(): Promise<void> } | undefined;
let tezos: TezosToolkit;
let counterAddress = '';

beforeAll(async () => {
  node = await startStandaloneSandbox({ dataDir: await tempDir(), blockTimeMs: 300, port: 0 });
  tezos = new TezosToolkit(node.url);
  tezos.setProvider({
    signer: await InMemorySigner.fromSecretKey(BOOTSTRAP_ACCOUNTS[1]!.sk),
    config: { confirmationPollingTimeoutSecond: 20 },
  });
});
afterAll(async () => {
  await node?.close();
});

describe('contracts through Taquito', () => {
  it('originates a contract with a big map and reads it back', async () => {
    const entries = new MichelsonMap<string, number>();
    entries.set('a', 1);
    const op = await tezos.contract.originate({
      code: await contractSource('counter'),
      storage: { counter: 5, entries },
    });
    await op.confirmation(1);
    expect(op.status).toBe('applied');
    counterAddress = op.contractAddress!;
    expect(counterAddress).toMatch(/^KT1/);
    const contract = await tezos.contract.at(counterAddress);
    expect(Object.keys(contract.methodsObject).sort()).toEqual(['decrement', 'increment', 'set_entry']);
    const storage = await contract.storage<{
      counter: { toNumber(): number };
      entries: { get(k: string): Promise<{ toNumber(): number } | undefined> };
    }>();
    expect(storage.counter.toNumber()).toBe(5);
    expect((await storage.entries.get('a'))?.toNumber()).toBe(1);
    expect(await storage.entries.get('zz')).toBeUndefined();
  });

  it('calls entrypoints, updates storage and the big map, and runs the on-chain view', async () => {
    const contract = await tezos.contract.at(counterAddress);
    const inc = await contract.methodsObject.increment!(7).send();
    await inc.confirmation(1);
    const set = await contract.methodsObject.set_entry!({ 0: 'b', 1: 42 }).send();
    await set.confirmation(1);
    const storage = await contract.storage<{
      counter: { toNumber(): number };
      entries: { get(k: string): Promise<{ toNumber(): number } | undefined> };
    }>();
    expect(storage.counter.toNumber()).toBe(12);
    expect((await storage.entries.get('b'))?.toNumber()).toBe(42);
    const view = await contract.contractViews.get_counter!().executeView({ viewCaller: counterAddress });
    expect(view.toNumber()).toBe(12);
  });

  it('sends a batch and rejects a failing call with its FAILWITH value at estimation', async () => {
    const contract = await tezos.contract.at(counterAddress);
    const batch = await tezos.contract
      .batch()
      .withContractCall(contract.methodsObject.increment!(1))
      .withContractCall(contract.methodsObject.decrement!(3))
      .send();
    await batch.confirmation(1);
    const storage = await contract.storage<{ counter: { toNumber(): number } }>();
    expect(storage.counter.toNumber()).toBe(10);
    const failing = contract.methodsObject.decrement!(1000).send();
    await expect(failing).rejects.toBeInstanceOf(TezosOperationError);
    await expect(contract.methodsObject.decrement!(1000).send()).rejects.toThrow(/negative/);
    expect((await contract.storage<{ counter: { toNumber(): number } }>()).counter.toNumber()).toBe(10);
  });

  it('registers a global constant and changes the delegate through Taquito', async () => {
    const value = { prim: 'Pair', args: [{ int: '7' }, { string: 'taquito' }] };
    const reg = await tezos.contract.registerGlobalConstant({ value });
    await reg.confirmation(1);
    expect(reg.status).toBe('applied');
    expect(reg.globalConstantHash).toMatch(/^expr/);
    const res = await fetch(
      `${node!.url}/chains/main/blocks/head/context/global_constants/${reg.globalConstantHash}`,
    );
    expect(await res.json()).toEqual(value);
    const b3 = BOOTSTRAP_ACCOUNTS[2]!.pkh;
    const del = await tezos.contract.setDelegate({ source: BOOTSTRAP_ACCOUNTS[1]!.pkh, delegate: b3 });
    await del.confirmation(1);
    expect(await tezos.rpc.getDelegate(BOOTSTRAP_ACCOUNTS[1]!.pkh)).toBe(b3);
  });

  it('calls the default entrypoint of a contract without annotations', async () => {
    const op = await tezos.contract.originate({
      code: 'parameter int; storage int; code { UNPAIR; ADD; NIL operation; PAIR };',
      init: { int: '1' },
    });
    await op.confirmation(1);
    const contract = await tezos.contract.at(op.contractAddress!);
    const call = await contract.methodsObject.default!(41).send();
    await call.confirmation(1);
    expect((await contract.storage<{ toNumber(): number }>()).toNumber()).toBe(42);
  });
});
