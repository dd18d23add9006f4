import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LIST_PAGE_SIZE, migrationsQuery, sameContractsQuery } from '../../api/contract-api';
import { EXPORTS } from '../../api/export-requests';
import { AddressEntity } from '../../shared/entities/AddressEntity';
import { ExportButton } from '../../shared/export/ExportButton';
import { capitalise } from '../../shared/entities/explorer-links';
import { formatNumber, formatTime } from '../../shared/format/format';
import { ContractFrame } from './ContractFrame';
import type { ContractPageData } from './useContractPage';

/** Migration kind labels (workspace spec §2 "Details tab"). */
export const MIGRATION_LABELS: Record<string, string> = {
  bootstrap: 'Vesting contract',
  lambda: 'Potential change in logic',
  update: 'Code was altered',
};

function SameContracts({ network, address }: { network: string; address: string }) {
  const [page, setPage] = useState(1);
  const query = useQuery(sameContractsQuery(network, address, (page - 1) * LIST_PAGE_SIZE));
  const data = query.data;
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, overflowX: 'auto' }}
      component="section"
      aria-labelledby="same-title"
    >
      <Stack direction="row" sx={{ gap: 1, alignItems: 'flex-start', flexWrap: 'wrap', mb: 1 }}>
        <Typography id="same-title" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          Same contracts
        </Typography>
        {data && data.count > 0 ? (
          <ExportButton
            what="same contracts"
            request={(format) => EXPORTS.sameContracts({ network, address }, format)}
            total={data.count}
          />
        ) : null}
      </Stack>
      {data && data.contracts.length === 0 ? (
        <Typography color="text.secondary">Nothing found</Typography>
      ) : (
        <Table size="small" aria-labelledby="same-title">
          <TableHead>
            <TableRow>
              <TableCell>Contract</TableCell>
              <TableCell>Network</TableCell>
              <TableCell>Last active</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(data?.contracts ?? []).map((c) => (
              <TableRow key={`${c.network}-${c.address}`}>
                <TableCell>
                  <AddressEntity network={c.network} address={c.address} />
                </TableCell>
                <TableCell>{capitalise(c.network)}</TableCell>
                <TableCell>{c.last_action ? formatTime(c.last_action) : '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {data && data.count > LIST_PAGE_SIZE ? (
        <Pagination
          count={Math.ceil(data.count / LIST_PAGE_SIZE)}
          page={page}
          onChange={(_, p) => setPage(p)}
          sx={{ mt: 1 }}
        />
      ) : null}
    </Paper>
  );
}

function Migrations({ network, address }: { network: string; address: string }) {
  const query = useQuery(migrationsQuery(network, address));
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, overflowX: 'auto' }}
      component="section"
      aria-labelledby="migrations-title"
    >
      <Stack direction="row" sx={{ gap: 1, alignItems: 'flex-start', flexWrap: 'wrap', mb: 1 }}>
        <Typography id="migrations-title" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          Migrations
        </Typography>
        {query.data && query.data.length > 0 ? (
          <ExportButton
            what="migrations"
            request={(format) => EXPORTS.migrations({ network, address }, format)}
            total={query.data.length}
          />
        ) : null}
      </Stack>
      {query.data && query.data.length === 0 ? (
        <Typography color="text.secondary">Nothing found</Typography>
      ) : (
        <Table size="small" aria-labelledby="migrations-title">
          <TableHead>
            <TableRow>
              <TableCell>Kind</TableCell>
              <TableCell>Level</TableCell>
              <TableCell>Date</TableCell>
              <TableCell>Protocol</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(query.data ?? []).map((m, i) => (
              <TableRow key={`${m.level}-${i}`}>
                <TableCell>{MIGRATION_LABELS[m.kind] ?? m.kind}</TableCell>
                <TableCell>{formatNumber(m.level)}</TableCell>
                <TableCell>{formatTime(m.timestamp)}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace', fontSize: 12 }}>
                  {m.prev_protocol ? `${m.prev_protocol.slice(0, 8)} → ` : ''}
                  {m.protocol.slice(0, 8)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}

export function DetailsTab({ data }: { data: ContractPageData }) {
  return (
    <Stack spacing={2}>
      <SameContracts network={data.network} address={data.address} />
      <Migrations network={data.network} address={data.address} />
    </Stack>
  );
}

/** /{network}/{address}/details */
export function DetailsPage() {
  return <ContractFrame tab="details">{(data) => <DetailsTab data={data} />}</ContractFrame>;
}
