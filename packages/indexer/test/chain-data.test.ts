/**
 * Every operation group and block in ../shared/fixtures/rpc parsed and stored through applyBlock (one block
 * each, in one chain), then: rows are where a user would look for them, and reverting blocks leaves the
 * database exactly as it was before them (reorg safety of every table the indexer writes).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeDb } from '@michelscope/db/testing';
import { applyBlock, revertBlock, type BlockRecord, type ProtocolRecord } from '@michelscope/db/write';
import type { Db } from '@michelscope/db';
import { parseBlockOperations } from '../src/parse/block';
import { blockReferences } from '../src/parse/block';
import { ContractCache } from '../src/sync/block-data';
import { ProtocolRegistry } from '../src/protocols/registry';
import { blockHash, SEOUL } from './fake-node';
import { INDEXED_TABLES } from './table-dump';

const RPC = path.resolve(__dirname, '../../../../shared/fixtures/rpc');
const hasShared = existsSync(RPC);
if (!hasShared) console.warn(`[chain-data] ${RPC} is absent: fixture indexing tests skipped`);

interface Input {
  name: string;
  protocol: string;
  raw: unknown;
}

function inputs(): Input[] {
  if (!hasShared) return [];
  const out: Input[] = [];
  const opDir = path.join(RPC, 'operations');
  for (const f of readdirSync(opDir)
    .filter((x) => /^o\w+\.json$/.test(x))
    .sort()) {
    const g = JSON.parse(readFileSync(path.join(opDir, f), 'utf8')) as { protocol: string };
    out.push({ name: f, protocol: g.protocol, raw: { operations: [[], [], [], [g]] } });
  }
  const blockDir = path.join(RPC, 'blocks/mainnet');
  for (const l of readdirSync(blockDir).filter((x) => /^\d+$/.test(x))) {
    const b = JSON.parse(readFileSync(path.join(blockDir, l, 'block.json'), 'utf8')) as { protocol: string };
    out.push({ name: `block ${l}`, protocol: b.protocol, raw: b });
  }
  return out;
}

const record = (level: number, branch = 'main'): BlockRecord => ({
  level,
  hash: blockHash(`${branch}:${level}`),
  predecessor: blockHash(`${level === 1 || branch === 'main' ? 'main' : branch}:${level - 1}`),
  timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, level * 30)),
  chainId: 'NetXdQprcVkpaWU',
  protocol: SEOUL,
});
const protocol: ProtocolRecord = {
  hash: SEOUL,
  chainId: 'NetXdQprcVkpaWU',
  startLevel: 1,
  costPerByte: 250,
  hardGasLimitPerOperation: 1040000,
  hardStorageLimitPerOperation: 60000,
  timeBetweenBlocks: 8,
  constants: {},
};

// the tables compared around a revert: every table the indexer writes but `protocols`
const TABLES = INDEXED_TABLES.filter((t) => t !== 'protocols');

async function dump(db: Db, network: string): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of TABLES) {
    const r = await sql<{
      j: unknown;
    }>`SELECT to_jsonb(x) - 'updated_at' - 'next_attempt_at' AS j FROM ${sql.table(t)} x WHERE network = ${network}`.execute(
      db,
    );
    out[t] = r.rows.map((x) => JSON.stringify(x.j)).sort();
  }
  return out;
}

async function indexAll(db: Db, network: string, list: Input[], from = 1, branch = 'main'): Promise<void> {
  const registry = new ProtocolRegistry();
  const cache = new ContractCache(db, network);
  for (const [i, input] of list.entries()) {
    const level = from + i;
    const refs = blockReferences(input.raw);
    await cache.load(refs.contracts, refs.constants);
    const rec = record(level, branch);
    const data = parseBlockOperations(
      input.raw,
      {
        level,
        timestamp: rec.timestamp,
        costPerByte: 250,
        era: registry.get(input.protocol).era,
        contract: cache.contract,
        constant: cache.constant,
      },
      input.name,
    );
    await applyBlock(db, network, rec, level === 1 ? protocol : undefined, data);
  }
}

// PGlite and PostgreSQL: every fixture written (COPY, deferred statements on PostgreSQL) and reverted.
describeDb('chain data from real fixtures', { backends: 'both' }, ({ db }) => {
  const list = inputs();

  it.skipIf(!hasShared)(
    'indexes every fixture operation group and block, with the rows a user looks for',
    async () => {
      await indexAll(db(), 'fx', list);
      const count = async (t: string) =>
        Number(
          (
            await sql<{
              n: number;
            }>`SELECT count(*)::int AS n FROM ${sql.table(t)} WHERE network = 'fx'`.execute(db())
          ).rows[0]!.n,
        );
      const stats = await db()
        .selectFrom('stats')
        .selectAll()
        .where('network', '=', 'fx')
        .executeTakeFirstOrThrow();
      expect(stats.operations_count).toBe(await count('operations'));
      expect(stats.contracts_count).toBe(await count('contracts'));
      expect(stats.global_constants_count).toBeGreaterThan(0);
      expect(await count('big_map_diffs')).toBeGreaterThan(50);
      expect(await count('tickets')).toBeGreaterThan(0);
      expect(await count('operations')).toBeGreaterThan(500);
      const kinds = await sql<{
        kind: string;
      }>`SELECT DISTINCT kind FROM operations WHERE network = 'fx' ORDER BY kind`.execute(db());
      expect(kinds.rows.map((r) => r.kind)).toEqual(
        expect.arrayContaining([
          'delegation',
          'origination',
          'register_global_constant',
          'reveal',
          'smart_rollup_add_messages',
          'transaction',
          'transfer_ticket',
        ]),
      );
      // The constant registered by ooffKPL… is stored; opPDkVe… uses one registered before the fixtures
      // (another chain): its origination is kept, without a contract row.
      expect(
        (
          await db().selectFrom('global_constants').select('address').where('network', '=', 'fx').execute()
        ).map((r) => r.address),
      ).toContain('expru54tk2k4E81xQy63P6x3RijnTz51s2m7BV7pr3fDQH8YDqiYvR');
      const pd = await db()
        .selectFrom('operations')
        .select(['kind', 'destination'])
        .where('hash', '=', 'opPDkVe1nU5xqLyoWYQ2r6H7PaJM5S4Pe4WtTmEE7UMQAwfnuiJ')
        .executeTakeFirstOrThrow();
      expect(pd).toEqual({ kind: 'origination', destination: 'KT1KRzp5hckBwLLswCreweLMdueL3jJhTN1S' });
      // A call stored with its resolved entrypoint and fa1-2 tag (golden opJXaAMk…): only when the destination is known.
      const call = await db()
        .selectFrom('operations')
        .selectAll()
        .where('hash', '=', 'opJXaAMkBrAbd1XFd23kS8vXiw63tU4rLUcLrZgqUCpCbhT1Pn9')
        .orderBy('id')
        .execute();
      expect(call.map((o) => [o.internal, o.kind, o.status])).toEqual([
        [false, 'transaction', 'applied'],
        [true, 'transaction', 'applied'],
        [true, 'transaction', 'applied'],
      ]);
      // Key states agree with the last diff of each key.
      const states = await sql<{
        bad: number;
      }>`SELECT count(*)::int AS bad FROM big_map_states s WHERE network = 'fx' AND NOT removed AND s.value IS DISTINCT FROM
      (SELECT value FROM big_map_diffs d WHERE d.network = 'fx' AND d.ptr = s.ptr AND d.key_hash = s.key_hash ORDER BY id DESC LIMIT 1)`.execute(
        db(),
      );
      expect(states.rows[0]!.bad).toBe(0);
      // Ticket balances are the sums of the updates.
      const tb = await sql<{
        bad: number;
      }>`SELECT count(*)::int AS bad FROM ticket_balances b WHERE network = 'fx' AND amount <>
      (SELECT sum(amount) FROM ticket_updates u WHERE u.ticket_id = b.ticket_id AND u.account = b.account)`.execute(
        db(),
      );
      expect(tb.rows[0]!.bad).toBe(0);
      // Search finds a contract by entrypoint words and by address fragment (tsvector and trigram).
      const byWord = await sql<{
        key: string;
      }>`SELECT key FROM search_documents WHERE network = 'fx' AND tsv @@ plainto_tsquery('simple', 'update_operators')`.execute(
        db(),
      );
      expect(byWord.rows.length).toBeGreaterThan(0);
      const fragment = byWord.rows[0]!.key.slice(5, 14);
      const byTrgm = await sql<{
        key: string;
      }>`SELECT key FROM search_documents WHERE network = 'fx' AND key % ${fragment} OR key ILIKE ${'%' + fragment + '%'}`.execute(
        db(),
      );
      expect(byTrgm.rows.map((r) => r.key)).toContain(byWord.rows[0]!.key);
    },
  );

  it.skipIf(!hasShared)(
    'reverting blocks restores every table exactly (counters, key states, balances, stats)',
    async () => {
      const half = Math.floor(list.length / 2);
      await indexAll(db(), 'rv', list.slice(0, half));
      const before = await dump(db(), 'rv');
      // The second half touches accounts, big maps, tickets and stats written by the first half.
      await indexAll(db(), 'rv', list.slice(half), half + 1);
      const after = await dump(db(), 'rv');
      expect(after.operations!.length).toBeGreaterThan(before.operations!.length);
      for (let l = list.length; l > half; l--) await revertBlock(db(), 'rv', l);
      const reverted = await dump(db(), 'rv');
      for (const t of TABLES) expect(reverted[t], t).toEqual(before[t]);
    },
  );
});
