import type { Head } from '@michelscope/api-types';

export type SyncStatus = 'synced' | 'unsynced' | 'loading';

/**
 * Sync state per configured network from GET /v1/head. A network missing from the answer, or an answer
 * that failed, counts as unsynced: an unreachable network is normal and is never shown as an error.
 */
export function syncStatusByNetwork(
  networks: readonly string[],
  heads: readonly Head[] | undefined,
  failed: boolean,
): Map<string, SyncStatus> {
  const synced = new Set((heads ?? []).filter((h) => h.synced).map((h) => h.network));
  const loading = heads === undefined && !failed;
  return new Map(
    networks.map((network) => [network, loading ? 'loading' : synced.has(network) ? 'synced' : 'unsynced']),
  );
}

/** The dot's accessible name: "{network} synced" / "{network} unsynced" (used by the end-to-end test). */
export function syncDotLabel(network: string, status: SyncStatus): string {
  return status === 'loading' ? `${network} sync status loading` : `${network} ${status}`;
}
