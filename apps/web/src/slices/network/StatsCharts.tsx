/** The Statistics tab's charts; loaded lazily with @mui/x-charts (only this module imports it). */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { histogramQuery, summaryQuery } from '../../api/services';
import { NETWORK_SERIES, TIMEFRAMES, type Timeframe } from '../../api/stats-series';
import { TimeSeriesChart } from '../../shared/charts/TimeSeriesChart';
import { formatNumber } from '../../shared/format/format';
import {
  DEFAULT_TIMEFRAME,
  NETWORK_CHARTS,
  NO_DATA_TEXT,
  chartData,
  type ChartDefinition,
} from './stats-series';
import { LoadingBlock } from '../../shared/ui/LoadingBlock';

const LABELS: Record<Timeframe, string> = { day: 'Day', week: 'Week', month: 'Month', year: 'Year' };

function StatsChart({ network, chart }: { network: string; chart: ChartDefinition }) {
  const [timeframe, setTimeframe] = useState<Timeframe>(DEFAULT_TIMEFRAME);
  const series = { network, ...NETWORK_SERIES[chart.id] };
  const query = useQuery({ ...histogramQuery(series, timeframe), staleTime: 60_000 });
  const summary = useQuery({
    ...summaryQuery(series),
    staleTime: 60_000,
    meta: { silent: true },
  });
  const data = chartData(query.data ?? [], chart.scale);
  const titleId = `chart-${chart.id}`;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', gap: 1, mb: 1 }}>
        <div>
          <Typography id={titleId} variant="h6" component="h3">
            {chart.title}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p">
            {chart.description}
            {summary.data != null ? ` · total ${formatNumber(chart.scale(summary.data), 4)}` : ''}
          </Typography>
        </div>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={timeframe}
          aria-label={`${chart.title} period`}
          onChange={(_e, next: Timeframe | null) => {
            if (next) setTimeframe(next);
          }}
        >
          {TIMEFRAMES.map((t) => (
            <ToggleButton key={t} value={t}>
              {LABELS[t]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      {query.isPending ? (
        <LoadingBlock height={260} label={`Loading ${chart.title}`} />
      ) : data.x.length === 0 ? (
        <Typography color="text.secondary" sx={{ height: 120, display: 'grid', placeItems: 'center' }}>
          {NO_DATA_TEXT}
        </Typography>
      ) : (
        <TimeSeriesChart
          height={260}
          points={data.x.map((x, i) => ({ x, y: data.y[i] ?? 0 }))}
          timeframe={timeframe}
          label={chart.title}
          valueFormatter={(v) => formatNumber(v, 4)}
        />
      )}
    </Paper>
  );
}

export default function StatsCharts({ network }: { network: string }) {
  return (
    <Stack sx={{ gap: 2 }}>
      {NETWORK_CHARTS.map((chart) => (
        <StatsChart key={chart.id} network={network} chart={chart} />
      ))}
    </Stack>
  );
}
