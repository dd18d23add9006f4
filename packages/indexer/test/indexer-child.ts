/**
 * A separate indexer process for the kill-and-restart test: indexes `network` from `rpcUrl` into a PGlite
 * data folder or a PostgreSQL schema, prints `LEVEL n` after every stored block and exits with DONE once
 * level `target` is stored (`follow`: keeps following until killed).
 * Usage: tsx indexer-child.ts <rpcUrl> <network> <target | follow> <dataDir | postgres://… schema>
 */
import { migrateToLatest, openDatabase } from '@michelscope/db';
import { startIndexer } from '../src';

const [rpcUrl, network, targetText, where, schema] = process.argv.slice(2);
/** `follow`: never exit by itself (a child the test kills). */
const target = targetText === 'follow' ? Infinity : Number(targetText);
const handle = where!.startsWith('postgres')
  ? await openDatabase({ databaseUrl: where!, ...(schema ? { schema } : {}), maxConnections: 2 })
  : await openDatabase({ dataDir: where! });
await migrateToLatest(handle.db);
const indexer = startIndexer({
  db: handle.db,
  network: network!,
  rpcUrl: rpcUrl!,
  startLevel: 1,
  pollIntervalMs: 50,
  fetchAhead: 4,
  log: () => {},
});
let last = -1;
indexer.onProgress((s) => {
  if (s.level !== null && s.level !== last) {
    last = s.level;
    process.stdout.write(`LEVEL ${s.level}\n`);
    if (s.level >= target) {
      void indexer.stop().then(async () => {
        await handle.close();
        process.stdout.write('DONE\n');
        process.exit(0);
      });
    }
  }
});
