/**
 * Fairness of the node's script workers (run_code, views, simulations) between clients (issue 34 item 1), on the
 * server's own set-up: the chain in its worker thread (SandboxWorker, two script workers), its RPC on an internal
 * loopback listener for the API's node calls and on the public `/rpc/sandboxnet`. The API's calls carry the client
 * that caused them (a per-process token only this process can set); the public forwarder charges the request's
 * own address and ignores a client header sent from outside.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeDb } from '@michelscope/db/testing';
import { startIndexer } from '@michelscope/indexer';
import { parseMichelsonScript } from '@michelscope/michelson';
import {
  BOOTSTRAP_ACCOUNTS,
  embeddedClientHeaders,
  SandboxWorker,
  sandboxWorkerRpcPlugin,
} from '@michelscope/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApi } from '../src/index';
import { copySeededChain } from '@michelscope/sandbox/testing';

const NET = 'sandboxnet';
const USER = '203.0.113.7';
const ATTACKER = '198.51.100.66';
/**
 * Below this a median's doubling is noise (a loaded machine's scheduling), not unfairness. 400 ms (as
 * script-fairness) was passed by 39 ms on a host whose two cores CI's other runner kept 99.6% busy (session 32:
 * simulation idle 110 ms, during four attackers 839 ms). Unfair scheduling still fails it: a run queued behind
 * the four attackers' EXEC loops (≈ 0.7 s each) waits 1.4–2.8 s.
 */
const FLOOR_MS = 600;
const ROUNDS = 5;

