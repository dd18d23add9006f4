/** The long call of bench/debugger.ts and bench/debugger-encoding.ts (issue 20): ~100,000 steps. */
import { rm } from 'node:fs/promises';
import { originateAsBootstrap } from '../e2e/fixture-contracts';
import { startServer, tempDataDir, waitFor } from '../e2e/harness';

/** LOOP body: PUSH, SWAP, SUB, DUP, GT and the LOOP's own step: 5 steps a turn (LOOP's own step once). */
export const TURNS = 20_000;
export const LOOP_CODE = [
  { prim: 'parameter', args: [{ prim: 'int' }] },
  { prim: 'storage', args: [{ prim: 'int' }] },
  {
    prim: 'code',
    args: [
      [
        { prim: 'CAR' },
        { prim: 'DUP' },
        { prim: 'GT' },
        {
          prim: 'LOOP',
          args: [
            [
              { prim: 'PUSH', args: [{ prim: 'int' }, { int: '1' }] },
              { prim: 'SWAP' },
              { prim: 'SUB' },
              { prim: 'DUP' },
              { prim: 'GT' },
            ],
          ],
        },
        { prim: 'NIL', args: [{ prim: 'operation' }] },
        { prim: 'PAIR' },
      ],
    ],
  },
];

/** A product (`MS_BENCH_URL`, else one started for the bench) with the loop contract originated and indexed. */
export interface LoopProduct {
  url: string;
  /** The loop contract's address. */
  kt: string;
  /** Stops the product the bench started (and removes its data), if any. */
  close: () => Promise<void>;
}

export async function loopProduct(): Promise<LoopProduct> {
  let url = process.env.MS_BENCH_URL;
  let close = async () => {};
  if (!url) {
    const dir = await tempDataDir();
    const server = await startServer({ dataDir: dir, timeoutMs: 240_000 });
    url = server.url;
    close = async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  try {
    const base = url;
    const kt = await originateAsBootstrap(`${base}/rpc/sandboxnet`, LOOP_CODE, { int: '0' });
    await waitFor(`${kt} indexed`, 120_000, async () =>
      (await fetch(`${base}/v1/contract/sandboxnet/${kt}`)).status === 200 ? true : undefined,
    );
    return { url: base, kt, close };
  } catch (e) {
    await close();
    throw e;
  }
}
