// Gas of a batch with internal calls on the seeded chain: what the simulation reports must cover
// what the application charges against each content's gas limit, so Taquito's estimate (simulated
// consumed_milligas + 100 gas) is always enough, even with several internal calls in one content.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpKind, TezosToolkit, type ParamsWithKind } from '@taquito/taquito';
import { InMemorySigner } from '@taquito/signer';
import { BOOTSTRAP_ACCOUNTS, startStandaloneSandbox } from '../src/index';
import { tempDir } from './helpers';
import { copySeededChain } from '../src/testing';

interface Result {
  status: string;
  consumed_milligas?: string;
}
interface Content {
  metadata: { operation_result: Result; internal_operation_results?: Array<{ result: Result }> };
}

/** Milligas a content used: its own result plus its internal operations' (as Taquito sums them). */
const milligas = (c: Content) =>
  [c.metadata.operation_result, ...(c.metadata.internal_operation_results ?? []).map((i) => i.result)].reduce(
    (n, r) => n + Number(r.consumed_milligas ?? 0),
    0,
  );

const b1 = BOOTSTRAP_ACCOUNTS[0]!;
const lines: string[] = [];
let node: { url: string; close(): Promise<void> };
let tezos: TezosToolkit;
let contracts: Record<string, string>;

beforeAll(async () => {
  const dataDir = await tempDir();
  const log = (l: string) => lines.push(l);
  node = await startStandaloneSandbox({
    dataDir,
    blockTimeMs: 600_000,
    bakeOnInject: true,
    seed: !(await copySeededChain(dataDir, log)),
    port: 0,
    log,
  });
  const seeded = lines.find((l) => l.includes('demo seed:'))!;
  contracts = Object.fromEntries([...seeded.matchAll(/(\w+)=(KT1\w+)/g)].map((m) => [m[1]!, m[2]!]));
  tezos = new TezosToolkit(node.url);
  tezos.setProvider({
    signer: await InMemorySigner.fromSecretKey(b1.sk),
    config: { confirmationPollingTimeoutSecond: 20 },
  });
}, 120_000);
afterAll(async () => {
  await node?.close();
});

/** Transfer parameters of a call of `entrypoint` on `address`, built by Taquito from the contract's script. */
async function call(address: string, entrypoint: string, arg: unknown): Promise<ParamsWithKind> {
  const method = (await tezos.contract.at(address)).methodsObject[entrypoint];
  if (!method) throw new Error(`no entrypoint ${entrypoint} on ${address}`);
  return { kind: OpKind.TRANSACTION, ...method(arg).toTransferParams() };
}

/** FA1.2 approve, FA2 operator added, the swap (two internal token calls), operator removed, approve 0. */
async function swapBatch(): Promise<ParamsWithKind[]> {
  const { fa12, fa2, swap } = contracts as { fa12: string; fa2: string; swap: string };
  const operator = { owner: b1.pkh, operator: swap, token_id: 0 };
  return Promise.all([
    call(fa12, 'approve', { spender: swap, value: 5 }),
    call(fa2, 'update_operators', [{ add_operator: operator }]),
    call(swap, 'default', 5),
    call(fa2, 'update_operators', [{ remove_operator: operator }]),
    call(fa12, 'approve', { spender: swap, value: 0 }),
  ]);
}

async function simulate(params: ParamsWithKind[]): Promise<Content[]> {
  const prepared = await tezos.prepare.batch(params);
  const res = await fetch(`${node.url}/chains/main/blocks/head/helpers/scripts/simulate_operation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      operation: {
        ...prepared.opOb,
        signature:
          'sigUHx32f9wesZ1n2BWpixXz4AQaZggEtchaQNHYGRCoWNAXx45WGW2ua3apUUUAGMLPwAU41QoaFCzVSL61VaessLg4YbbP',
      },
      chain_id: await tezos.rpc.getChainId(),
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { contents: Content[] }).contents;
}

async function receipts(hash: string, level: number): Promise<Content[]> {
  const block = await tezos.rpc.getBlock({ block: String(level) });
  const group = block.operations[3]!.find((o) => o.hash === hash)!;
  return group.contents as unknown as Content[];
}

describe('gas of a batch with internal calls (seeded chain)', () => {
  it('is applied with Taquito’s own estimate, each content using no more than simulated', async () => {
    const params = await swapBatch();
    const simulated = await simulate(params);
    expect(simulated.map((c) => c.metadata.operation_result.status)).toEqual(Array(5).fill('applied'));
    expect(simulated[2]!.metadata.internal_operation_results).toHaveLength(2);

    const op = await tezos.contract.batch(params).send();
    await op.confirmation(1);
    const applied = await receipts(op.hash, op.includedInBlock);
    expect(applied.map((c) => c.metadata.operation_result.status)).toEqual(Array(5).fill('applied'));
    applied.forEach((c, i) => expect(milligas(c)).toBeLessThanOrEqual(milligas(simulated[i]!)));
  }, 60_000);

  it('is applied with gas limits set to the simulated figures exactly (no 100 gas margin)', async () => {
    const params = await swapBatch();
    const simulated = await simulate(params);
    const exact = params.map((p, i) => ({
      ...p,
      gasLimit: Math.ceil(milligas(simulated[i]!) / 1000),
      storageLimit: 1000,
      fee: 10_000,
    }));
    const op = await tezos.contract.batch(exact).send();
    await op.confirmation(1);
    const applied = await receipts(op.hash, op.includedInBlock);
    expect(applied.map((c) => c.metadata.operation_result.status)).toEqual(Array(5).fill('applied'));
    // The swap's two internal calls report their own gas, all of it charged to the swap's content.
    expect(applied[2]!.metadata.internal_operation_results!.map((i) => i.result.status)).toEqual([
      'applied',
      'applied',
    ]);
  }, 60_000);
});
