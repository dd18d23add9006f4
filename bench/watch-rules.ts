/**
 * Watch rules (issue 39): 1,000 rules over the seeded sandbox chain with a call every block. The chain bakes a
 * block every second with one `increment` of the counter (amount 1–10 mutez) in each; the real indexer follows
 * it into the database (PGlite by default) and NOTIFYs each block; the watch service (the one the API plugin
 * starts: evaluator fed by that NOTIFY, dispatcher) evaluates the rule set once per block and delivers to a
 * local receiver on 127.0.0.1 that answers 204.
 *
 * The rules: `matching` of them (default 200) on the counter — calls of `increment` with amount ≥ 1..10,
 * any call, events tagged `changed`, the storage field `counter` crossing a threshold — and the rest on the
 * other seeded contracts and the bootstrap accounts (never called in the run: the rule index leaves them out).
 * Printed: the evaluation time per block (from the notice to the deliveries written: rule lookup, the facts'
 * queries, matching, the insert), the deliveries created per block, and the delivery latency (from the
 * NOTIFY reaching this process to the receiver reading the request) p50/p95/p99.
 *
 *   node --import tsx bench/watch-rules.ts [rules=1000] [seconds=120] [matching=200]
 *   DATABASE_URL=postgres://… node --import tsx bench/watch-rules.ts   (PostgreSQL instead of PGlite)
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { migrateToLatest, openDatabase } from '@michelscope/db';
import { createWatchRule } from '@michelscope/db/watch';
import { startIndexer } from '@michelscope/indexer';
import { BOOTSTRAP_ACCOUNTS, injectAs, Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import { WatchService } from '../packages/api/src/watch/service';
import type { EvaluationStats } from '../packages/api/src/watch/evaluator';

const NET = 'sandboxnet';
const WALLET = BOOTSTRAP_ACCOUNTS[0]!;

function quantiles(values: number[], unit = 'ms'): string {
  const s = [...values].sort((x, y) => x - y);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  const f = (v: number) => `${Math.round(v * 10) / 10} ${unit}`;
  return `p50 ${f(q(0.5))}, p95 ${f(q(0.95))}, p99 ${f(q(0.99))}, max ${f(s[s.length - 1] ?? NaN)} (${s.length})`;
}

async function main(): Promise<void> {
  const nRules = Number(process.argv[2] ?? 1000);
  const seconds = Number(process.argv[3] ?? 120);
  const matching = Number(process.argv[4] ?? 200);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ms-bench-watch-'));
  const url = process.env.DATABASE_URL;
  const handle = await openDatabase(
    url ? { databaseUrl: url, schema: 'bench_watch' } : { dataDir: path.join(dataDir, 'pglite') },
  );
  if (url) await handle.db.schema.dropSchema('bench_watch').ifExists().cascade().execute();
  const db = url ? (await openDatabase({ databaseUrl: url, schema: 'bench_watch' })).db : handle.db;
  await migrateToLatest(db);

  const contracts: Record<string, string> = {};
  const t0 = Date.now();
  const sandbox = await Sandbox.open({
    dataDir: path.join(dataDir, 'chain'),
    blockTimeMs: 1000,
    seed: true,
    log: (line) => {
      for (const m of line.matchAll(/(\w+)=(KT1\w{33})/g)) contracts[m[1]!] = m[2]!;
    },
  });
  const counter = contracts.counter!;
  console.log(`seeded chain at level ${sandbox.headLevel} in ${Date.now() - t0} ms; counter ${counter}`);
  const node = Fastify({ forceCloseConnections: true });
  await node.register(sandboxRpcPlugin(sandbox), { prefix: `/rpc/${NET}` });
  const rpcUrl = `${await node.listen({ host: '127.0.0.1', port: 0 })}/rpc/${NET}`;

  // the receiver: when each delivery's request was read
  const received: Array<{ level: number; at: number }> = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ level: (JSON.parse(body) as { level: number }).level, at: Date.now() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  // the rules
  const others = [
    ...Object.values(contracts).filter((a) => a !== counter),
    ...BOOTSTRAP_ACCOUNTS.map((a) => a.pkh),
  ];
  const counterConditions = (i: number): object => {
    switch (i % 4) {
      case 0:
        return { kind: 'call', entrypoints: ['increment'], amount_gte: String(1 + (i % 10)) };
      case 1:
        return { kind: 'call', entrypoints: [] };
      case 2:
        return { kind: 'event', tags: ['changed'] };
      default:
        return { kind: 'storage', path: 'counter', above: String(10 * (i + 1)) };
    }
  };
  const tc = Date.now();
  for (let i = 0; i < nRules; i++) {
    const onCounter = i < matching;
    const r = await createWatchRule(
      db,
      {
        id: `wr_${randomBytes(12).toString('base64url')}`,
        network: NET,
        address: onCounter ? counter : others[i % others.length]!,
        condition: onCounter
          ? counterConditions(i)
          : { kind: 'call', entrypoints: ['transfer'], amount_gte: '1' },
        url: hook,
        secret: `whsec_${randomBytes(32).toString('base64url')}`,
        token_hash: `bench${i % 50}`,
      },
      { maxPerToken: 1e9, maxTotal: 1e9 },
    );
    if (r.kind !== 'created') throw new Error(r.kind);
  }
  console.log(`${nRules} rules (${matching} on the counter) created in ${Date.now() - tc} ms`);

  const notified = new Map<number, number>();
  const evaluations: EvaluationStats[] = [];
  const service = new WatchService(
    db,
    { allowPrivateTargets: true },
    (msg) => console.warn(msg),
    undefined,
    (s) => evaluations.push(s),
  );
  const source = {
    listen: (onPayload: (p: string) => void) =>
      handle.listen((payload) => {
        const level = (JSON.parse(payload) as { l: number }).l;
        notified.set(level, Date.now());
        onPayload(payload);
      }),
  };
  const indexer = startIndexer({ db, network: NET, rpcUrl, startLevel: 0, log: () => undefined });
  // catch up on the seeded chain before the rules listen (its blocks are not the subject)
  while ((indexer.status().level ?? -1) < sandbox.headLevel) await new Promise((r) => setTimeout(r, 100));
  await service.start(source);

  // a call in every block
  let amount = 0;
  const offHead = sandbox.onHead(() => {
    amount = (amount % 10) + 1;
    void injectAs(sandbox, WALLET, [
      {
        kind: 'transaction',
        amount: String(amount),
        destination: counter,
        parameters: { entrypoint: 'increment', value: { int: '1' } },
      },
    ]).catch((err: unknown) => console.warn(`inject: ${(err as Error).message}`));
  });
  const first = sandbox.headLevel + 1;
  sandbox.start();
  console.log(
    `measuring for ${seconds} s (load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  await new Promise((r) => setTimeout(r, seconds * 1000));
  offHead();
  await sandbox.stop();
  await new Promise((r) => setTimeout(r, 5_000)); // the last deliveries
  await service.stop();
  await indexer.stop();

  const evals = evaluations.filter((e) => e.from >= first);
  const latencies = received
    .filter((r) => notified.has(r.level) && r.level >= first)
    .map((r) => r.at - notified.get(r.level)!);
  console.log(`blocks evaluated: ${evals.length} (levels ${first}..${Math.max(...evals.map((e) => e.to))})`);
  console.log(`evaluation per block: ${quantiles(evals.map((e) => e.ms))}`);
  console.log(
    `rules evaluated per block: ${quantiles(
      evals.map((e) => e.rules),
      'rules',
    )}`,
  );
  console.log(
    `deliveries per block: ${quantiles(
      evals.map((e) => e.created),
      'deliveries',
    )}`,
  );
  console.log(`deliveries received: ${latencies.length}`);
  console.log(`delivery latency (NOTIFY → receiver): ${quantiles(latencies)}`);
  console.log(
    `load at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  await node.close();
  receiver.closeAllConnections();
  receiver.close();
  await handle.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
}

void main();
