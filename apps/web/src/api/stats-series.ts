/** The statistics service's series the pages chart (discovery spec §7): which table, function and filters. */
import type { StatsSeries } from './service-resources';

/** A series without its network. */
export type SeriesSpec = Omit<StatsSeries, 'network'>;

/** The four network series of the Statistics tab. */
export const NETWORK_SERIES = {
  deployments: { table: 'originations', fn: 'count', filters: { Status: '1' } },
  contractCalls: { table: 'transactions', fn: 'count', filters: { 'Entrypoint.isnotnull': '', Status: '1' } },
  paidStorage: { table: 'paid_storage_size_diff', fn: 'sum', filters: { field: 'Value' } },
  consumedGas: { table: 'consumed_gas', fn: 'sum', filters: { field: 'Used' } },
} as const satisfies Record<string, SeriesSpec>;

export type NetworkSeriesId = keyof typeof NETWORK_SERIES;

/** The timeframes the charts offer (the service also has `hour`). */
export const TIMEFRAMES = ['day', 'week', 'month', 'year'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];
