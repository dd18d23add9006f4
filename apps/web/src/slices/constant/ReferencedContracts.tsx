import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { constantContractsQuery } from '../../api/queries';
import { ALIAS_MAX_TABLE, formatTime } from '../../shared/format/format';
import { AccountLink } from '../../shared/tables/AccountLink';
import { ServerPagination } from '../../shared/tables/ServerPagination';
import { ListStateRows } from '../../shared/tables/ListStateRows';

export const REFERENCES_PAGE = 10;
export const NO_REFERENCES = 'There are no references to this constant';

/** Contracts whose code uses the constant, 10 per page. */
export function ReferencedContracts({ network, address }: { network: string; address: string }) {
  const [page, setPage] = useState(0);
  const query = useQuery({
    ...constantContractsQuery(network, address, REFERENCES_PAGE, page * REFERENCES_PAGE),
    placeholderData: keepPreviousData,
  });
  const rows = query.data ?? [];
  return (
    <Paper variant="outlined" component="section" aria-labelledby="references-title">
      <Typography id="references-title" variant="h6" component="h2" sx={{ px: 2, pt: 2 }}>
        Referenced contracts
      </Typography>
      <TableContainer>
        <Table size="small" aria-labelledby="references-title">
          <TableHead>
            <TableRow>
              <TableCell>Contract</TableCell>
              <TableCell align="right">Last action</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            <ListStateRows
              pending={query.isPending}
              error={query.isError}
              empty={rows.length === 0}
              columns={2}
              emptyText={NO_REFERENCES}
            />
            {rows.map((c) => (
              <TableRow key={c.address} hover>
                <TableCell>
                  <AccountLink
                    network={c.network || network}
                    address={c.address}
                    aliasMax={ALIAS_MAX_TABLE}
                  />
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatTime(c.last_action ?? c.timestamp)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ServerPagination page={page} pageSize={REFERENCES_PAGE} rows={rows.length} onPageChange={setPage} />
    </Paper>
  );
}
