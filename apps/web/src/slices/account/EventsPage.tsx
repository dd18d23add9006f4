import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { LIST_PAGE_SIZE, eventsQuery } from '../../api/contract-api';
import { EXPORTS } from '../../api/export-requests';
import { OperationHashEntity } from '../../shared/entities/OperationHashEntity';
import { ExportButton } from '../../shared/export/ExportButton';
import { formatNumber, formatTime } from '../../shared/format/format';
import { MiguelTree } from '../../shared/micheline/MiguelTree';
import { EmptyState } from '../../shared/ui/EmptyState';
import { ContractFrame } from '../contract/ContractFrame';
import type { ContractPageData } from '../contract/useContractPage';

function EventsTab({ data }: { data: ContractPageData }) {
  const { network, address, account } = data;
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState(0);
  const query = useQuery(eventsQuery(network, address, (page - 1) * LIST_PAGE_SIZE));
  const events = query.data ?? [];
  const current = events[Math.min(selected, events.length - 1)];
  const total = account?.events_count ?? 0;
  if (query.isPending) return <LinearProgress aria-label="Loading events" />;
  if (events.length === 0) return query.isError ? null : <EmptyState title="Nothing found" />;
  return (
    <Grid container spacing={2}>
      <Grid size={12}>
        <ExportButton
          what="events"
          request={(format) => EXPORTS.events({ network, address }, format)}
          total={total || undefined}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <Paper variant="outlined">
          <List aria-label="Events">
            {events.map((e, i) => (
              <ListItem key={`${e.hash}-${i}`} disablePadding>
                <ListItemButton selected={e === current} onClick={() => setSelected(i)}>
                  <ListItemText
                    primary={e.tag || '(no tag)'}
                    secondary={`${formatNumber(e.level)} · ${formatTime(e.timestamp)}`}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Paper>
        {total > LIST_PAGE_SIZE ? (
          <Pagination
            count={Math.ceil(total / LIST_PAGE_SIZE)}
            page={page}
            onChange={(_, p) => {
              setPage(p);
              setSelected(0);
            }}
            sx={{ mt: 1 }}
          />
        ) : null}
      </Grid>
      <Grid size={{ xs: 12, md: 8 }}>
        {current ? (
          <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Event">
            <Typography variant="h6" component="h2">
              {current.tag || '(no tag)'}
            </Typography>
            <Box sx={{ mb: 1 }}>
              <OperationHashEntity network={network} hash={current.hash} copy />
            </Box>
            {current.payload?.length ? (
              <MiguelTree roots={current.payload} label="Payload" network={network} />
            ) : (
              <Typography color="text.secondary">No payload</Typography>
            )}
          </Paper>
        ) : null}
      </Grid>
    </Grid>
  );
}

/** /{network}/{address}/events */
export function EventsPage() {
  return <ContractFrame tab="events">{(data) => <EventsTab data={data} />}</ContractFrame>;
}
