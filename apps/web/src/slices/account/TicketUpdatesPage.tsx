import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LIST_PAGE_SIZE, ticketUpdatesQuery } from '../../api/contract-api';
import type { TicketUpdate } from '../../api/contract-types';
import { AddressEntity } from '../../shared/entities/AddressEntity';
import { OperationHashEntity } from '../../shared/entities/OperationHashEntity';
import { formatNumber, formatTime } from '../../shared/format/format';
import { EmptyState } from '../../shared/ui/EmptyState';
import { ContractFrame } from '../contract/ContractFrame';
import type { ContractPageData } from '../contract/useContractPage';

/** One ticket update card: account, amount (signed delta), ticketer, level, time and operation. */
export function TicketUpdateCard({ network, update }: { network: string; update: TicketUpdate }) {
  const positive = !update.amount.startsWith('-');
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} component="li">
      <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <AddressEntity network={network} address={update.address} />
        <Typography color={positive ? 'success.main' : 'error.main'} sx={{ fontFamily: 'monospace' }}>
          {positive ? '+' : ''}
          {update.amount}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          ticketer <AddressEntity network={network} address={update.ticketer} />
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {formatNumber(update.level)} · {formatTime(update.timestamp)}
        </Typography>
        <OperationHashEntity network={network} hash={update.operation_hash} />
      </Stack>
    </Paper>
  );
}

function TicketUpdatesTab({ data }: { data: ContractPageData }) {
  const [page, setPage] = useState(1);
  const query = useQuery(ticketUpdatesQuery(data.network, data.address, (page - 1) * LIST_PAGE_SIZE));
  const total = data.account?.ticket_updates_count ?? 0;
  if (query.isPending) return <LinearProgress aria-label="Loading ticket updates" />;
  if (!query.data || query.data.length === 0)
    return query.isError ? null : <EmptyState title="Nothing found" />;
  return (
    <Stack spacing={1}>
      <Stack component="ol" spacing={1} aria-label="Ticket updates" sx={{ p: 0, m: 0, listStyle: 'none' }}>
        {query.data.map((u) => (
          <TicketUpdateCard key={u.id} network={data.network} update={u} />
        ))}
      </Stack>
      {total > LIST_PAGE_SIZE ? (
        <Pagination
          count={Math.ceil(total / LIST_PAGE_SIZE)}
          page={page}
          onChange={(_, p) => setPage(p)}
          sx={{ alignSelf: 'center' }}
        />
      ) : null}
    </Stack>
  );
}

/** /{network}/{address}/ticket_updates */
export function TicketUpdatesPage() {
  return <ContractFrame tab="ticket_updates">{(data) => <TicketUpdatesTab data={data} />}</ContractFrame>;
}
