// Script runs in the pool of script workers: the answers of the in-thread handlers, a wall-clock limit that
// also bounds `unlimited_gas`, and a worker that serves again after one was stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ACCOUNTS, injectAs, sandboxRpcPlugin } from '../src/index';
import { ScriptRunner } from '../src/script-runner';
import { openHarness, type Harness } from './helpers';
import Fastify from 'fastify';

/** A contract whose view `spin` never ends, and whose view `one` answers 1. */
const SPIN = [
  { prim: 'parameter', args: [{ prim: 'unit' }] },
  { prim: 'storage', args: [{ prim: 'nat' }] },
  {
    prim: 'code',
    args: [[{ prim: 'CDR' }, { prim: 'NIL', args: [{ prim: 'operation' }] }, { prim: 'PAIR' }]],
  },
  {
    prim: 'view',
    args: [
      { string: 'spin' },
      { prim: 'unit' },
      { prim: 'unit' },
      [
        { prim: 'DROP' },
        { prim: 'PUSH', args: [{ prim: 'bool' }, { prim: 'True' }] },
        { prim: 'LOOP', args: [[{ prim: 'PUSH', args: [{ prim: 'bool' }, { prim: 'True' }] }]] },
        { prim: 'UNIT' },
      ],
    ],
  },
  { prim: 'view', args: [{ string: 'one' }, { prim: 'unit' }, { prim: 'nat' }, [{ prim: 'CDR' }]] },
];

const VIEW = '/chains/main/blocks/head/helpers/scripts/run_script_view';

describe('script runs in script workers', () => {
  let h: Harness;
  let kt1 = '';
  beforeAll(async () => {
    h = await openHarness();
    const hash = await injectAs(h.sandbox, BOOTSTRAP_ACCOUNTS[0]!, [
      { kind: 'origination', balance: '0', script: { code: SPIN, storage: { int: '1' } } },
    ]);
    const block = await h.sandbox.bakeBlock();
    const op = block.operations[3]!.find((o) => o.hash === hash)!;
    const result = (op.contents[0] as { metadata: { operation_result: { originated_contracts: string[] } } })
      .metadata.operation_result;
    kt1 = result.originated_contracts[0]!;
  });
  afterAll(() => h.close());

  it('answers as the in-thread handlers do', async () => {
    const inThread = await openHarness(undefined, { inThread: true });
    try {
      const body = { contract: 'KT1', view: 'one', input: { prim: 'Unit' } };
      // Same chain data in both: a missing contract, then a malformed body.
      for (const b of [body, { ...body, contract: 42 }, { view: 'one' }]) {
        const pooled = await h.post(VIEW, b);
        const local = await inThread.post(VIEW, b);
        expect(pooled).toEqual(local);
        expect(pooled.status).toBeGreaterThanOrEqual(400);
      }
    } finally {
      await inThread.close();
    }
    const one = await h.post(VIEW, { contract: kt1, view: 'one', input: { prim: 'Unit' } });
    expect(one).toEqual({ status: 200, body: { data: { int: '1' } } });
  });

  it('stops an endless `unlimited_gas` view at the time limit, then runs scripts again', async () => {
    const sandbox = h.sandbox;
    const scripts = new ScriptRunner(sandbox, { timeLimitMs: 1000, threads: 1 });
    const app = Fastify();
    await app.register(sandboxRpcPlugin(sandbox, { scripts }), { prefix: '/rpc' });
    const one = () =>
      app.inject({
        method: 'POST',
        url: `/rpc${VIEW}`,
        payload: { contract: kt1, view: 'one', input: { prim: 'Unit' } },
      });
    try {
      // A first run waits for the worker to boot (not counted in the limit).
      expect((await one()).json()).toEqual({ data: { int: '1' } });
      const started = Date.now();
      const spin = await app.inject({
        method: 'POST',
        url: `/rpc${VIEW}`,
        payload: { contract: kt1, view: 'spin', input: { prim: 'Unit' }, unlimited_gas: true },
      });
      expect(Date.now() - started).toBeLessThan(8000);
      expect(spin.statusCode).toBe(504);
      expect(spin.json()).toEqual([
        {
          kind: 'temporary',
          id: 'sandbox.time_limit_exceeded',
          msg: 'the script ran longer than the 1 s time limit of sandboxnet and was stopped',
        },
      ]);
      // The stopped worker was replaced: the next run answers.
      expect((await one()).json()).toEqual({ data: { int: '1' } });
    } finally {
      await app.close();
      await scripts.close();
    }
  });
});
