import { Fragment, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DataObjectIcon from '@mui/icons-material/DataObject';
import { headQuery } from '../../api/queries';
import type { Block } from '@michelscope/api-types';
import { useAppConfig } from '../../shared/config/useAppConfig';
import { formatNumber } from '../../shared/format/format';
import { RawJsonDialog } from '../../shared/json/RawJsonDialog';
import { BackfillProgress } from './BackfillProgress';
import { failureLines, syncFacts, syncLabel } from './network-sync';
import { fetchRawJson } from './raw-json-source';

const DASH = '—';

/**
 * The eight fields of the Network Info panel, in order. A network with no indexed block yet (level 0: not
 * reached or not started) has dashes, not zeros.
 */
export function networkInfoFields(s: Block): [string, string][] {
  const indexed = s.level > 0;
  const n = (v: number, unit = '') => (indexed ? `${formatNumber(v)}${unit}` : DASH);
  return [
    ['Chain ID', s.chain_id || DASH],
    ['Protocol', s.protocol || DASH],
    ['Head Level', n(s.level)],
    ['Head Hash', s.hash || DASH],
    ['Hard Gas Limit per Operation', n(s.hard_gas_limit_per_operation)],
    ['Hard Storage Limit per Operation', n(s.hard_storage_limit_per_operation)],
    ['Time Between Blocks', n(s.time_between_blocks, ' s')],
    ['Cost per byte', n(s.cost_per_byte, ' mutez')],
  ];
}

export function NetworkInfoPanel({ network, state }: { network: string; state: Block | undefined }) {
  const [open, setOpen] = useState(false);
  const config = useAppConfig();
  const hasRpc = Boolean(config.rpc_endpoints[network]);
  const heads = useQuery(headQuery());
  const head = heads.data?.find((h) => h.network === network);
  const sync = syncLabel(state?.level, head);
  const facts = syncFacts(head);
  const failures = failureLines(head);
  const constants = useQuery({
    queryKey: ['raw_json', network, 'constants'] as const,
    queryFn: ({ signal }) => fetchRawJson(network, { type: 'constants' }, hasRpc, { signal }),
    enabled: open,
    retry: false,
    staleTime: 60_000,
  });
  return (
    <Paper variant="outlined" component="section" aria-labelledby="network-info-title" sx={{ p: 2 }}>
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}
      >
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
          <Typography id="network-info-title" variant="h6" component="h2" sx={{ whiteSpace: 'nowrap' }}>
            Network Info
          </Typography>
          {sync ? (
            <Chip
              size="small"
              variant="outlined"
              label={sync}
              color={
                sync === 'Synced'
                  ? 'success'
                  : sync === 'Syncing'
                    ? 'info'
                    : sync === 'Failed'
                      ? 'error'
                      : 'default'
              }
              aria-label={`${network} ${sync.toLowerCase()}`}
            />
          ) : null}
        </Stack>
        <Button startIcon={<DataObjectIcon />} onClick={() => setOpen(true)}>
          Constants
        </Button>
      </Stack>
      {failures.map((line) => (
        // a part that failed (issue 34): what and since when, above the sync line
        <Alert key={line} severity="error" role="status" data-testid="network-failure" sx={{ mb: 1 }}>
          {line}
        </Alert>
      ))}
      {facts.length > 0 ? (
        // the index against the node (GET /v1/head): not one of the eight fields, so not in their list
        <Typography variant="body2" color="text.secondary" data-testid="network-sync" sx={{ mb: 1.5 }}>
          {facts.map((fact, i) => (
            // a line breaks between the facts, not inside one
            <Fragment key={fact}>
              {i > 0 ? ' · ' : null}
              <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                {fact}
              </Box>
            </Fragment>
          ))}
        </Typography>
      ) : null}
      {head?.backfill ? <BackfillProgress summary={head.backfill} /> : null}
      <Stack
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: 'minmax(200px, auto) 1fr' },
          columnGap: 2,
          rowGap: 0.5,
        }}
      >
        {(state ? networkInfoFields(state) : networkInfoFields(EMPTY)).map(([label, value]) => (
          <Stack key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography
              component="dd"
              variant="body2"
              sx={{ m: 0, fontFamily: 'monospace', overflowWrap: 'anywhere', mb: { xs: 1, sm: 0 } }}
            >
              {state ? value : <Skeleton width="60%" />}
            </Typography>
          </Stack>
        ))}
      </Stack>
      <RawJsonDialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Constants of ${network}`}
        value={constants.data}
        loading={constants.isFetching}
        error={constants.error?.message ?? null}
      />
    </Paper>
  );
}

const EMPTY: Block = {
  network: '',
  hash: '',
  level: 0,
  chain_id: '',
  timestamp: '',
  protocol: '',
  cost_per_byte: 0,
  hard_gas_limit_per_operation: 0,
  hard_storage_limit_per_operation: 0,
  time_between_blocks: 0,
  predecessor: '',
};
