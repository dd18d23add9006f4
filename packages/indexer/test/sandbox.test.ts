/**
 * The real sandbox chain (packages/sandbox, seeded with the demo contracts) served over HTTP on
 * 127.0.0.1 and indexed from level 1: every block and operation stored without an error, the contracts and
 * big maps found, and the demo tokens' TZIP-16/TZIP-12 metadata resolved from their storage
 * (`tezos-storage:content`) and searchable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeDb } from '@michelscope/db/testing';
import { Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startIndexer, startMetadataResolver } from '../src';
import { waitFor } from './fake-node';
import { openSeededSandbox } from '@michelscope/sandbox/testing';

// PGlite and PostgreSQL: the real chain and its metadata through each write path, then full-text search.
describeDb('indexing the seeded sandbox chain', { backends: 'both' }, ({ db }) => {
  let sandbox: Sandbox;
  let app: FastifyInstance;
  let rpcUrl = '';
  const dir = mkdtempSync(path.join(tmpdir(), 'ms-sandbox-'));
  beforeAll(async () => {
    sandbox = await openSeededSandbox({ dataDir: dir, blockTimeMs: 3_600_000, log: () => {} });
    app = Fastify({ forceCloseConnections: true });
    await app.register(sandboxRpcPlugin(sandbox));
    rpcUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('indexes every block and operation of the seeded chain, then resolves the demo tokens’ metadata', async () => {
    const head = sandbox.headLevel;
    expect(head).toBeGreaterThan(10);
    const logs: string[] = [];
    const indexer = startIndexer({
      db: db(),
      network: 'sandboxnet',
      rpcUrl,
      startLevel: 1,
      pollIntervalMs: 50,
      log: (l) => logs.push(l),
    });
    try {
      await waitFor(
        () => indexer.status().level === head || indexer.status().state === 'unreachable',
        120_000,
        'the sandbox head',
      );
      expect(indexer.status().level).toBe(head);
      expect(indexer.status().lastError, logs.join('\n')).toBeUndefined();
    } finally {
      await indexer.stop();
    }
    expect(logs.filter((l) => /invalid|unreachable|error/i.test(l))).toEqual([]);

    // Every manager operation of every block, with its status, is stored at its level.
    const expected: string[] = [];
    let originations = 0;
    for (let l = 1; l <= head; l++) {
      for (const op of sandbox.block(l)!.operations[3]!) {
        for (const c of op.contents) {
          const r = (
            c as { metadata?: { operation_result?: { status?: string; originated_contracts?: string[] } } }
          ).metadata?.operation_result;
          expected.push(`${l} ${op.hash} ${c.kind} ${r?.status}`);
          if (c.kind === 'origination' && r?.status === 'applied') originations++;
        }
      }
    }
    const stored = await sql<{
      s: string;
    }>`SELECT level || ' ' || hash || ' ' || kind || ' ' || status AS s FROM operations
      WHERE network = 'sandboxnet' AND NOT internal AND hash IS NOT NULL ORDER BY id`.execute(db());
    expect(stored.rows.map((r) => r.s)).toEqual(expected);
    const n = async (q: ReturnType<typeof sql<{ n: number }>>) => (await q.execute(db())).rows[0]!.n;
    expect(await n(sql`SELECT count(*)::int AS n FROM blocks WHERE network = 'sandboxnet'`)).toBe(head);
    // Top-level originations plus the factory's CREATE_CONTRACT (internal) ones.
    expect(
      await n(sql`SELECT count(*)::int AS n FROM contracts WHERE network = 'sandboxnet'`),
    ).toBeGreaterThan(originations);
    expect(
      await n(sql`SELECT count(*)::int AS n FROM big_map_diffs WHERE network = 'sandboxnet'`),
    ).toBeGreaterThan(10);

    // Metadata: the FA1.2 and FA2 demo contracts keep TZIP-16 JSON in storage; the FA2 has TZIP-12 tokens.
    const queued = await n(
      sql`SELECT count(*)::int AS n FROM contract_metadata WHERE network = 'sandboxnet'`,
    );
    expect(queued).toBeGreaterThanOrEqual(2);
    const resolver = startMetadataResolver({
      db: db(),
      network: 'sandboxnet',
      rpcUrl,
      background: false,
      batchSize: 50,
      log: () => {},
    });
    await resolver.runOnce();
    const contracts = await sql<{
      name: string;
      status: number;
    }>`SELECT name, status FROM contract_metadata WHERE network = 'sandboxnet' ORDER BY name`.execute(db());
    expect(contracts.rows).toEqual(
      expect.arrayContaining([
        { name: 'Michelscope Demo Collection', status: 3 },
        { name: 'Michelscope Demo Token', status: 3 },
      ]),
    );
    const tokens = await sql<{
      name: string | null;
      status: number;
      error: string | null;
    }>`SELECT name, status, error FROM token_metadata
      WHERE network = 'sandboxnet' ORDER BY token_id`.execute(db());
    expect(tokens.rows.length).toBeGreaterThanOrEqual(2);
    for (const t of tokens.rows)
      expect(t).toMatchObject({ status: 3, error: null, name: expect.any(String) as unknown });
    const found = await sql<{
      kind: string;
    }>`SELECT kind FROM search_documents WHERE network = 'sandboxnet' AND tsv @@ plainto_tsquery('simple', 'Michelscope Demo Collection')`.execute(
      db(),
    );
    expect(found.rows.map((r) => r.kind)).toContain('contract_metadata');
  }, 240_000);
});
