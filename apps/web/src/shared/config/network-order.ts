import type { ConfigResponse } from '@michelscope/api-types';

/** Network ordering wherever listed (discovery spec §1): mainnet first, then the others by name descending. */
export function compareNetworks(a: string, b: string): number {
  if (a === b) return 0;
  if (a === 'mainnet') return -1;
  if (b === 'mainnet') return 1;
  return a < b ? 1 : -1;
}

export function sortNetworks<T>(items: readonly T[], name: (item: T) => string): T[] {
  return [...items].sort((x, y) => compareNetworks(name(x), name(y)));
}

/** Networks with a statistics service when the server does not say (discovery spec §7). */
export const DEFAULT_STATS_NETWORKS: ReadonlySet<string> = new Set([
  'mainnet',
  'ghostnet',
  'nairobinet',
  'oxfordnet',
]);

/** Whether the Statistics tab exists for a network: the server's `network_info`, else the spec's list. */
export function hasStats(config: Pick<ConfigResponse, 'network_info'>, network: string): boolean {
  const info = config.network_info.find((n) => n.name === network);
  return info ? info.stats_enabled : DEFAULT_STATS_NETWORKS.has(network);
}
