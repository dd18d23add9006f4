/**
 * @michelscope/db — connection (PGlite or PostgreSQL), migrations and table types.
 * Readers import `@michelscope/db/read`, the indexer imports `@michelscope/db/write`.
 */
export { openDatabase, redact, type DbHandle, type OpenDatabaseOptions } from './connection';
export { migrateToLatest, loadMigrations, type Migration } from './migrate';
export { STATS_COUNTERS, type Database, type Db, type StatsCounter } from './schema';
export {
  decodeLiveNotice,
  encodeLiveNotice,
  LIVE_PAYLOAD_MAX,
  type LiveBlockNotice,
  type LiveNotice,
  type LiveRevertNotice,
} from './live';
