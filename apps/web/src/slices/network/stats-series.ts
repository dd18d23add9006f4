/** The four charts of the network Statistics tab (discovery spec §2, §7, §9). */
import type { ChartPoint } from '../../api/services';
import type { NetworkSeriesId } from '../../api/stats-series';

/** The statistics service's gas sums are milligas (reference: consumed_gas as bcdhub stores it). */
export const MILLIGAS_PER_GAS = 1000;

export const NO_DATA_TEXT = 'No data for this period are available';
export const DEFAULT_TIMEFRAME = 'month';

export interface ChartDefinition {
  id: NetworkSeriesId;
  title: string;
  description: string;
  /** Turns a raw value into the unit shown. */
  scale: (value: number) => number;
}

export const NETWORK_CHARTS: readonly ChartDefinition[] = [
  { id: 'deployments', title: 'Deployments', description: 'originated contracts', scale: (v) => v },
  {
    id: 'contractCalls',
    title: 'Contract calls',
    description: 'transactions with an entrypoint',
    scale: (v) => v,
  },
  {
    id: 'paidStorage',
    title: 'Paid storage size diff, KB',
    description: 'storage bytes paid',
    scale: (v) => v / 1024,
  },
  // gas in millions as the spec says (discovery: 'consumed gas (x10^6)', 'gas totals divided by 1e6 in
  // charts'); the service sums milligas as stored (reference: bcdhub's consumed_gas, 1 gas = 1,000
  // milligas), so millions of gas are the sum / 1e9 (issue 33: / 1e6 read milligas as gas, 1,000 times too
  // much). The axis labels keep 3 significant digits (0.0042), so little traffic no longer reads 0, 0, 0
  {
    id: 'consumedGas',
    title: 'Consumed gas ×10⁶',
    description: 'gas consumed',
    scale: (milligas) => milligas / MILLIGAS_PER_GAS / 1e6,
  },
];

/** Chart data: dates in milliseconds and scaled values. */
export function chartData(
  points: readonly ChartPoint[],
  scale: (v: number) => number,
): { x: Date[]; y: number[] } {
  return { x: points.map((p) => new Date(p.ts * 1000)), y: points.map((p) => scale(p.value)) };
}
