/**
 * The debugger's 100,000-step answer by content encoding (issue 20): POST …/entrypoints/debug of the loop that
 * bench/debugger.ts debugs, asked with accept-encoding br, gzip and identity in turn (RUNS rounds after one
 * warm-up), each timed until its last byte, with the bytes sent. Says what the compression of a recording
 * costs before the browser sees the answer (routes/debug.ts RECORDING_COMPRESSION).
 *
 *   node --import tsx bench/debugger-encoding.ts [RUNS]
 *   MS_BENCH_URL=http://127.0.0.1:PORT node --import tsx bench/debugger-encoding.ts   # reuse a running product
 */
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { loopProduct, TURNS } from './debugger-loop';
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
  const { url, kt, close } = await loopProduct();
  try {
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
    await close();
  }
}

await main();
