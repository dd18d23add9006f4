import { lazy, Suspense } from 'react';
import { Link as RouterLink, Navigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { networkStatesQuery } from '../../api/queries';
import { hasStats } from '../../shared/config/network-order';
import { useAppConfig } from '../../shared/config/useAppConfig';
import { ALIAS_MAX_TABLE } from '../../shared/format/format';
import { RecentlyCalledTable } from '../../shared/tables/RecentlyCalledTable';
import { GlobalConstantsTab } from './GlobalConstantsTab';
import { NetworkInfoPanel } from './NetworkInfoPanel';
import { NetworkSidebar } from './NetworkSidebar';
import { withLiveHead } from './network-sync';
import { useLiveChannel, useLiveStatus } from '../../shared/live/useLive';
import { LoadingBlock } from '../../shared/ui/LoadingBlock';

const StatsCharts = lazy(() => import('./StatsCharts'));

export type NetworkTab = 'recently_called' | 'constants' | 'stats';

export const NETWORK_TABLE_ROWS = 10;

/** The network page: breadcrumb, sidebar of networks, Network Info and the tabs. */
export function NetworkPage({ tab }: { tab: NetworkTab }) {
  const { network = '' } = useParams();
  const config = useAppConfig();
  const states = useQuery(networkStatesQuery());
  // the live stream's last head (the header's level): the states never show an older one
  const { head } = useLiveStatus(useLiveChannel(network || undefined));
  const stats = hasStats(config, network);
  if (tab === 'stats' && !stats) return <Navigate to={`/${network}/recently_called`} replace />;
  const shown = states.data?.map((s) => (s.network === network ? (withLiveHead(s, head) ?? s) : s));
  const state = shown?.find((s) => s.network === network);

  return (
    <Stack sx={{ py: 3, gap: 2 }}>
      <title>{`${network} · Michelscope`}</title>
      <Breadcrumbs aria-label="Breadcrumb">
        <Link component={RouterLink} to="/" underline="hover" color="inherit">
          Home
        </Link>
        <Typography color="text.primary" aria-current="page">
          {network}
        </Typography>
      </Breadcrumbs>
      <Typography variant="h4" component="h1" sx={{ textTransform: 'capitalize' }}>
        {network}
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 3 }}>
          <NetworkSidebar states={shown} current={network} />
        </Grid>
        <Grid size={{ xs: 12, md: 9 }}>
          <Stack sx={{ gap: 2 }}>
            <NetworkInfoPanel network={network} state={state} />
            <Tabs value={tab} aria-label="Network sections" variant="scrollable" allowScrollButtonsMobile>
              <Tab
                value="recently_called"
                label="Recently called"
                component={RouterLink}
                to={`/${network}/recently_called`}
              />
              <Tab
                value="constants"
                label="Global constants"
                component={RouterLink}
                to={`/${network}/constants`}
              />
              {stats ? (
                <Tab value="stats" label="Statistics" component={RouterLink} to={`/${network}/stats`} />
              ) : null}
            </Tabs>
            {tab === 'recently_called' ? (
              <RecentlyCalledTable
                key={network}
                network={network}
                pageSize={NETWORK_TABLE_ROWS}
                aliasMax={ALIAS_MAX_TABLE}
                label={`Recently called contracts on ${network}`}
              />
            ) : null}
            {tab === 'constants' ? <GlobalConstantsTab key={network} network={network} /> : null}
            {tab === 'stats' ? (
              <Suspense fallback={<LoadingBlock height={320} label="Loading charts" />}>
                <StatsCharts key={network} network={network} />
              </Suspense>
            ) : null}
          </Stack>
        </Grid>
      </Grid>
    </Stack>
  );
}

export const RecentlyCalledScreen = () => <NetworkPage tab="recently_called" />;
export const NetworkConstantsScreen = () => <NetworkPage tab="constants" />;
export const NetworkStatsScreen = () => <NetworkPage tab="stats" />;
