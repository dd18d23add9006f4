/**
 * Dense blocks for the benchmarks: Tallinn blocks holding `perBlock` manager operation groups re-chained
 * from real mainnet fixture groups (those of the Seoul/Tallinn fixture blocks and the
 * lazy_storage_diff-era groups of fixtures/rpc/operations that allocate no big map and originate
 * nothing, so copies do not collide), each copy with its own operation hash, plus the real block's
 * consensus operations.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { b58Encode, PrefixV2 } from '@taquito/utils';
import { FakeNode, SHARED, TALLINN } from '../packages/indexer/test/fake-node';

type Json = Record<string, unknown>;
const RPC = path.join(SHARED, 'fixtures/rpc');
const COMPATIBLE = /^(PtSeouLo|PtTALLiN|PtNairob|PtMumbai|PtJakart)/;

/** Real groups that can be repeated: no origination, no big-map allocation/copy, no global constant. */
export function repeatableGroups(): Json[] {
  const groups: Json[] = [];
  for (const b of ['11610082', '11680082']) {
    const block = JSON.parse(readFileSync(path.join(RPC, 'blocks/mainnet', b, 'block.json'), 'utf8')) as {
      operations: Json[][];
    };
    groups.push(...block.operations[3]!);
  }
  for (const f of readdirSync(path.join(RPC, 'operations')).filter((x) => /^o\w+\.json$/.test(x))) {
    const g = JSON.parse(readFileSync(path.join(RPC, 'operations', f), 'utf8')) as Json;
    if (COMPATIBLE.test(String(g.protocol))) groups.push(g);
  }
  return groups.filter(
    (g) =>
      !/"(alloc|copy)"|originated_contracts|register_global_constant|smart_rollup_originate/.test(
        JSON.stringify(g),
      ),
  );
}

/** A fake node serving `blocks` dense blocks (levels 1..blocks). */
export function denseNode(blocks: number, perBlock: number): { node: FakeNode; distinctGroups: number } {
  const groups = repeatableGroups();
  const node = new FakeNode().build({
    branch: 'dense',
    from: 1,
    to: blocks,
    protocols: [{ hash: TALLINN, from: 1 }],
  });
  let copy = 0;
  for (let level = 1; level <= blocks; level++) {
    const block = node.blocks.get(level)!;
    const ops = block.operations as Json[][];
    const dense: Json[] = [];
    for (let i = 0; i < perBlock; i++) {
      const g = groups[(level * 7 + i) % groups.length]!;
      const hash = b58Encode(createHash('sha256').update(`dense:${copy++}`).digest(), PrefixV2.OperationHash);
      dense.push({ ...g, hash, protocol: TALLINN, chain_id: block.chain_id, branch: block.hash });
    }
    block.operations = [ops[0]!, ops[1]!, ops[2]!, dense];
  }
  return { node, distinctGroups: groups.length };
}

/** The fake node's HTTP server (a worker thread; CommonJS text for `new Worker(…, { eval: true })`). */
const SERVER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createServer } = require('node:http');
const blocks = new Map(workerData.blocks);
const headers = new Map(workerData.headers);
const constants = workerData.constants;
// optional latency of a remote node (each answer waits latencyMs ± jitterMs), and the requests in flight
const latencyMs = workerData.latencyMs || 0;
const jitterMs = workerData.jitterMs || 0;
let inFlight = 0;
let maxInFlight = 0;
let requests = 0;
let since = performance.now();
let area = 0;
const count = (d) => {
  const t = performance.now();
  area += inFlight * (t - since);
  since = t;
  inFlight += d;
  if (inFlight > maxInFlight) maxInFlight = inFlight;
};
const server = createServer((req, res) => {
  const m = /^\\/chains\\/main\\/blocks\\/(\\w+)(\\/header|\\/context\\/constants)?$/.exec(req.url || '');
  const body = !m ? undefined : m[2] === '/header' ? headers.get(m[1]) : m[2] ? constants : blocks.get(m[1]);
  requests++;
  count(1);
  const answer = () => {
    count(-1);
    if (!body) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('[]');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
  };
  const wait = latencyMs + (jitterMs ? (Math.random() * 2 - 1) * jitterMs : 0);
  if (wait > 0) setTimeout(answer, wait);
  else answer();
});
// PGlite runs in the indexer's thread and can hold it for seconds: keep idle connections open (Node's
// default 5 s closes them under a request the indexer is sending: ECONNRESET).
server.keepAliveTimeout = 600000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', (msg) => {
  if (msg === 'stats') {
    count(0);
    parentPort.postMessage({ requests, maxInFlight, area });
    requests = 0;
    maxInFlight = inFlight;
    area = 0;
    return;
  }
  server.closeAllConnections();
  server.close(() => parentPort.postMessage('stopped'));
});
`;

/**
 * Serves a FakeNode's blocks from JSON texts serialised once before the run (node:http, no framework) in
 * a worker thread, so that a benchmark measures the indexer, not the node producing 2 MB of JSON per block
 * in the same process, nor the node's sending on the indexer's thread (a real node is another process
 * with its own thread; the worker's CPU time still counts in the process's).
 */
export interface ServedStats {
  /** Requests answered since the previous stats() call. */
  requests: number;
  /** Most requests in flight at once (waiting out their latency or being answered). */
  maxInFlight: number;
  /** Time integral of the requests in flight (ms): divided by the elapsed time, the mean in flight. */
  area: number;
}

/** As servePrepared; `latencyMs` (± `jitterMs`, uniform) delays every answer like a remote node's. */
export interface ServeOptions {
  latencyMs?: number;
  jitterMs?: number;
}

export async function servePrepared(
  node: FakeNode,
  opts: ServeOptions = {},
): Promise<{ url: string; stats(): Promise<ServedStats>; stop(): Promise<void> }> {
  const { Worker } = await import('node:worker_threads');
  const { constantsFor } = await import('../packages/indexer/test/fake-node');
  const blocks: Array<[string, Buffer]> = [];
  const headers: Array<[string, Buffer]> = [];
  for (const [level, b] of node.blocks) {
    blocks.push([String(level), Buffer.from(JSON.stringify(b))]);
    headers.push([
      String(level),
      Buffer.from(
        JSON.stringify({ protocol: b.protocol, chain_id: b.chain_id, hash: b.hash, ...(b.header as Json) }),
      ),
    ]);
  }
  headers.push(['head', headers.find(([l]) => l === String(node.headLevel))![1]]);
  const constants = Buffer.from(JSON.stringify(constantsFor(TALLINN)));
  // the blocks' own buffers move to the worker (no copy); small ones share Node's pool and are copied
  const own = (b: Buffer) => b.byteOffset === 0 && b.byteLength === b.buffer.byteLength;
  const worker = new Worker(SERVER, {
    eval: true,
    workerData: { blocks, headers, constants, latencyMs: opts.latencyMs ?? 0, jitterMs: opts.jitterMs ?? 0 },
    transferList: blocks.filter(([, b]) => own(b)).map(([, b]) => b.buffer as ArrayBuffer),
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () =>
      new Promise<ServedStats>((resolve) => {
        worker.once('message', resolve);
        worker.postMessage('stats');
      }),
    stop: async () => {
      await new Promise((resolve) => {
        worker.once('message', resolve);
        worker.postMessage('stop');
      });
      await worker.terminate();
    },
  };
}
