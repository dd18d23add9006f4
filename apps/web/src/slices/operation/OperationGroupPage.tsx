import { useMemo, useState, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useParams, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { opgFlowQuery, opgQuery } from '../../api/opg-api';
import type { Operation } from '../../api/opg-types';
import { CopyButton } from '../../shared/clipboard/CopyButton';
import { AddressEntity } from '../../shared/entities/AddressEntity';
import { capitalise, externalExplorerUrl } from '../../shared/entities/explorer-links';
import { formatAbsolute, formatNumber, formatTez, parseTime, shorten } from '../../shared/format/format';
import { RawJsonDialog } from '../../shared/json/RawJsonDialog';
import { EmptyState } from '../../shared/ui/EmptyState';
import { PageSkeleton } from '../../shared/ui/PageSkeleton';
import { useLiveEvent, useLiveSubscription } from '../../shared/live/useLive';
import type { LiveEvents } from '@michelscope/api-types';
import { OperationCard, operationTitle } from './OperationCard';
import { debuggable, readDebugFragment } from './debug-link';
import { LazyFlowView } from './flow/LazyFlowView';

function SideItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box component="div" sx={{ mb: 1.5 }}>
      <Typography variant="caption" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0, overflowWrap: 'break-word' }}>
        {children}
      </Box>
    </Box>
  );
}

const OPG_HASH = /^o[1-9A-HJ-NP-Za-km-z]{50}$/;

/** Total cost of a group: fees plus burned, over all its operations. */
export function groupCost(ops: readonly Operation[]): number {
  return ops.reduce((sum, op) => sum + (op.fee ?? 0) + (op.burned ?? 0), 0);
}

/**
 * A group's operations in the order the node applied them: contents by their position in the group, each
 * followed by its internal operations in the order they were stored (id). The API answers `counter desc`
 * (reference §3.7), which lists a batch newest first.
 */
export function executionOrder(ops: readonly Operation[]): Operation[] {
  return ops
    .map((op, at) => ({ op, at }))
    .sort(
      (a, b) =>
        a.op.content_index - b.op.content_index ||
        Number(a.op.internal) - Number(b.op.internal) ||
        (a.op.id ?? 0) - (b.op.id ?? 0) ||
        a.at - b.at,
    )
    .map(({ op }) => op);
}

/**
 * The group's flow graph (issue 37): asked for, and its chunk loaded, only when the Flow view opens.
 */
function FlowPanel({ network, hash }: { network: string; hash: string }) {
  const flow = useQuery(opgFlowQuery(network, hash));
  if (flow.isPending) return <PageSkeleton />;
  if (flow.isError)
    return (
      <Alert severity="error" aria-label="Flow graph error">
        The flow graph could not be built: {flow.error.message}
      </Alert>
    );
  return <LazyFlowView graph={flow.data} network={network} />;
}

