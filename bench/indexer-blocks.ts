/**
 * Ingest benchmark: the real indexer (startIndexer) follows a fake node on 127.0.0.1 that serves N blocks
 * built from the real mainnet Seoul/Tallinn fixture blocks (all their operations, rewritten into one chain),
 * into PGlite (in memory) or PostgreSQL (DATABASE_URL). Prints blocks/s and operations/s.
 *
 *   npx tsx bench/indexer-blocks.ts [blocks=300]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/indexer-blocks.ts 300
 */
import { sql } from 'kysely';
import { openDatabase, migrateToLatest } from '@michelscope/db';
import { startIndexer } from '@michelscope/indexer';
import { FakeNode, hasFixtures, SEOUL, TALLINN, waitFor } from '../packages/indexer/test/fake-node';

const blocks = Number(process.argv[2] ?? 300);
if (!hasFixtures) {
  console.error('bench: ../shared/fixtures is absent; nothing to index');
  process.exit(1);
}
const url = process.env.DATABASE_URL;
const schema = `bench_${Date.now()}`;
const handle = url ? await openDatabase({ databaseUrl: url, schema }) : await openDatabase();
await migrateToLatest(handle.db);
const node = new FakeNode().build({
  branch: 'bench',
  from: 1,
  to: blocks,
  protocols: [
    { hash: SEOUL, from: 1 },
    { hash: TALLINN, from: Math.floor(blocks / 2) },
  ],
});
const rpcUrl = await node.start();
const started = performance.now();
const indexer = startIndexer({
  db: handle.db,
  network: 'bench',
  rpcUrl,
  startLevel: 1,
  log: () => {},
  pollIntervalMs: 50,
  fetchAhead: 8,
});
await waitFor(() => indexer.status().level === blocks, 3_600_000, `level ${blocks}`);
const seconds = (performance.now() - started) / 1000;
await indexer.stop();
await node.stop();
const count = async (t: string) =>
  Number(
    (
      await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM ${sql.table(t)} WHERE network = 'bench'`.execute(handle.db)
    ).rows[0]!.n,
  );
const ops = await count('operations');
const diffs = await count('big_map_diffs');
console.log(
  `${url ? 'postgresql' : 'pglite'}: ${blocks} blocks, ${ops} operations, ${diffs} big-map diffs in ${seconds.toFixed(1)} s = ` +
    `${(blocks / seconds).toFixed(1)} blocks/s, ${Math.round(ops / seconds)} operations/s`,
);
if (url) await sql.raw(`DROP SCHEMA "${schema}" CASCADE`).execute(handle.db);
await handle.close();
