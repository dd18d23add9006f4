/**
 * @michelscope/db/read — the read-only queries the API uses. Nothing here writes; the indexer writes
 * through `@michelscope/db/write`.
 */
export { getBackfillSummaries, getHeads, type BackfillSummaryRow, type HeadRow } from './head';
export { getStats, zeroStats, type StatsCounters } from './stats';
export * from './contracts';
export * from './operations';
export * from './replay-state';
export * from './opg';
export * from './big-maps';
export * from './chain-objects';
export * from './search';
export * from './search-operations';
export * from './search-enrichment';
export * from './series';
export type { Db } from '../schema';
export * from './metadata';
export * from './storage-diff';
export * from './export';
export * from './export-operations';
export * from './export-big-maps';
export * from './export-contracts';
export * from './live';
export * from './tokens';
export * from './stored-address';
