import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { resourceQuery } from '../../api/resources';
import { bigMapDetailsQuery, bigMapHistoryQuery } from '../../api/bigmap-api';
import { formatNumber, formatTime } from '../../shared/format/format';
import { TypedefPanel } from '../../shared/micheline/TypedefPanel';
import { bigMapStatus, linkedPointer } from './big-map-logic';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ mb: 1.5 }}>
      <Typography component="dt" variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0 }}>
        {children}
      </Box>
    </Box>
  );
}

/** Total bytes of a big map from the node (pass-through); failures only show a dash. */
function useTotalBytes(network: string, ptr: number) {
  return useQuery({
    ...resourceQuery('bigMapTotalBytes', { network, ptr }),
    retry: false,
    meta: { silent: true },
    select: (body) => {
      const n = typeof body === 'string' || typeof body === 'number' ? Number(body) : NaN;
      return Number.isFinite(n) ? n : null;
    },
  });
}

/** Big map sidebar: status, total bytes, active / total keys, type and action history. */
export function BigMapSidebar({ network, address, ptr }: { network: string; address: string; ptr: number }) {
  const details = useQuery(bigMapDetailsQuery(network, ptr));
  const history = useQuery(bigMapHistoryQuery(network, ptr));
  const bytes = useTotalBytes(network, ptr);
  const actions = history.data ?? [];
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="aside" aria-label="Big map details">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Big Map {ptr}
      </Typography>
      <Box component="dl" sx={{ m: 0 }}>
        <Item label="Status">{history.data ? bigMapStatus(actions) : '…'}</Item>
        <Item label="Total size">{bytes.data == null ? '—' : `${formatNumber(bytes.data)} bytes`}</Item>
        <Item label="Active / total keys">
          {details.data
            ? `${formatNumber(details.data.active_keys)} / ${formatNumber(details.data.total_keys)}`
            : '—'}
        </Item>
      </Box>
      <TypedefPanel title="Type" typedef={details.data?.typedef ?? []} />
      <Typography variant="overline" component="h3">
        Actions
      </Typography>
      <Box component="ol" aria-label="Action history" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {actions.map((a, i) => {
          const other = linkedPointer(a, ptr);
          return (
            <Box component="li" key={i} sx={{ mb: 0.5, fontSize: 14 }}>
              {a.action}
              {other !== null ? (
                <>
                  {a.destination_ptr === other ? ' to ' : ' from '}
                  <Link component={RouterLink} to={`/${network}/${address}/storage/big_map/${other}/keys`}>
                    Big Map {other}
                  </Link>
                </>
              ) : null}{' '}
              <Typography component="span" variant="caption" color="text.secondary">
                level {formatNumber(a.level)} · {formatTime(a.timestamp)}
              </Typography>
            </Box>
          );
        })}
      </Box>
    </Paper>
  );
}
