import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  CONTRACT_SERIES,
  contractSeriesQuery,
  contractTotalQuery,
  type ContractSeries,
} from '../../../api/contract-stats-api';
import { TIMEFRAMES, type Timeframe } from '../../../api/stats-series';
import { TimeSeriesChart } from '../../../shared/charts/TimeSeriesChart';
import { formatNumber } from '../../../shared/format/format';
import { ContractFrame } from '../ContractFrame';
import { LoadingBlock } from '../../../shared/ui/LoadingBlock';

const LABELS: Record<Timeframe, string> = { day: 'Day', week: 'Week', month: 'Month', year: 'Year' };
export const NO_DATA_TEXT = 'No data for this period are available';

function SeriesChart({
  network,
  address,
  series,
  timeframe,
}: {
  network: string;
  address: string;
  series: ContractSeries;
  timeframe: Timeframe;
}) {
  const query = useQuery(contractSeriesQuery(network, address, series.id, timeframe));
  const summary = useQuery(contractTotalQuery(network, address, series.id));
  const points = query.data ?? [];
  const titleId = `contract-series-${series.id}`;
  const total = summary.data != null ? series.scale(summary.data) : null;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2 }}>
      <Typography id={titleId} variant="h6" component="h2">
        {series.title}
      </Typography>
      <Typography variant="body2" color="text.secondary" role="status" aria-label={`${series.title} total`}>
        {total !== null
          ? `Total: ${formatNumber(total, 6)}${series.unit ? ` ${series.unit}` : ''}`
          : '\u00a0'}
      </Typography>
      {query.isPending ? (
        <LoadingBlock height={220} label={`Loading ${series.title}`} />
      ) : points.length === 0 ? (
        <Typography color="text.secondary" sx={{ height: 120, display: 'grid', placeItems: 'center' }}>
          {NO_DATA_TEXT}
        </Typography>
      ) : (
        <TimeSeriesChart
          height={220}
          points={points.map((p) => ({ x: new Date(p.ts * 1000), y: series.scale(p.value) }))}
          timeframe={timeframe}
          label={series.title}
          valueFormatter={(v) => `${formatNumber(v, 6)}${series.unit ? ` ${series.unit}` : ''}`}
        />
      )}
    </Paper>
  );
}

/** The contract statistics tab: points per Day / Week / Month / Year (default month), four series. */
export function ContractStatsTab({ network, address }: { network: string; address: string }) {
  const [timeframe, setTimeframe] = useState<Timeframe>('month');
  return (
    <Stack spacing={2}>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={timeframe}
        aria-label="Points per"
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
      <Grid container spacing={2}>
        {CONTRACT_SERIES.map((s) => (
          <Grid key={s.id} size={{ xs: 12, md: 6 }}>
            <SeriesChart network={network} address={address} series={s} timeframe={timeframe} />
          </Grid>
        ))}
      </Grid>
    </Stack>
  );
}

/** /{network}/{address}/stats */
export function ContractStatsPage() {
  return (
    <ContractFrame tab="contract_stats">
      {(data) => <ContractStatsTab network={data.network} address={data.address} />}
    </ContractFrame>
  );
}
