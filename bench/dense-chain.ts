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

/**
 * Serves a FakeNode's blocks from JSON texts serialised once before the run (node:http, no framework),
 * so that a benchmark measures the indexer, not the node producing 2 MB of JSON per block in the same
 * process (a real node is another process with its own cores).
 */
export async function servePrepared(node: FakeNode): Promise<{ url: string; stop(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const { constantsFor } = await import('../packages/indexer/test/fake-node');
  const blocks = new Map<string, Buffer>();
  const headers = new Map<string, Buffer>();
  for (const [level, b] of node.blocks) {
    blocks.set(String(level), Buffer.from(JSON.stringify(b)));
    headers.set(
      String(level),
      Buffer.from(
        JSON.stringify({ protocol: b.protocol, chain_id: b.chain_id, hash: b.hash, ...(b.header as Json) }),
      ),
    );
  }
  headers.set('head', headers.get(String(node.headLevel))!);
  const constants = Buffer.from(JSON.stringify(constantsFor(TALLINN)));
  const server = createServer((req, res) => {
    const m = /^\/chains\/main\/blocks\/(\w+)(\/header|\/context\/constants)?$/.exec(req.url ?? '');
    const body = !m
      ? undefined
      : m[2] === '/header'
        ? headers.get(m[1]!)
        : m[2]
          ? constants
          : blocks.get(m[1]!);
    if (!body) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('[]');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
  });
  // PGlite runs in the indexer's thread and can hold it for seconds: keep idle connections open (Node's
  // default 5 s closes them under a request the indexer is sending: ECONNRESET).
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
