import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import { LIST_PAGE_SIZE, ticketUpdatesQuery } from '../../api/contract-api';
import { EXPORTS } from '../../api/export-requests';
import { TicketUpdateCard } from '../../shared/entities/TicketUpdateCard';
import { ExportButton } from '../../shared/export/ExportButton';
import { EmptyState } from '../../shared/ui/EmptyState';
import { ContractFrame } from '../contract/ContractFrame';
import type { ContractPageData } from '../contract/useContractPage';

function TicketUpdatesTab({ data }: { data: ContractPageData }) {
  const [page, setPage] = useState(1);
  const query = useQuery(ticketUpdatesQuery(data.network, data.address, (page - 1) * LIST_PAGE_SIZE));
  const total = data.account?.ticket_updates_count ?? 0;
  if (query.isPending) return <LinearProgress aria-label="Loading ticket updates" />;
  if (!query.data || query.data.length === 0)
    return query.isError ? null : <EmptyState title="Nothing found" />;
  return (
    <Stack spacing={1}>
      <ExportButton
        what="ticket updates"
        request={(format) =>
          EXPORTS.accountTicketUpdates({ network: data.network, address: data.address }, format)
        }
        total={total || undefined}
      />
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
