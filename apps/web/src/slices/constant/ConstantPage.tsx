import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { globalConstantQuery } from '../../api/queries';
import { useCopy } from '../../shared/clipboard/useCopy';
import { formatNumber, formatTime, shorten } from '../../shared/format/format';
import { RawJsonDialog } from '../../shared/json/RawJsonDialog';
import { ErrorState } from '../../shared/ui/ErrorState';
import { ReferencedContracts } from './ReferencedContracts';

/** A global constant: its Michelson code, its info and the contracts that reference it. */
export function ConstantPage() {
  const { network = '', address = '' } = useParams();
  const copy = useCopy();
  const [raw, setRaw] = useState(false);
  const query = useQuery(globalConstantQuery(network, address));
  const constant = query.data;

  if (query.isError) return <ErrorState detail={query.error.message} />;
  const info: [string, string | undefined][] = [
    ['Address', constant?.address],
    ['Timestamp', constant && formatTime(constant.timestamp)],
    ['Level', constant && formatNumber(constant.level)],
  ];

  return (
    <Stack sx={{ py: 3, gap: 2 }}>
      <title>{`Global constant ${shorten(address)} · Michelscope`}</title>
      <Breadcrumbs aria-label="Breadcrumb">
        <Link component={RouterLink} to="/" underline="hover" color="inherit">
          Home
        </Link>
        <Link component={RouterLink} to={`/${network}/constants`} underline="hover" color="inherit">
          {network}
        </Link>
        <Typography color="text.primary" aria-current="page">
          {shorten(address)}
        </Typography>
      </Breadcrumbs>
      <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere' }}>
        Global constant
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 8 }}>
          <Paper variant="outlined" component="section" aria-labelledby="code-title">
            <Stack direction="row" sx={{ alignItems: 'center', px: 2, py: 1, gap: 1, flexWrap: 'wrap' }}>
              <Typography id="code-title" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
                Code
              </Typography>
              <Button
                size="small"
                disabled={!constant}
                onClick={() => constant && void copy(constant.code ?? '')}
              >
                Copy
              </Button>
              <Button size="small" disabled={!constant} onClick={() => setRaw(true)}>
                Raw JSON
              </Button>
            </Stack>
            {constant ? (
              <Box
                component="pre"
                tabIndex={0}
                aria-label="Michelson code"
                sx={{
                  m: 0,
                  p: 2,
                  fontFamily: 'monospace',
                  fontSize: 13,
                  overflowX: 'auto',
                  maxHeight: 600,
                  borderTop: 1,
                  borderColor: 'divider',
                }}
              >
                {constant.code || '—'}
              </Box>
            ) : (
              <Skeleton variant="rectangular" height={240} />
            )}
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <Paper variant="outlined" component="section" aria-labelledby="constant-info-title" sx={{ p: 2 }}>
            <Typography id="constant-info-title" variant="h6" component="h2" gutterBottom>
              Info
            </Typography>
            <Box component="dl" sx={{ m: 0 }}>
              {info.map(([label, value]) => (
                <Box key={label} sx={{ mb: 1 }}>
                  <Typography component="dt" variant="caption" color="text.secondary">
                    {label}
                  </Typography>
                  <Typography
                    component="dd"
                    variant="body2"
                    sx={{ m: 0, fontFamily: 'monospace', overflowWrap: 'anywhere' }}
                  >
                    {value ?? <Skeleton />}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Paper>
        </Grid>
        <Grid size={12}>
          <ReferencedContracts network={network} address={address} />
        </Grid>
      </Grid>
      <RawJsonDialog
        open={raw}
        onClose={() => setRaw(false)}
        title={`Global constant ${shorten(address)}`}
        value={constant?.value}
      />
    </Stack>
  );
}
