/**
 * A separate indexer process for the backfill kill-and-restart test: follows `network` from `rpcUrl` from
 * level `start` (a number: the same forward floor in every run), asks for `address` (adopted at the head, its
 * history then backfilled by the default source, a scan of the node), prints `BELOW n` whenever the number of
 * blocks stored below the floor changes, and `DONE` once the address's backfill is done (then exits with
 * `exit`, else keeps running until killed).
 * Usage: backfill-child.ts <rpcUrl> <network> <start> <address> <exit | stay> <dataDir | postgres://…>
 */
import { migrateToLatest, openDatabase } from '@michelscope/db';
import { requestAddress } from '@michelscope/db/address-requests';
import { sql } from 'kysely';
import { startIndexer } from '../src';

const [rpcUrl, network, startText, address, mode, where] = process.argv.slice(2);
const start = Number(startText);
const handle = where!.startsWith('postgres')
  ? await openDatabase({ databaseUrl: where!, maxConnections: 2 })
  : await openDatabase({ dataDir: where! });
await migrateToLatest(handle.db);
const indexer = startIndexer({
  db: handle.db,
  network: network!,
  rpcUrl: rpcUrl!,
  startLevel: start,
  pollIntervalMs: 50,
  log: () => {},
});
await requestAddress(handle.db, network!, address!, 10);
let below = -1;
let done = false;
for (;;) {
  const { rows } = await sql<{ n: string; state: string | null }>`SELECT
      (SELECT count(*) FROM blocks WHERE network = ${network} AND level < ${start})::text AS n,
      (SELECT state FROM history_backfills WHERE network = ${network} AND address = ${address}) AS state`.execute(
    handle.db,
  );
  const n = Number(rows[0]!.n);
  if (n !== below) {
    below = n;
    process.stdout.write(`BELOW ${n}\n`);
  }
  if (rows[0]!.state === 'done' && !done) {
    done = true;
    process.stdout.write('DONE\n');
    if (mode === 'exit') {
      await indexer.stop();
      await handle.close();
      process.exit(0);
    }
  }
  await new Promise((r) => setTimeout(r, 20));
}
