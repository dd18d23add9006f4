import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { recentlyCalledQuery } from '../../api/queries';
import { EXPORTS } from '../../api/export-requests';
import { ExportButton } from '../export/ExportButton';
import { formatCompact, formatTime } from '../format/format';
import { AccountLink } from './AccountLink';
import { ServerPagination } from './ServerPagination';
import { ListStateRows } from './ListStateRows';

export const NO_CALLED_CONTRACTS = 'No called contracts found';

interface Props {
  network: string;
  /** 3 on home, 10 on the network page. */
  pageSize: number;
  /** 20 on home, 24 in the network tab. */
  aliasMax: number;
  label: string;
}

/**
 * Contracts of a network ordered by last call, paged by the server. Render it with `key={network}`: a new
 * network starts again at page 1.
 */
export function RecentlyCalledTable({ network, pageSize, aliasMax, label }: Props) {
  const [page, setPage] = useState(0);
  const query = useQuery({
    ...recentlyCalledQuery(network, pageSize, page * pageSize),
    placeholderData: keepPreviousData,
  });
  const rows = query.data ?? [];
  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table
          size="small"
          aria-label={label}
          aria-busy={query.isFetching}
          // narrower cell padding on a phone leaves the contract column room for its name
          sx={{ '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } }}
        >
          <TableHead>
            <TableRow>
              <TableCell>Contract</TableCell>
              <TableCell align="right">Operations</TableCell>
              <TableCell align="right">Last action</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            <ListStateRows
              pending={query.isPending}
              error={query.isError}
              empty={rows.length === 0}
              columns={3}
              emptyText={NO_CALLED_CONTRACTS}
              skeletonRows={pageSize}
            />
            {rows.map((row) => (
              <TableRow key={row.address} hover>
                <TableCell>
                  <AccountLink network={network} address={row.address} aliasMax={aliasMax} />
                </TableCell>
                <TableCell align="right" title={String(row.operations_count)}>
                  {formatCompact(row.operations_count)}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatTime(row.last_action)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ServerPagination page={page} pageSize={pageSize} rows={rows.length} onPageChange={setPage} />
      {rows.length > 0 ? (
        <Box sx={{ px: { xs: 1, sm: 2 }, pb: 1 }}>
          <ExportButton
            what="recently called contracts"
            request={(format) => EXPORTS.recentlyCalled({ network }, format)}
          />
        </Box>
      ) : null}
    </Paper>
  );
}
