/**
 * Live updates (issue 21 part 4): N open server-sent-event subscribers (default 1,000) on one API process for
 * some minutes while the embedded sandbox bakes a block every second and a transfer between the two subscribed
 * accounts is injected block after block. This process is what `michelscope start` composes (PGlite, the
 * sandbox chain's worker, its indexer, the API with `/v1/live`); the subscribers run in a child process (so
 * their memory is not counted). Every 10 s it prints this process's RSS and heap (after a GC) and the events
 * received; at the end the latency of the `head` event from the NOTIFY reaching the API process (at the
 * indexer's COMMIT) to each subscriber reading it, and from the block's commit-side NOTIFY for operations.
 *
 *   node --expose-gc --import tsx bench/live.ts [subscribers=1000] [seconds=180]
 *   DATABASE_URL=postgres://… node --expose-gc --import tsx bench/live.ts   (PostgreSQL instead of PGlite)
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { apiPlugin } from '@michelscope/api';
import { migrateToLatest, openDatabase } from '@michelscope/db';
import { startIndexer } from '@michelscope/indexer';
import { BOOTSTRAP_ACCOUNTS, SandboxWorker, sandboxWorkerRpcPlugin } from '@michelscope/sandbox';

const NET = 'sandboxnet';
const A = BOOTSTRAP_ACCOUNTS[1]!;
const B = BOOTSTRAP_ACCOUNTS[2]!;

interface ClientReport {
  /** [level, ms since epoch] of each head event read, per subscriber (flattened). */
  heads: Array<[number, number]>;
  /** [level, ms] of each operations event read. */
  operations: Array<[number, number]>;
  events: number;
  errors: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
    s.on('error', reject);
  });
}

/** The child: N subscribers (half to A, half to B), then, block after block, a transfer A → B. */
async function clients(url: string, n: number): Promise<void> {
  const report: ClientReport = { heads: [], operations: [], events: 0, errors: 0 };
  let open = 0;
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  for (let i = 0; i < n; i++) {
    const address = i % 2 === 0 ? A.pkh : B.pkh;
    await new Promise<void>((resolve) => {
      const req = http.get(`${url}/v1/live/${NET}?address=${address}`, { agent }, (res) => {
        if (res.statusCode !== 200) {
          report.errors++;
          resolve();
          return;
        }
        open++;
        resolve();
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buf += chunk;
          let end: number;
          while ((end = buf.indexOf('\n\n')) !== -1) {
            const block = buf.slice(0, end);
            buf = buf.slice(end + 2);
            const type = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (!type || !data) continue;
            report.events++;
            const level = (JSON.parse(data) as { level: number }).level;
            if (type === 'head') report.heads.push([level, Date.now()]);
            else if (type === 'operations') report.operations.push([level, Date.now()]);
          }
        });
      });
      req.on('error', () => {
        report.errors++;
        resolve();
      });
      requests.push(req);
    });
  }
  process.send!({ type: 'ready', open });
  const { TezosToolkit } = await import('@taquito/taquito');
  const { InMemorySigner } = await import('@taquito/signer');
  const tezos = new TezosToolkit(`${url}/rpc/${NET}`);
  tezos.setProvider({ signer: await InMemorySigner.fromSecretKey(A.sk) });
  let stop = false;
  process.on('message', (m: { type: string }) => {
    if (m.type !== 'stop') return;
    stop = true;
    for (const r of requests) r.destroy();
    process.send!({ type: 'report', report }, () => process.exit(0));
  });
  while (!stop) {
    try {
      const op = await tezos.contract.transfer({ to: B.pkh, amount: 1 });
      await op.confirmation(1);
    } catch {
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

function quantiles(values: number[]): string {
  const s = [...values].sort((x, y) => x - y);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  return `p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, p99 ${q(0.99)} ms, max ${s[s.length - 1]} ms (${s.length} events)`;
}

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 1000);
  const seconds = Number(process.argv[3] ?? 180);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) console.warn('run with node --expose-gc for comparable heap figures');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ms-bench-live-'));
  const url = process.env.DATABASE_URL;
  const handle = await openDatabase(
    url ? { databaseUrl: url, schema: 'bench_live' } : { dataDir: path.join(dataDir, 'pglite') },
  );
  if (url) await handle.db.schema.dropSchema('bench_live').ifExists().cascade().execute();
  const reopened = url ? await openDatabase({ databaseUrl: url, schema: 'bench_live' }) : handle;
  await migrateToLatest(reopened.db);
  const sandbox = await SandboxWorker.open({ dataDir, blockTimeMs: 1000, seed: false, log: () => undefined });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const rpcUrl = `${base}/rpc/${NET}`;
  /** When the NOTIFY of each level reached this process. */
  const notified = new Map<number, number>();
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(apiPlugin, {
    db: reopened.db,
    networks: [{ name: NET, rpcUrl, publicRpcUrl: rpcUrl, statsEnabled: false }],
    rateLimit: false,
    embeddedNode: { network: NET, plugin: sandboxWorkerRpcPlugin(sandbox) },
    live: {
      source: {
        listen: (onPayload, onReconnect) =>
          reopened.listen((payload) => {
            const level = (JSON.parse(payload) as { l: number }).l;
            notified.set(level, Date.now());
            onPayload(payload);
          }, onReconnect),
      },
      maxConnectionsPerIp: n + 10,
      maxConnections: n + 10,
    },
  });
  await app.listen({ port, host: '127.0.0.1' });
  sandbox.start();
  const indexer = startIndexer({
    db: reopened.db,
    network: NET,
    rpcUrl,
    startLevel: 0,
    log: () => undefined,
  });

  const child = fork(path.join(import.meta.dirname, 'live.ts'), ['--clients', base, String(n)], {
    execArgv: ['--import', 'tsx'],
  });
  const ready = await new Promise<number>((resolve) =>
    child.on('message', (m: { type: string; open: number }) => {
      if (m.type === 'ready') resolve(m.open);
    }),
  );
  console.log(
    `${ready} of ${n} subscribers connected; sampling for ${seconds} s (load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  const t0 = Date.now();
  const samples: string[] = [];
  const sample = () => {
    gc?.();
    const m = process.memoryUsage();
    const line = `t=${String(Math.round((Date.now() - t0) / 1000)).padStart(4)} s  rss ${(m.rss / 2 ** 20).toFixed(1)} MB  heapUsed ${(m.heapUsed / 2 ** 20).toFixed(1)} MB  head level ${Math.max(0, ...notified.keys())}  load ${os.loadavg()[0]!.toFixed(1)}`;
    samples.push(line);
    console.log(line);
  };
  sample();
  const timer = setInterval(sample, 10_000);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  clearInterval(timer);
  sample();
  const report = await new Promise<ClientReport>((resolve) => {
    child.on('message', (m: { type: string; report: ClientReport }) => {
      if (m.type === 'report') resolve(m.report);
    });
    child.send({ type: 'stop' });
  });
  const lat = (pairs: Array<[number, number]>) =>
    pairs.flatMap(([level, at]) => {
      const t = notified.get(level);
      return t === undefined ? [] : [at - t];
    });
  console.log(`events read by the subscribers: ${report.events}, connection errors: ${report.errors}`);
  console.log(`head latency (NOTIFY in the API process → subscriber): ${quantiles(lat(report.heads))}`);
  console.log(`operations latency (same): ${quantiles(lat(report.operations))}`);
  await indexer.stop();
  await app.close();
  await sandbox.stop();
  if (reopened !== handle) await reopened.close();
  await handle.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
}

if (process.argv[2] === '--clients') void clients(process.argv[3]!, Number(process.argv[4]));
else await main();
