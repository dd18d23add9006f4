import { useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { entrypointsQuery } from '../../../api/workspace-api';
import { EmptyState } from '../../../shared/ui/EmptyState';
import { BookmarkButton } from '../BookmarkButton';
import { ContractFrame } from '../ContractFrame';
import type { ContractPageData } from '../useContractPage';
import { entrypointLabel } from './call-logic';
import { EntrypointPanel } from './EntrypointPanel';
import { emptyWhatIf, type WhatIfState } from './whatif-state';
import { useOpenedShare } from './useOpenedShare';
import { LoadingBlock } from '../../../shared/ui/LoadingBlock';

/** /{network}/{address}/interact/{entrypoint?} */
export function InteractPage() {
  return <ContractFrame tab="interact">{(data) => <InteractTab data={data} />}</ContractFrame>;
}

const NO_NAME_PARAM = '';

function InteractTab({ data }: { data: ContractPageData }) {
  const { network, address } = data;
  const params = useParams();
  const navigate = useNavigate();
  const { search, hash } = useLocation();
  const entrypoints = useQuery(entrypointsQuery(network, address));
  const list = entrypoints.data ?? [];
  const selectedName = params.entrypoint ?? null;
  const selected = list.find((e) => e.name === (selectedName ?? NO_NAME_PARAM)) ?? null;
  const base = `/${network}/${address}/interact`;
  // a share link (#s=… or #share=…), read once when the tab opens; its simulation runs once
  const shared = useOpenedShare(hash, 'call');
  const [pendingShare, setPendingShare] = useState(true);
  const share = shared.state;
  const shareError =
    shared.error ??
    (share && (share.network !== network || share.address !== address)
      ? `it is a simulation of ${share.address} on ${share.network}`
      : share && entrypoints.data && !entrypoints.data.some((e) => e.name === share.entrypoint)
        ? `this contract has no entrypoint '${share.entrypoint.slice(0, 64)}'`
        : undefined);
  const runShare = pendingShare && share && !shareError ? share : undefined;
  // what-if overrides and bundle: one serialisable object, kept while the user moves between entrypoints
  const [whatIf, setWhatIf] = useState<WhatIfState>(() => shared.state?.what_if ?? emptyWhatIf());
  useEffect(() => {
    if (runShare) setWhatIf(runShare.what_if);
  }, [runShare]);
  // a link's entrypoint is the one opened
  useEffect(() => {
    if (runShare && selected && selected.name !== runShare.entrypoint)
      void navigate(`${base}/${encodeURIComponent(runShare.entrypoint)}${search}${hash}`, { replace: true });
  }, [runShare, selected, base, navigate, search, hash]);

  // The selected entrypoint lives in the URL; an unknown or missing one falls back to the first (replace),
  // keeping the query: a repeated call of `default` stored as `@entrypoint_0` still fills the form.
  useEffect(() => {
    if (!entrypoints.data || entrypoints.data.length === 0 || selected) return;
    void navigate(`${base}/${encodeURIComponent(entrypoints.data[0]!.name)}${search}`, { replace: true });
  }, [entrypoints.data, selected, base, navigate, search]);

  if (entrypoints.isPending || shared.pending)
    return <LoadingBlock height={240} label="Loading entrypoints" />;
  if (list.length === 0) return <EmptyState title="Nothing found" text="This contract has no entrypoints." />;

  return (
    <>
      {shareError ? (
        <Alert severity="error" sx={{ mb: 2 }} aria-label="Shared simulation">
          This shared simulation cannot be opened: {shareError}.
        </Alert>
      ) : null}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '280px 1fr' }, gap: 2 }}>
        <Paper variant="outlined">
          <List aria-label="Entrypoints" dense>
            {list.map((e) => (
              <ListItem
                key={e.name}
                disablePadding
                secondaryAction={
                  <BookmarkButton
                    network={network}
                    address={address}
                    entrypoint={e.name || 'default'}
                    defaultName={`${address} · ${entrypointLabel(e.name)}`}
                  />
                }
              >
                <ListItemButton
                  component={RouterLink}
                  to={`${base}/${encodeURIComponent(e.name)}`}
                  replace
                  selected={e === selected}
                  aria-current={e === selected ? 'page' : undefined}
                >
                  <ListItemText
                    primary={entrypointLabel(e.name)}
                    slotProps={{ primary: { sx: { fontFamily: 'monospace' } } }}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Paper>
        <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
          {selected ? (
            <EntrypointPanel
              key={selected.name}
              network={network}
              address={address}
              entrypoint={selected}
              whatIf={whatIf}
              onWhatIfChange={setWhatIf}
              opened={runShare?.entrypoint === selected.name ? runShare : undefined}
              onOpened={() => setPendingShare(false)}
            />
          ) : (
            <Typography color="text.secondary">Choose an entrypoint.</Typography>
          )}
        </Paper>
      </Box>
    </>
  );
}
