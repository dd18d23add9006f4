// The test-only baking pause: while paused the timer (and bakeOnInject) bake nothing, injected
// operations wait in the node's mempool, an explicit bake includes them, and resuming restarts the timer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOTSTRAP_ACCOUNTS, injectAs, Sandbox } from '../src/index';
import { tempDir } from './helpers';

const [b1, b2] = BOOTSTRAP_ACCOUNTS as [
  (typeof BOOTSTRAP_ACCOUNTS)[number],
  (typeof BOOTSTRAP_ACCOUNTS)[number],
];
const BLOCK_MS = 1000;

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
  vi.useRealTimers();
});

const transfer = (amount: string) => [{ kind: 'transaction', amount, destination: b2.pkh }];
/** The next block the sandbox announces. */
const nextHead = (s: Sandbox) =>
  new Promise<number>((resolve) => {
    const off = s.onHead((block) => {
      off();
      resolve(block.header.level);
    });
  });

describe('pauseBaking', () => {
  it('keeps injected operations in the mempool through timer ticks until a bake', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const s = (sandbox = await Sandbox.open({ dataDir: await tempDir(), blockTimeMs: BLOCK_MS }));
    s.start();
    // The timer bakes while not paused.
    const first = nextHead(s);
    vi.advanceTimersByTime(BLOCK_MS);
    const level = await first;
    expect(s.headLevel).toBe(level);

    s.pauseBaking();
    expect(s.bakingPaused).toBe(true);
    const op1 = await injectAs(s, b1, transfer('1000'));
    vi.advanceTimersByTime(10 * BLOCK_MS);
    // An injection waits for every bake queued before it: none was, the head has not moved.
    const op2 = await injectAs(s, b1, transfer('2000'));
    expect(s.headLevel).toBe(level);
    expect(s.pendingOperations().map((p) => p.hash)).toEqual([op1, op2]);

    // An explicit bake includes them even while paused.
    const block = await s.bakeBlock();
    expect(block.header.level).toBe(level + 1);
    expect(block.operations[3]?.map((o) => o.hash)).toEqual([op1, op2]);
    expect(s.pendingOperations()).toEqual([]);

    s.resumeBaking();
    expect(s.bakingPaused).toBe(false);
    const op3 = await injectAs(s, b1, transfer('3000'));
    const resumed = nextHead(s);
    vi.advanceTimersByTime(BLOCK_MS);
    expect(await resumed).toBe(level + 2);
    expect(s.head.operations[3]?.map((o) => o.hash)).toEqual([op3]);
  });

  it('also holds operations that bakeOnInject would bake at once', async () => {
    const s = (sandbox = await Sandbox.open({
      dataDir: await tempDir(),
      blockTimeMs: 60_000,
      bakeOnInject: true,
    }));
    const level = s.headLevel;
    s.pauseBaking();
    const op = await injectAs(s, b1, transfer('1000'));
    // A second injection is queued after any bake the first one started.
    await injectAs(s, b1, transfer('2000'));
    expect(s.headLevel).toBe(level);
    expect(s.pendingOperations()[0]?.hash).toBe(op);
    s.resumeBaking();
    const baked = nextHead(s);
    await injectAs(s, b1, transfer('3000'));
    expect(await baked).toBe(level + 1);
    expect(s.head.operations[3]).toHaveLength(3);
  });
});
