/**
 * Issue 22's attacks against the whole product, one at a time, each repeated, while GET /v1/head is sent
 * every 20 ms (one at a time): its p50 / p99 / max latency per attack (target p99 ≤ 100 ms).
 * Run: npx tsx bench/attacks.ts [repeats=3]
 *      MS_BENCH_URL=http://127.0.0.1:PORT npx tsx bench/attacks.ts   (a running product; needs its sandbox)
 * The started product gets a 10 s script time limit (the default).
 */
import { rm } from 'node:fs/promises';
import { ATTACKS, originateSpinner, percentile, probeWhile, send } from '../e2e/attacks';
import { startServer, tempDataDir } from '../e2e/harness';

const repeats = Number(process.argv[2] ?? 3);
const dataDir = process.env.MS_BENCH_URL ? undefined : await tempDataDir();
const server = dataDir ? await startServer({ dataDir, timeoutMs: 240_000 }) : undefined;
const url = process.env.MS_BENCH_URL ?? server!.url;
try {
  const spin = await originateSpinner(url);
  // Idle baseline: the same probes with no attack, for 3 s.
  const [, idle] = await probeWhile(url, new Promise((r) => setTimeout(r, 3000)), 20);
  const rows = [['no attack (3 s)', '—', idle.latencies]] as Array<[string, string, number[]]>;
  for (const attack of ATTACKS) {
    const latencies: number[] = [];
    const statuses = new Set<number>();
    for (let i = 0; i < repeats; i++) {
      const req = await attack.prepare(url, spin);
      const [answer, probe] = await probeWhile(url, send(url, req), 20);
      statuses.add(answer.status);
      latencies.push(...probe.latencies);
      if (probe.failures.length) console.warn(`${attack.name}: probe statuses ${probe.failures.join(', ')}`);
    }
    rows.push([attack.name, [...statuses].join('/'), latencies]);
  }
  console.log('| attack | answer | probes | p50 | p99 | max |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [name, status, l] of rows)
    console.log(
      `| ${name} | ${status} | ${l.length} | ${percentile(l, 50).toFixed(0)} ms | ${percentile(l, 99).toFixed(0)} ms | ${Math.max(...l).toFixed(0)} ms |`,
    );
} finally {
  await server?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
