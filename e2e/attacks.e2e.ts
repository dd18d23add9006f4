import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACKS, originateSpinner, percentile, probeWhile, send } from './attacks';
import { startServer, seededDataDir, type RunningServer } from './harness';

// Issue 22: each hostile request gets its clear answer, and the product keeps serving everyone else while it
// is handled: GET /v1/head, sent every 50 ms during the attack, always answers. The p99 target (≤ 100 ms on an
// idle machine) is a benchmark figure (bench/attacks.ts, bench/RESULTS.md); this test bounds the worst probe
// at 2.5 s, which tells a blocked event loop (the endless scripts run 3.5 s and more, to the 4 s time limit or
// the gas cap: a blocked loop holds a probe that long) from a busy 2-core machine (a probe took 1,522 ms on one
// three times slower than usual, calibration 1,287 ms, with both cores busy: session 28's CI run 2).
const TIME_LIMIT_MS = 4000;
const WORST_PROBE_MS = 2500;

describe('one anonymous request does not freeze the product', () => {
  let server: RunningServer;
  let dataDir: string;
  let spin: string;

  beforeAll(async () => {
    dataDir = await seededDataDir();
    const config = path.join(dataDir, 'michelscope.config.json');
    await writeFile(config, JSON.stringify({ sandbox: { time_limit_ms: TIME_LIMIT_MS } }));
    server = await startServer({ dataDir, env: { MICHELSCOPE_CONFIG: config }, timeoutMs: 240_000 });
    spin = await originateSpinner(server.url);
  }, 400_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  for (const attack of ATTACKS) {
    it(
      attack.name,
      async () => {
        const request = await attack.prepare(server.url, spin);
        const [answer, probe] = await probeWhile(server.url, send(server.url, request));
        console.log(
          `${attack.name}: ${answer.status}; GET /v1/head ×${probe.latencies.length}: p50 ${percentile(probe.latencies, 50).toFixed(0)} ms, p99 ${percentile(probe.latencies, 99).toFixed(0)} ms, max ${Math.max(...probe.latencies).toFixed(0)} ms`,
        );
        expect(attack.expect.status, answer.text.slice(0, 300)).toContain(answer.status);
        expect(answer.text.slice(0, 2000)).toMatch(attack.expect.body);
        expect(probe.failures).toEqual([]);
        expect(probe.latencies.length).toBeGreaterThan(0);
        expect(Math.max(...probe.latencies)).toBeLessThan(WORST_PROBE_MS);
        // The product still works for the next user: the chain bakes and the API answers.
        const res = await fetch(`${server.url}/rpc/sandboxnet/chains/main/blocks/head/header`);
        expect(res.status).toBe(200);
      },
      120_000,
    );
  }
});
