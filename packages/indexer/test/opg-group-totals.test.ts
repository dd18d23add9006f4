/**
 * An operation group's totals written with its rows (migration 0350: `group_cost`, `group_internals`) give the
 * account operation-group pages (GET /contract/{network}/{address}/opg) the answers that summing each group
 * again gives: on the seeded sandbox chain (batches, contracts calling contracts, originations that burn)
 * stored by the indexer's own write path (COPY on PostgreSQL, JSON statements on PGlite), for every page size
 * down to the smallest window, where groups are cut by the window. (The fake node's mainnet chain repeats its
 * fixture blocks, and so their operation hashes, at every level: not a chain whose groups can be summed by hash.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@michelscope/db';
import { accountOperationGroupsJson } from '@michelscope/db/read';
import { describeDb } from '@michelscope/db/testing';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { ProtocolRegistry } from '../src/protocols/registry';
import { NodeRpc } from '../src/rpc/client';
import { ContractCache } from '../src/sync/block-data';
import { fetchBlock, prepareBlock, storeBlocks, type ChainContext } from '../src/sync/chain';
import { Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import { openSeededSandbox } from '@michelscope/sandbox/testing';
import Fastify, { type FastifyInstance } from 'fastify';

const NET = 'sandbox-totals';

/** Every page of `address`'s groups, `size` a page, following `last_id` (the JSON texts as the API sends them). */
async function allPages(db: Db, address: string, size: number): Promise<string[]> {
  const pages: string[] = [];
  let lastId: number | undefined;
  for (;;) {
    const { json } = await accountOperationGroupsJson(db, NET, address, size, lastId);
    pages.push(json);
    const rows = JSON.parse(json) as { last_id: number }[];
    if (rows.length < size) return pages;
    lastId = Math.min(...rows.map((r) => r.last_id));
  }
}

// PGlite and PostgreSQL: the indexer writes operations through COPY on PostgreSQL and JSON statements on PGlite.
describeDb('operation-group totals written with the rows', { backends: 'both' }, ({ db }) => {
  let sandbox: Sandbox | undefined;
  let app: FastifyInstance | undefined;
  let dir = '';
  afterAll(async () => {
    await app?.close();
    await sandbox?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('every page of the accounts with the most rows is the same with the stored totals as summed again', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ms-group-totals-'));
    sandbox = await openSeededSandbox({ dataDir: dir, blockTimeMs: 3_600_000, log: () => {} });
    app = Fastify({ forceCloseConnections: true });
    await app.register(sandboxRpcPlugin(sandbox));
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const top = sandbox.headLevel;
    const ctx: ChainContext = {
      db: db(),
      network: NET,
      rpc: new NodeRpc(url, { timeoutMs: 60_000, signal: new AbortController().signal }),
      registry: new ProtocolRegistry(),
      line: () => {},
      cache: new ContractCache(db(), NET),
      costPerByte: new Map(),
    };
    let protocol: string | null = null;
    for (let level = 1; level <= top; level++) {
      const p = await prepareBlock(ctx, await fetchBlock(ctx, level), protocol);
      await storeBlocks(ctx, [p]);
      protocol = p.write.block.protocol;
    }

    const stored = (
      await sql<{
        rows: number;
        missing: number;
        internals: number;
        cost: number;
      }>`SELECT count(*)::int AS rows,
        (count(*) FILTER (WHERE group_cost IS NULL OR group_internals IS NULL))::int AS missing,
        coalesce(max(group_internals), 0)::int AS internals, coalesce(max(group_cost), 0)::int8 AS cost
        FROM operations WHERE network = ${NET}`.execute(db())
    ).rows[0]!;
    expect(stored.rows).toBeGreaterThan(50);
    expect(stored.missing).toBe(0);
    // the blocks hold groups with internal operations and groups that paid fees and burned
    expect(stored.internals).toBeGreaterThan(0);
    expect(Number(stored.cost)).toBeGreaterThan(0);

    // the accounts in the most groups with internal operations, and the ones with the most rows
    const accounts = (
      await sql<{ address: string }>`SELECT address FROM (
          SELECT a AS address, count(*) AS n, count(*) FILTER (WHERE internal) AS i
          FROM operations, LATERAL (VALUES (source), (destination)) v(a)
          WHERE network = ${NET} AND a IS NOT NULL AND kind NOT IN ('attestation', 'endorsement')
          GROUP BY a) x
        ORDER BY i DESC, n DESC, address LIMIT 12`.execute(db())
    ).rows.map((r) => r.address);
    expect(accounts.length).toBe(12);

    const sizes = [1, 3, 10];
    const withTotals = new Map<string, string[]>();
    for (const a of accounts)
      for (const size of sizes) withTotals.set(`${a} ${size}`, await allPages(db(), a, size));
    const groups = [...withTotals.values()].flat().flatMap((p) => JSON.parse(p) as { internals: number }[]);
    expect(groups.some((g) => g.internals > 0)).toBe(true);

    // the same pages when every group is summed again, as for rows written before the migration
    await sql`UPDATE operations SET group_cost = NULL, group_internals = NULL WHERE network = ${NET}`.execute(
      db(),
    );
    for (const a of accounts)
      for (const size of sizes)
        expect(await allPages(db(), a, size), `${a}, ${size} a page`).toEqual(withTotals.get(`${a} ${size}`));
  }, 600_000);
});
