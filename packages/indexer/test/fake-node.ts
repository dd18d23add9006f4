/**
 * A test double of the external Tezos node: a Fastify server on 127.0.0.1 that serves a chain of blocks
 * built from the real mainnet fixture blocks (../shared/fixtures/rpc) with levels, hashes and predecessors
 * rewritten into one chain, or from a synthetic block of the same shape when the fixtures are absent.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { b58Encode, PrefixV2 } from '@taquito/utils';
import Fastify, { type FastifyInstance } from 'fastify';

export const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared');
export const FIXTURE_BLOCKS = path.join(SHARED, 'fixtures/rpc/blocks/mainnet');
export const hasFixtures = existsSync(path.join(FIXTURE_BLOCKS, '11680082/block.json'));
if (!hasFixtures)
  console.warn(`[indexer tests] ${FIXTURE_BLOCKS} is absent: the fake node serves synthetic blocks.`);

export const SEOUL = 'PtSeouLouXkxhg39oWzjxDWaCydNfR3RxCUrNe4Q9Ro8BTehcbh';
export const TALLINN = 'PtTALLiNtPec7mE7yY4m3k26J8Qukef3E3ehzhfXgFZKGtDdAXu';
export const MAINNET_CHAIN = 'NetXdQprcVkpaWU';

type Json = Record<string, unknown>;

export function readFixture(rel: string): Json {
  return JSON.parse(readFileSync(path.join(FIXTURE_BLOCKS, rel), 'utf8')) as Json;
}

/** Real constants where the fixtures have them (Tallinn), else realistic values of the same shape. */
export function constantsFor(protocol: string): Json {
  if (protocol === TALLINN && hasFixtures) return readFixture('11680082/constants.json');
  return {
    blocks_per_cycle: 10800,
    hard_gas_limit_per_operation: '1040000',
    hard_gas_limit_per_block: '1386666',
    cost_per_byte: '250',
    hard_storage_limit_per_operation: '60000',
    minimal_block_delay: protocol === SEOUL ? '8' : '6',
    origination_size: 257,
  };
}

function template(protocol: string): Json {
  if (hasFixtures) return readFixture(protocol === SEOUL ? '11610082/block.json' : '11680082/block.json');
  return {
    protocol,
    chain_id: MAINNET_CHAIN,
    hash: '',
    header: {
      level: 0,
      proto: 24,
      predecessor: '',
      timestamp: '',
      validation_pass: 4,
      fitness: ['02', '00000001', '', 'ffffffff', '00000000'],
    },
    metadata: { protocol, next_protocol: protocol, level_info: { level: 0, cycle: 0 } },
    operations: [[], [], [], []],
  };
}

export function blockHash(seed: string): string {
  return b58Encode(createHash('sha256').update(seed).digest(), PrefixV2.BlockHash);
}

export interface ChainSpec {
  /** Branch name: blocks of different branches get different hashes. */
  branch: string;
  from: number;
  to: number;
  /** Protocol per level (first matching entry, by lowest start). */
  protocols: Array<{ hash: string; from: number }>;
}

export class FakeNode {
  readonly blocks = new Map<number, Json>();
  readonly requests: string[] = [];
  /** Levels whose block request never answers (until stop). */
  readonly hang = new Set<number>();
  /** Per-level replacements of the served JSON (e.g. a malformed block). */
  readonly override = new Map<number, Json>();
  /**
   * A node that limits parallel requests: one arriving while `concurrent` are being answered gets 429 (with
   * `retryAfter` as its Retry-After header when given); `refused` counts them. `latencyMs` delays every
   * answer (so that requests overlap).
   */
  limit: { concurrent: number; retryAfter?: string } | null = null;
  latencyMs = 0;
  refused = 0;
  /** Most requests answered at once (those refused not counted). */
  maxInFlight = 0;
  private inFlight = 0;
  /** The answer of `/blocks/{level}/context/contracts/{address}/script` (undefined: 404). */
  script: (address: string, level: number) => Json | undefined | Promise<Json | undefined> = () => undefined;
  private app: FastifyInstance | null = null;
  private release: () => void = () => {};
  private released = new Promise<void>((r) => (this.release = r));
  private templates = new Map<string, Json>();
  port = 0;

