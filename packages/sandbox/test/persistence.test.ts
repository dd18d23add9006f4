import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ACCOUNTS, Sandbox } from '../src/index';
import { openHarness, signedTransfer, tempDir, type Harness } from './helpers';

const b2 = BOOTSTRAP_ACCOUNTS[1]!;
const b3 = BOOTSTRAP_ACCOUNTS[2]!;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function chainWithTransfer(): Promise<{ dir: string; hashes: string[]; balances: unknown }> {
  h = await openHarness();
  await h.sandbox.bakeBlock();
  const branch = (await h.get('/chains/main/blocks/head/hash')).body;
  const r = await h.post(
    '/injection/operation',
    await signedTransfer({ sk: b2.sk, branch, counter: 1, destination: b3.pkh, amount: '777', fee: '400' }),
  );
  expect(r.status).toBe(200);
  await h.sandbox.bakeBlock();
  await h.sandbox.bakeBlock();
  const hashes: string[] = [];
  for (let l = 0; l <= 5; l++) hashes.push((await h.get(`/chains/main/blocks/${l}/hash`)).body);
  const balances = await snapshotBalances(h);
  const dir = h.dir;
  await h.close();
  h = undefined;
  return { dir, hashes, balances };
}

async function snapshotBalances(x: Harness) {
  const out: Record<string, unknown> = {};
  for (const a of BOOTSTRAP_ACCOUNTS)
    out[a.pkh] = (await x.get(`/chains/main/blocks/head/context/contracts/${a.pkh}`)).body;
  return out;
}

describe('persistence', () => {
  it('reopens from the same dataDir at the stored level with the same hashes and state, then continues', async () => {
    const { dir, hashes, balances } = await chainWithTransfer();
    h = await openHarness(dir);
    expect(h.sandbox.headLevel).toBe(5);
    for (let l = 0; l <= 5; l++) expect((await h.get(`/chains/main/blocks/${l}/hash`)).body).toBe(hashes[l]);
    expect(await snapshotBalances(h)).toEqual(balances);
    const next = (await h.sandbox.bakeBlock()) as {
      hash: string;
      header: { level: number; predecessor: string };
    };
    expect(next.header.level).toBe(6);
    expect(next.header.predecessor).toBe(hashes[5]);
    // The counter survived: the next operation of bootstrap2 must use counter 2.
    const branch = (await h.get('/chains/main/blocks/head/hash')).body;
    const stale = await h.post(
      '/injection/operation',
      await signedTransfer({ sk: b2.sk, branch, counter: 1, destination: b3.pkh, amount: '1' }),
    );
    expect(stale.body[0].id).toMatch(/counter_in_the_past$/);
    expect(
      (
        await h.post(
          '/injection/operation',
          await signedTransfer({ sk: b2.sk, branch, counter: 2, destination: b3.pkh, amount: '1' }),
        )
      ).status,
    ).toBe(200);
  });

  it('rebuilds the state from the block log when the snapshot is missing or stale', async () => {
    const { dir, balances } = await chainWithTransfer();
    await fs.rm(path.join(dir, 'sandbox', 'state.json'));
    h = await openHarness(dir);
    expect(h.sandbox.headLevel).toBe(5);
    expect(await snapshotBalances(h)).toEqual(balances);
    await h.close();
    // A snapshot from an older level (crash between block append and snapshot) is replayed forward.
    const stale = JSON.stringify({ level: 0, hash: 'x', ledger: {} });
    await fs.writeFile(path.join(dir, 'sandbox', 'state.json'), stale);
    h = await openHarness(dir);
    expect(await snapshotBalances(h)).toEqual(balances);
  });

  it('drops a torn last line of the block log (crash during append)', async () => {
    const { dir, hashes, balances } = await chainWithTransfer();
    const log = path.join(dir, 'sandbox', 'blocks.jsonl');
    await fs.appendFile(log, '{"hash":"BLtorn","header":{"lev');
    h = await openHarness(dir);
    expect(h.sandbox.headLevel).toBe(5);
    expect((await h.get('/chains/main/blocks/head/hash')).body).toBe(hashes[5]);
    expect(await snapshotBalances(h)).toEqual(balances);
    await h.sandbox.bakeBlock();
    expect((await fs.readFile(log, 'utf8')).trim().split('\n')).toHaveLength(7);
  });

  it('serves balances at past blocks from the receipts', async () => {
    const { dir } = await chainWithTransfer();
    h = await openHarness(dir);
    const at = async (block: string) =>
      (await h!.get(`/chains/main/blocks/${block}/context/contracts/${b3.pkh}/balance`)).body;
    expect(await at('3')).toBe('4000000000000');
    expect(await at('4')).toBe('4000000000777');
    expect(await at('head')).toBe('4000000000777');
    expect((await h.get(`/chains/main/blocks/3/context/contracts/${b2.pkh}/counter`)).body).toBe('0');
    expect((await h.get(`/chains/main/blocks/4/context/contracts/${b2.pkh}/counter`)).body).toBe('1');
  });

  it('bakes on its own timer and stops cleanly', async () => {
    const dir = await tempDir();
    const lines: string[] = [];
    const sandbox = await Sandbox.open({ dataDir: dir, blockTimeMs: 150, log: (l) => lines.push(l) });
    sandbox.start();
    await new Promise((r) => setTimeout(r, 700));
    await sandbox.stop();
    const level = sandbox.headLevel;
    expect(level).toBeGreaterThanOrEqual(4);
    expect(lines.some((l) => l.includes('created chain'))).toBe(true);
    await expect(sandbox.bakeBlock()).rejects.toThrow(/stopped/);
    const again = await Sandbox.open({ dataDir: dir, blockTimeMs: 150 });
    expect(again.headLevel).toBe(level);
    await again.stop();
  });
});
