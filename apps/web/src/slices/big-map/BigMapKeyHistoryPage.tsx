import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BIG_MAP_PAGE_SIZE, bigMapKeyHistoryQuery } from '../../api/bigmap-api';
import { EXPORTS } from '../../api/export-requests';
import { ExportButton } from '../../shared/export/ExportButton';
import { formatNumber, formatTime } from '../../shared/format/format';
import { MiguelTree } from '../../shared/micheline/MiguelTree';
import { EmptyState } from '../../shared/ui/EmptyState';
import { ContractFrame } from '../contract/ContractFrame';
import { BigMapSidebar } from './BigMapSidebar';

function History({
  network,
  address,
  ptr,
  keyHash,
}: {
  network: string;
  address: string;
  ptr: number;
  keyHash: string;
}) {
  const [page, setPage] = useState(1);
  const query = useQuery({
    ...bigMapKeyHistoryQuery(network, ptr, keyHash, (page - 1) * BIG_MAP_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  // 204 (a key without diffs) is null: nothing found
  const data = query.data;
  const values = data?.values ?? [];
  return (
    <Stack spacing={1}>
      <Button
        component={RouterLink}
        to={`/${network}/${address}/storage/big_map/${ptr}/keys`}
        sx={{ alignSelf: 'flex-start' }}
      >
        Back to keys
      </Button>
      <Typography variant="h6" component="h2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
        {keyHash}
      </Typography>
      {data?.key ? <MiguelTree roots={[data.key]} label="Key" network={network} address={address} /> : null}
      {data ? (
        <ExportButton
          what="key history"
          request={(format) => EXPORTS.bigMapKeyHistory({ network, ptr, keyHash }, format)}
          total={data.total}
        />
      ) : null}
      {query.isPending ? <LinearProgress aria-label="Loading history" /> : null}
      {query.isSuccess && values.length === 0 ? <EmptyState title="Nothing found" /> : null}
      <Box component="ol" aria-label="Key history" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {values.map((v, i) => (
          <Paper component="li" variant="outlined" key={`${v.level}-${i}`} sx={{ p: 1.5, mb: 1 }}>
            <Typography variant="body2" color="text.secondary">
              Level {formatNumber(v.level)} · {formatTime(v.timestamp)}
            </Typography>
            {v.value ? (
              <MiguelTree
                roots={[v.value]}
                label={`Value at level ${v.level}`}
                network={network}
                address={address}
              />
            ) : (
              <Typography color="error.main">Removed</Typography>
            )}
          </Paper>
        ))}
      </Box>
      {data && data.total > BIG_MAP_PAGE_SIZE ? (
        <Pagination
          count={Math.ceil(data.total / BIG_MAP_PAGE_SIZE)}
          page={page}
          onChange={(_, p) => setPage(p)}
          sx={{ alignSelf: 'center' }}
        />
      ) : null}
    </Stack>
  );
}

/** /{network}/{address}/storage/big_map/{ptr}/{keyhash} */
export function BigMapKeyHistoryPage() {
  const { ptr = '0', keyhash = '' } = useParams();
  const pointer = Number(ptr);
  return (
    <ContractFrame tab="storage">
      {({ network, address }) => (
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 8 }}>
            <History network={network} address={address} ptr={pointer} keyHash={keyhash} />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <BigMapSidebar network={network} address={address} ptr={pointer} />
          </Grid>
        </Grid>
      )}
    </ContractFrame>
  );
}
