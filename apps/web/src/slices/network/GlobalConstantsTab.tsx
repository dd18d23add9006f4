import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { globalConstantsQuery } from '../../api/queries';
import { formatNumber, formatTime, shorten } from '../../shared/format/format';
import { ServerPagination } from '../../shared/tables/ServerPagination';
import { ListStateRows } from '../../shared/tables/ListStateRows';

export const GLOBAL_CONSTANTS_PAGE = 10;
export const NO_GLOBAL_CONSTANTS = 'No global constants found';

/** The global constants registered on a network, 10 per page, most used first. */
export function GlobalConstantsTab({ network }: { network: string }) {
  const [page, setPage] = useState(0);
  const query = useQuery({
    ...globalConstantsQuery(network, GLOBAL_CONSTANTS_PAGE, page * GLOBAL_CONSTANTS_PAGE),
    placeholderData: keepPreviousData,
  });
  const rows = query.data ?? [];
  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table size="small" aria-label={`Global constants on ${network}`}>
          <TableHead>
            <TableRow>
              <TableCell>Address</TableCell>
              <TableCell>Timestamp</TableCell>
              <TableCell align="right">Level</TableCell>
              <TableCell align="right">Links</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            <ListStateRows
              pending={query.isPending}
              error={query.isError}
              empty={rows.length === 0}
              columns={4}
              emptyText={NO_GLOBAL_CONSTANTS}
            />
            {rows.map((row) => (
              <TableRow key={row.address} hover>
                <TableCell>
                  <Link
                    component={RouterLink}
                    to={`/constant/${network}/${row.address}`}
                    sx={{ fontFamily: 'monospace' }}
                    title={row.address}
                  >
                    {shorten(row.address, 10, 6)}
                  </Link>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTime(row.timestamp)}</TableCell>
                <TableCell align="right">{formatNumber(row.level)}</TableCell>
                <TableCell align="right">{formatNumber(row.links_count)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ServerPagination
        page={page}
        pageSize={GLOBAL_CONSTANTS_PAGE}
        rows={rows.length}
        onPageChange={setPage}
      />
    </Paper>
  );
}
