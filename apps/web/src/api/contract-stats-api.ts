/**
 * Contract statistics (workspace spec §2 "Contract statistics tab", §7): four series of the statistics service
 * filtered on one contract, each with its total, asked as the BCD client asks them — calls (Target, Status 1,
 * Entrypoint not null), unique users (`transactions/distinct`, field Sender, Target, Status 1), consumed gas
 * (sum of Used) and burned (`balance_update`, sum of Update, Kind 2, Counterparty).
 */
import { queryOptions } from '@tanstack/react-query';
import { histogramQuery, summaryQuery } from './services';
import type { SeriesSpec, Timeframe } from './stats-series';

export type ContractSeriesId = 'calls' | 'users' | 'gas' | 'burned';

export interface ContractSeries {
  id: ContractSeriesId;
  title: string;
  /** Unit shown after the total. */
  unit: string;
  /** Raw value to shown value: gas sums are milligas (shown in gas), burned mutez are shown in tez. */
  scale: (v: number) => number;
}

export const CONTRACT_SERIES: readonly ContractSeries[] = [
  { id: 'calls', title: 'Contract calls', unit: '', scale: (v) => v },
  { id: 'users', title: 'Unique users', unit: '', scale: (v) => v },
  // the service sums milligas as stored (reference: bcdhub's consumed_gas); 1 gas = 1,000 milligas (issue 33)
  { id: 'gas', title: 'Consumed gas', unit: 'gas', scale: (milligas) => milligas / 1000 },
  { id: 'burned', title: 'Burned', unit: 'ꜩ', scale: (v) => v / 1e6 },
];

export function contractSeriesSpec(id: ContractSeriesId, address: string): SeriesSpec {
  const calls = { Target: address, Status: '1', 'Entrypoint.isnotnull': '' };
  switch (id) {
    case 'calls':
      return { table: 'transactions', fn: 'count', filters: calls };
    case 'users':
      return {
        table: 'transactions',
        fn: 'distinct',
        filters: { field: 'Sender', Target: address, Status: '1' },
      };
    case 'gas':
      return { table: 'consumed_gas', fn: 'sum', filters: { field: 'Used', Target: address } };
    case 'burned':
      return {
        table: 'balance_update',
        fn: 'sum',
        filters: { field: 'Update', Kind: '2', Counterparty: address },
      };
  }
}

export const contractSeriesQuery = (
  network: string,
  address: string,
  id: ContractSeriesId,
  timeframe: Timeframe,
) =>
  queryOptions({
    ...histogramQuery({ network, ...contractSeriesSpec(id, address) }, timeframe),
    staleTime: 60_000,
  });

/**
 * The total of a series over all time, from the service's summary (for unique users the distinct senders of
 * all time, which the monthly points do not add up to).
 */
export const contractTotalQuery = (network: string, address: string, id: ContractSeriesId) =>
  queryOptions({
    ...summaryQuery({ network, ...contractSeriesSpec(id, address) }),
    staleTime: 60_000,
    meta: { silent: true },
  });