const EXEC_LOOP = parseMichelsonScript(
  'parameter unit; storage unit; code { DROP ; LAMBDA unit unit {} ; PUSH bool True ; LOOP { DUP ; UNIT ; EXEC ; DROP ; PUSH bool True } ; DROP ; UNIT ; NIL operation ; PAIR }',
);
const CHEAP = parseMichelsonScript('parameter unit; storage unit; code { CDR ; NIL operation ; PAIR }');
const RUN_CODE = `/rpc/${NET}/chains/main/blocks/head/helpers/scripts/run_code`;
/** run_code of `script` (the EXEC loop runs to the gas cap: ≈ 0.7 s, then 500 gas exhausted). */
const runCode = (script: unknown) => ({
  script,
  storage: { prim: 'Unit' },
  input: { prim: 'Unit' },
  amount: '0',
  chain_id: 'NetXdQprcVkpaWU',
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeDb('node script workers: fair between clients under abuse', { backends: 'pglite' }, ({ db }) => {
  let dir: string;
  let host: SandboxWorker;
  let node: FastifyInstance;
  let app: FastifyInstance;
  let stopIndexer: () => Promise<void>;
  const contracts: Record<string, string> = {};
  /** The client each script run the API sent to the internal listener named. */
  const seen: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ms-api-pool-'));
    const log = (line: string) => {
      for (const m of line.matchAll(/(\w+)=(KT1\w{33})/g)) contracts[m[1]!] = m[2]!;
    };
    host = await SandboxWorker.open({
      dataDir: dir,
      blockTimeMs: 3_600_000,
      seed: !(await copySeededChain(dir, log)),
      log,
    });
    const plugin = sandboxWorkerRpcPlugin(host);
    // the internal listener of `michelscope start` (commands.ts): loopback only, for the API and the indexer
    node = Fastify({ forceCloseConnections: true });
    node.addHook('onRequest', (req, _reply, done) => {
      if (req.url.includes('/helpers/scripts/')) seen.push(`${req.headers['x-michelscope-client']}`);
      done();
    });
    await node.register(plugin, { prefix: `/rpc/${NET}` });
    const rpcUrl = `${await node.listen({ host: '127.0.0.1', port: 0 })}/rpc/${NET}`;
    const indexer = startIndexer({
      db: db(),
      network: NET,
      rpcUrl,
      startLevel: 1,
      pollIntervalMs: 100,
      log: () => {},
    });
    stopIndexer = () => indexer.stop();
    const deadline = Date.now() + 60_000;
    while ((indexer.status().level ?? 0) < host.headLevel && Date.now() < deadline) await sleep(100);
    app = await buildApi({
      db: db(),
      networks: [{ name: NET, rpcUrl, publicRpcUrl: rpcUrl, statsEnabled: false }],
      embeddedNode: { network: NET, plugin, clientHeaders: embeddedClientHeaders },
    });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await stopIndexer?.();
    await node?.close();
    await host?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const post = async (ip: string, url: string, payload: object, headers: Record<string, string> = {}) => {
    const t0 = performance.now();
    const r = await app.inject({ method: 'POST', url, payload, headers, remoteAddress: ip });
    return { status: r.statusCode, body: r.body, ms: performance.now() - t0 };
  };
  const calls: Record<string, () => ReturnType<typeof post>> = {
    run_code: () =>
      post(USER, `/v1/contract/${NET}/${contracts.counter}/entrypoints/trace`, {
        name: 'increment',
        data: { increment: 1 },
        source: BOOTSTRAP_ACCOUNTS[0]!.pkh,
      }),
    simulation: () =>
      post(USER, `/v1/contract/${NET}/${contracts.counter}/entrypoints/run_operation`, {
        name: 'increment',
        data: { increment: 1 },
        source: BOOTSTRAP_ACCOUNTS[1]!.pkh,
      }),
  };
  const measure = async () => {
    const times: Record<string, number[]> = { run_code: [], simulation: [] };
    for (let i = 0; i < ROUNDS; i++)
      for (const [name, call] of Object.entries(calls)) {
        const r = await call();
        expect(r.status, `${name}: ${r.body.slice(0, 300)}`).toBe(200);
        times[name]!.push(r.ms);
      }
    return times;
  };
  /** `n` loops of the attacker repeating the EXEC-loop run_code on the public RPC (forging a client if asked). */
  const attack = (n: number, forge: boolean) => {
    let stopped = false;
    const statuses: number[] = [];
    const bodies: string[] = [];
    let k = 0;
    const loops = Array.from({ length: n }, async () => {
      while (!stopped) {
        const forged: Record<string, string> = forge
          ? { 'x-michelscope-client': `192.0.2.${++k % 250}`, 'x-michelscope-client-token': 'guess' }
          : {};
        const r = await post(ATTACKER, RUN_CODE, runCode(EXEC_LOOP), forged);
        statuses.push(r.status);
        if (r.status === 500 || r.status === 503) bodies.push(r.body.slice(0, 200));
        if (r.status !== 200 && r.status !== 504) await sleep(100);
      }
    });
    return {
      statuses,
      bodies,
      stop: async () => {
        stopped = true;
        await Promise.all(loops);
      },
    };
  };

  it("a normal client's run_code and simulation stay within 2× idle while one client floods run_code with an EXEC loop", async () => {
    expect(contracts.counter).toBeDefined();
    await measure(); // warm-up
    let idle = await measure();
    // the API's node calls named the client whose request caused them
    expect(seen.length).toBeGreaterThanOrEqual(2 * ROUNDS);
    expect(new Set(seen)).toEqual(new Set([USER]));
    const report: string[] = [];
    for (const [n, forge] of [
      [1, false],
      [4, true],
    ] as const) {
      // idle again just before each attack: the machine's other load (CI's other runner) changes over minutes
      if (n > 1) idle = await measure();
      const a = attack(n, forge);
      let during: Record<string, number[]>;
      try {
        await sleep(1_500); // the attack is under way
        during = await measure();
      } finally {
        await a.stop();
      }
      expect(a.statuses.length).toBeGreaterThan(0);
      // the attacker's runs end as the script does (gas exhausted: 500 with the node's error), at the time limit
      // (504), or are refused: 429, or 503 when one of its own four runs waited past the time limit and grace
      // behind its other three (they share one worker; a 2×-slower machine under CI's load got there in one run
      // of four). Every one is answered with the node's error shape, never an internal error.
      expect(
        a.statuses.every((s) => s === 500 || s === 504 || s === 429 || s === 503 || s === 200),
        a.statuses.join(','),
      ).toBe(true);
      expect(
        a.bodies.every((b) => b.startsWith('[') && !b.includes('internal_error')),
        a.bodies[0],
      ).toBe(true);
      for (const name of Object.keys(calls)) {
        const [i, d] = [median(idle[name]!), median(during[name]!)];
        report.push(
          `${n} attacker(s)${forge ? ' (forged client)' : ''}, ${name}: idle ${i.toFixed(0)} ms, during ${d.toFixed(0)} ms`,
        );
        expect(d, report.join('\n')).toBeLessThanOrEqual(2 * Math.max(i, FLOOR_MS));
      }
    }
    console.log(report.join('\n'));
  }, 300_000);

  it('a client header from outside has no effect: forged clients are still one client', async () => {
    const burst = (ipOf: (i: number) => string, headersOf: (i: number) => Record<string, string>) =>
      Promise.all(
        Array.from({ length: 12 }, (_, i) => post(ipOf(i), RUN_CODE, runCode(CHEAP), headersOf(i))),
      );
    // twelve real clients at once: every run is served
    const many = await burst(
      (i) => `192.0.2.${i + 1}`,
      () => ({}),
    );
    expect(many.map((r) => r.status)).toEqual(many.map(() => 200));
    // one client claiming twelve names (with a guessed token or a real-looking one): past its share, 429
    const real = embeddedClientHeaders('x')['x-michelscope-client-token']!;
    const nearMiss = (real.startsWith('A') ? 'B' : 'A') + real.slice(1);
    for (const token of ['guess', nearMiss]) {
      // both workers busy with two other clients' EXEC loops (≈ 0.7 s each, longer on a loaded machine), so the
      // twelve cheap runs are queued together whatever the machine's speed: without them, a loaded test
      // process sent the twelve more slowly than the workers ran them, and the client never had more than its
      // 8 at once (all 200 under CI load, stop 43's tree)
      const blockers = ['198.51.100.1', '198.51.100.2'].map((ip) => post(ip, RUN_CODE, runCode(EXEC_LOOP)));
      await sleep(150);
      const forged = await burst(
        () => ATTACKER,
        (i) => ({ 'x-michelscope-client': `192.0.2.${i + 1}`, 'x-michelscope-client-token': token }),
      );
      await Promise.all(blockers);
      const statuses = forged.map((r) => r.status);
      expect(statuses.filter((s) => s === 429).length, statuses.join(',')).toBeGreaterThan(0);
      expect(
        statuses.every((s) => s === 200 || s === 429),
        statuses.join(','),
      ).toBe(true);
    }
  }, 120_000);
});