  /** Builds (or replaces) levels `from..to` on `branch`; the first block links to the stored block below. */
  build(spec: ChainSpec): this {
    for (let level = spec.from; level <= spec.to; level++) {
      const protocol = [...spec.protocols].sort((a, b) => b.from - a.from).find((p) => p.from <= level)!.hash;
      const nextProtocol = [...spec.protocols]
        .sort((a, b) => b.from - a.from)
        .find((p) => p.from <= level + 1)!.hash;
      let tpl = this.templates.get(protocol);
      if (!tpl) this.templates.set(protocol, (tpl = template(protocol)));
      const block = structuredClone(tpl);
      const below = this.blocks.get(level - 1);
      const hash = blockHash(`${spec.branch}:${level}`);
      block.hash = hash;
      block.protocol = protocol;
      block.chain_id = MAINNET_CHAIN;
      const header = block.header as Json;
      header.level = level;
      header.predecessor = below ? below.hash : blockHash(`genesis:${level - 1}`);
      header.timestamp = new Date(Date.UTC(2026, 0, 1) + level * 6000).toISOString().replace('.000Z', 'Z');
      const metadata = block.metadata as Json;
      metadata.protocol = protocol;
      metadata.next_protocol = nextProtocol;
      if (metadata.level_info) (metadata.level_info as Json).level = level;
      this.blocks.set(level, block);
    }
    for (const level of [...this.blocks.keys()]) if (level > spec.to) this.blocks.delete(level);
    return this;
  }

  get headLevel(): number {
    return Math.max(...this.blocks.keys());
  }

  hashAt(level: number): string {
    return this.blocks.get(level)!.hash as string;
  }

  private find(id: string): Json | undefined {
    if (id === 'head') return this.blocks.get(this.headLevel);
    if (/^\d+$/.test(id)) return this.blocks.get(Number(id));
    return [...this.blocks.values()].find((b) => b.hash === id);
  }

  async start(port = 0): Promise<string> {
    const app = Fastify({ forceCloseConnections: true });
    const admitted = new WeakSet<object>();
    app.addHook('onRequest', async (req, reply) => {
      if (this.limit && this.inFlight >= this.limit.concurrent) {
        this.refused++;
        this.requests.push(`refused ${req.url}`);
        if (this.limit.retryAfter !== undefined) void reply.header('retry-after', this.limit.retryAfter);
        return reply.code(429).send({ message: 'too many requests' });
      }
      admitted.add(req);
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      if (this.latencyMs) await new Promise((r) => setTimeout(r, this.latencyMs));
    });
    app.addHook('onResponse', async (req) => {
      if (admitted.has(req)) this.inFlight--;
    });
    app.get<{ Params: { id: string } }>('/chains/main/blocks/:id/header', async (req, reply) => {
      this.requests.push(`header ${req.params.id}`);
      const b = this.find(req.params.id);
      if (!b) return reply.code(404).send([{ kind: 'temporary', id: 'rpc.not_found' }]);
      return { protocol: b.protocol, chain_id: b.chain_id, hash: b.hash, ...(b.header as Json) };
    });
    app.get<{ Params: { id: string } }>('/chains/main/blocks/:id', async (req, reply) => {
      this.requests.push(`block ${req.params.id}`);
      const level = Number(req.params.id);
      if (this.hang.has(level)) {
        await this.released;
        return reply.code(503).send('stopping');
      }
      const b = this.override.get(level) ?? this.find(req.params.id);
      if (!b) return reply.code(404).send([{ kind: 'temporary', id: 'rpc.not_found' }]);
      return b;
    });
    app.get<{ Params: { id: string } }>('/chains/main/blocks/:id/context/constants', async (req, reply) => {
      this.requests.push(`constants ${req.params.id}`);
      const b = this.find(req.params.id);
      if (!b) return reply.code(404).send([{ kind: 'temporary', id: 'rpc.not_found' }]);
      return constantsFor(b.protocol as string);
    });
    app.get<{ Params: { id: string; address: string } }>(
      '/chains/main/blocks/:id/context/contracts/:address/script',
      async (req, reply) => {
        this.requests.push(`script ${req.params.address} ${req.params.id}`);
        const b = this.find(req.params.id);
        const level = b ? ((b.header as Json).level as number) : -1;
        const s = b ? await this.script(req.params.address, level) : undefined;
        if (!s) return reply.code(404).send([{ kind: 'temporary', id: 'rpc.not_found' }]);
        return s;
      },
    );
    await app.listen({ host: '127.0.0.1', port });
    this.app = app;
    const addr = app.server.address();
    this.port = typeof addr === 'object' && addr ? addr.port : port;
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    if (!this.app) return;
    const app = this.app;
    this.app = null;
    this.release();
    this.released = new Promise<void>((r) => (this.release = r));
    app.server.closeAllConnections();
    await app.close();
  }
}

/** A TCP port on 127.0.0.1 with nothing listening (found by binding and closing). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function waitFor(
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<void> {
  const start = Date.now();
  while (!(await cond())) {
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
