/**
 * The debugger's 100,000-step answer by content encoding (issue 20): POST …/entrypoints/debug of the loop that
 * bench/debugger.ts debugs, asked with accept-encoding br, gzip and identity in turn (RUNS rounds after one
 * warm-up), each timed until its last byte, with the bytes sent. Says what the compression of a recording
 * costs before the browser sees the answer (routes/debug.ts RECORDING_COMPRESSION).
 *
 *   node --import tsx bench/debugger-encoding.ts [RUNS]
 *   MS_BENCH_URL=http://127.0.0.1:PORT node --import tsx bench/debugger-encoding.ts   # reuse a running product
 */
import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { originateAsBootstrap } from '../e2e/fixture-contracts';
import { startServer, tempDataDir, waitFor, type RunningServer } from '../e2e/harness';
import { LOOP_CODE, TURNS } from './debugger-loop';
import { raisePriority } from './priority';

const RUNS = Number(process.argv[2] ?? 7);
const ENCODINGS = ['br', 'gzip', 'identity'] as const;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One POST with `encoding` accepted: ms until its last byte, the bytes sent and their encoding. */
function post(url: string, body: string, encoding: string) {
  return new Promise<{ ms: number; bytes: number; sent: string }>((resolve, reject) => {
    const t0 = performance.now();
    const u = new URL(url);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': encoding },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve({
                ms: performance.now() - t0,
                bytes,
                sent: String(res.headers['content-encoding'] ?? 'none'),
              })
            : reject(new Error(`debug answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function main() {
  console.log(raisePriority());
  let server: RunningServer | undefined;
  let dir: string | undefined;
  let url = process.env.MS_BENCH_URL;
  if (!url) {
    dir = await tempDataDir();
    server = await startServer({ dataDir: dir, timeoutMs: 240_000 });
    url = server.url;
  }
  try {
    const kt = await originateAsBootstrap(`${url}/rpc/sandboxnet`, LOOP_CODE, { int: '0' });
    await waitFor(`${kt} indexed`, 120_000, async () =>
      (await fetch(`${url}/v1/contract/sandboxnet/${kt}`)).status === 200 ? true : undefined,
    );
    const route = `${url}/v1/contract/sandboxnet/${kt}/entrypoints/debug`;
    const body = JSON.stringify({ name: 'default', data: { '@int_1': String(TURNS) } });
    await post(route, body, 'br');
    const times: Record<string, number[]> = {};
    const sizes: Record<string, string> = {};
    for (let i = 0; i < RUNS; i++)
      for (const e of ENCODINGS) {
        const r = await post(route, body, e);
        (times[e] ??= []).push(r.ms);
        sizes[e] = `${(r.bytes / 1e6).toFixed(2)} MB ${r.sent}`;
      }
    for (const e of ENCODINGS)
      console.log(
        `${e}: median ${median(times[e]!).toFixed(0)} ms (${times[e]!.map((x) => x.toFixed(0)).join(', ')}), ${sizes[e]}`,
      );
  } finally {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

await main();