function CallStack({ ops }: { ops: readonly Operation[] }) {
  return (
    <Box component="ol" aria-label="Call stack" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {ops.map((op, i) => (
        <Box component="li" key={i} sx={{ pl: op.internal ? 2 : 0, mb: 0.5, fontSize: 13 }}>
          {op.source ? <AddressEntity network={op.network} address={op.source} /> : null}
          {' → '}
          {op.destination ? <AddressEntity network={op.network} address={op.destination} /> : null}{' '}
          <Typography component="span" variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            {operationTitle(op)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** The operation group page (workspace spec §2): breadcrumbs, actions, contents and sidebar. */
export function OperationGroupPage() {
  const { network = '', hash = '' } = useParams();
  const query = useQuery(opgQuery(network, hash));
  // a debugger link (#debug={operation}.{step}.{tab}), read once: that call's debugger opens there
  const location = useLocation();
  const [debugLink] = useState(() => readDebugFragment(location.hash));
  // live: a group not indexed yet is followed from the mempool until its block is indexed (api/live.ts)
  const [live, setLive] = useState<LiveEvents['operation'] | undefined>();
  useLiveSubscription(network, OPG_HASH.test(hash) ? { operation: hash } : null);
  useLiveEvent(network, 'operation', (e) => {
    if (e.hash === hash) setLive(e);
  });
  const [raw, setRaw] = useState(false);
  // the view: the operations' list (the default) or the flow graph (?view=flow)
  const [search] = useSearchParams();
  const view = search.get('view') === 'flow' ? 'flow' : 'operations';
  const external = externalExplorerUrl(network, hash);
  const ops = useMemo(() => executionOrder(query.data ?? []), [query.data]);
  const first = ops[0];
  const debugLinkError = !debugLink
    ? undefined
    : 'error' in debugLink
      ? debugLink.error
      : query.data && !ops.some((op) => op.id === debugLink.id && debuggable(op))
        ? `this group has no contract call ${debugLink.id} to debug`
        : undefined;

  return (
    <Box sx={{ py: 2 }}>
      <Breadcrumbs aria-label="Breadcrumbs" sx={{ mb: 1 }}>
        <Link component={RouterLink} to="/" underline="hover" color="inherit">
          Home
        </Link>
        <Link component={RouterLink} to={`/${network}/recently_called`} underline="hover" color="inherit">
          {capitalise(network)}
        </Link>
        <Typography color="text.primary" aria-current="page" sx={{ fontFamily: 'monospace' }}>
          {shorten(hash, 8, 6)}
        </Typography>
      </Breadcrumbs>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, mb: 2 }}>
        <Typography
          variant="h5"
          component="h1"
          sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', flexGrow: 1 }}
        >
          {hash}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <CopyButton text={hash} label="Copy hash" />
          <Button size="small" onClick={() => setRaw(true)} disabled={!query.data}>
            Raw JSON
          </Button>
          {external ? (
            <Button
              size="small"
              href={external}
              target="_blank"
              rel="noopener noreferrer"
              endIcon={<OpenInNewIcon />}
            >
              External explorer
            </Button>
          ) : null}
        </Stack>
      </Stack>
      {debugLinkError ? (
        <Alert severity="error" sx={{ mb: 2 }} aria-label="Shared simulation">
          This shared simulation cannot be opened: {debugLinkError}.
        </Alert>
      ) : null}
      {query.isPending ? (
        <PageSkeleton />
      ) : query.isError ? null : (ops.length === 0 || !first) && live?.status === 'pending' ? (
        <Paper variant="outlined" sx={{ p: 2 }} role="status" data-testid="opg-pending">
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
            <Chip size="small" variant="outlined" color="warning" label="pending" />
            <Typography variant="subtitle1" component="h2">
              In the mempool
            </Typography>
          </Stack>
          <Typography variant="body2" color="text.secondary">
            Waiting to be included in a block. This page shows the operations when they are.
          </Typography>
        </Paper>
      ) : ops.length === 0 || !first ? (
        <EmptyState
          title="Nothing found"
          text="Can't find operation group by hash. Maybe the operation you are looking for is not yet in the mempool"
        />
      ) : (
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 9 }}>
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
              Contents
            </Typography>
            <Tabs value={view} aria-label="Group views" sx={{ mb: 1, minHeight: 40 }}>
              <Tab
                value="operations"
                label="Operations"
                component={RouterLink}
                to={location.pathname}
                sx={{ minHeight: 40 }}
              />
              <Tab
                value="flow"
                label="Flow"
                component={RouterLink}
                to={`${location.pathname}?view=flow`}
                sx={{ minHeight: 40 }}
              />
            </Tabs>
            {view === 'flow' ? (
              <FlowPanel network={network} hash={hash} />
            ) : (
              <Stack spacing={1}>
                {ops.map((op, i) => (
                  <OperationCard
                    key={`${op.id ?? i}-${i}`}
                    op={op}
                    debugAt={debugLink && 'id' in debugLink && debugLink.id === op.id ? debugLink : undefined}
                  />
                ))}
              </Stack>
            )}
          </Grid>
          <Grid size={{ xs: 12, md: 3 }}>
            <Paper variant="outlined" sx={{ p: 2 }} component="aside" aria-label="Operation group details">
              <Box component="dl" sx={{ m: 0 }}>
                <SideItem label="Hash">
                  <Box component="span" sx={{ fontFamily: 'monospace', fontSize: 13 }}>
                    {hash}
                  </Box>
                </SideItem>
                <SideItem label="Network">{capitalise(network)}</SideItem>
                <SideItem label="Date">
                  {(() => {
                    const d = parseTime(first.timestamp);
                    return d ? formatAbsolute(d) : '—';
                  })()}
                </SideItem>
                <SideItem label="Level">
                  {first.mempool ? 'mempool' : formatNumber(first.level ?? 0)}
                </SideItem>
                <SideItem label="Total cost">{formatTez(groupCost(ops))}</SideItem>
                <SideItem label="Call stack">
                  <CallStack ops={ops} />
                </SideItem>
              </Box>
            </Paper>
          </Grid>
        </Grid>
      )}
      <RawJsonDialog open={raw} onClose={() => setRaw(false)} title="Raw JSON" value={query.data} />
    </Box>
  );
}
