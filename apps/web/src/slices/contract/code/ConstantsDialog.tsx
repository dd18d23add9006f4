import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { CONSTANTS_PAGE_SIZE, contractConstantsQuery } from '../../../api/contract-api';
import { formatNumber } from '../../../shared/format/format';

interface Props {
  network: string;
  address: string;
  open: boolean;
  onClose: () => void;
}

/** 'USING CONSTANTS': the global constants the code references, 7 per page; each opens in a new tab. */
export function ConstantsDialog({ network, address, open, onClose }: Props) {
  const [page, setPage] = useState(0);
  const query = useQuery({
    ...contractConstantsQuery(network, address, page * CONSTANTS_PAGE_SIZE),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const rows = query.data ?? [];
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="constants-title">
      <DialogTitle id="constants-title">Using constants</DialogTitle>
      <DialogContent dividers>
        {query.isFetching ? <LinearProgress aria-label="Loading constants" /> : null}
        {query.isSuccess && rows.length === 0 ? <Typography>Nothing found</Typography> : null}
        <List dense aria-label="Global constants">
          {rows.map((c) => (
            <ListItem key={c.address} disablePadding>
              <ListItemButton
                component="a"
                href={`/constant/${encodeURIComponent(network)}/${encodeURIComponent(c.address)}`}
                target="_blank"
                rel="noopener noreferrer"
              >
                <ListItemText
                  primary={c.address}
                  secondary={c.level > 0 ? `Level ${formatNumber(c.level)}` : null}
                  slotProps={{ primary: { sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' } } }}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Typography variant="body2" sx={{ mr: 'auto', pl: 1 }}>
          Page {page + 1}
        </Typography>
        <Button disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
          Previous
        </Button>
        <Button disabled={rows.length < CONSTANTS_PAGE_SIZE} onClick={() => setPage((p) => p + 1)}>
          Next
        </Button>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
