// The test-only fork control: blocks above a level are discarded with their state changes, the
// next blocks make another branch, and a restart reads the forked chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ACCOUNTS, injectAs, Sandbox } from '../src/index';
import { openHarness, type Harness } from './helpers';

const [b1, b2] = BOOTSTRAP_ACCOUNTS as [
  (typeof BOOTSTRAP_ACCOUNTS)[number],
  (typeof BOOTSTRAP_ACCOUNTS)[number],
];
let h: Harness;

beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => {
  await h.close();
});

const balance = async (pkh: string, block = 'head') =>
  (await h.get(`/chains/main/blocks/${block}/context/contracts/${pkh}/balance`)).body as string;

describe('forkFrom', () => {
  it('discards the blocks above a level and bakes another branch from it', async () => {
    const base = h.sandbox.headLevel;
    const before = await balance(b2.pkh);
    await injectAs(h.sandbox, b1, [{ kind: 'transaction', amount: '7000000', destination: b2.pkh }]);
    const first = await h.sandbox.bakeBlock();
    await h.sandbox.bakeBlock();
    expect(await balance(b2.pkh)).toBe(String(BigInt(before) + 7_000_000n));

    const discarded = await h.sandbox.forkFrom(base);
    expect(discarded.map((b) => b.header.level)).toEqual([base + 1, base + 2]);
    expect(h.sandbox.headLevel).toBe(base);
    expect(await balance(b2.pkh)).toBe(before);
    expect((await h.get(`/chains/main/blocks/${first.hash}`)).status).toBe(404);
    expect((await h.get(`/chains/main/blocks/${base + 1}`)).status).toBe(404);

    // The same counter is free again; the new branch differs from the discarded one.
    const op = await injectAs(h.sandbox, b1, [
      { kind: 'transaction', amount: '3000000', destination: b2.pkh },
    ]);
    const other = await h.sandbox.bakeBlock();
    expect(other.header.level).toBe(base + 1);
    expect(other.hash).not.toBe(first.hash);
    expect(other.header.predecessor).toBe(first.header.predecessor);
    expect(other.operations[3]!.map((o) => o.hash)).toEqual([op]);
    expect(await balance(b2.pkh)).toBe(String(BigInt(before) + 3_000_000n));
    // Historic reads follow the new branch.
    expect(await balance(b2.pkh, String(base))).toBe(before);

    // A restart reads the forked log and state.
    const dir = h.dir;
    await h.close();
    const reopened = await Sandbox.open({ dataDir: dir, blockTimeMs: 60_000 });
    try {
      expect(reopened.headLevel).toBe(base + 1);
      expect(reopened.head.hash).toBe(other.hash);
      expect(reopened.pendingState().balance(b2.pkh)).toBe(BigInt(before) + 3_000_000n);
    } finally {
      await reopened.stop();
    }
    h = await openHarness(dir);
  });

  it('refuses a level above the head', async () => {
    await expect(h.sandbox.forkFrom(h.sandbox.headLevel + 1)).rejects.toThrow(/cannot fork/);
  });
});
