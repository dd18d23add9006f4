import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { accountInfoQuery } from '../../api/account-api';
import { useAlias } from '../../features/aliases/useAlias';
import { isAddress } from '../chain/patterns';
import { useCopy } from '../clipboard/useCopy';
import { formatNumber, formatTez, formatTime } from '../format/format';
import { AddressEntity } from './AddressEntity';

const TYPE_LABELS: Record<string, string> = {
  contract: 'Contract',
  account: 'Account',
  rollup: 'Rollup',
  smart_rollup: 'Smart rollup',
};

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="caption" color="text.secondary">
        {term}
      </Typography>
      <Typography component="dd" sx={{ m: 0, mb: 1, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </>
  );
}

function AccountDialog({
  network,
  address,
  title,
  onClose,
}: {
  network: string;
  address: string;
  title: string;
  onClose: () => void;
}) {
  const info = useQuery({ ...accountInfoQuery(network, address), meta: { silent: true } });
  const alias = useAlias(network, address, null);
  const copy = useCopy();
  const path = `/${network}/${address}/operations`;
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="account-box-title">
      <DialogTitle id="account-box-title">{title}</DialogTitle>
      <DialogContent dividers>
        {info.isPending ? <LinearProgress aria-label="Loading account" /> : null}
        <Box component="dl" sx={{ m: 0 }}>
          {alias ? <Row term="Alias">{alias}</Row> : null}
          <Row term="Address">
            <Box component="span" sx={{ fontFamily: 'monospace' }}>
              {address}
            </Box>
          </Row>
          {info.data ? (
            <>
              <Row term="Type">{TYPE_LABELS[info.data.account_type] ?? info.data.account_type}</Row>
              <Row term="Balance">{formatTez(info.data.balance)}</Row>
              <Row term="Operations">{formatNumber(info.data.operations_count)}</Row>
              {info.data.last_action ? (
                <Row term="Last active">{formatTime(info.data.last_action)}</Row>
              ) : null}
            </>
          ) : null}
        </Box>
        {info.isError ? (
          <Typography color="text.secondary">Account details are not available.</Typography>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void copy(address)}>Copy address</Button>
        <Button component="a" href={path} target="_blank" rel="noopener noreferrer">
          Open in new tab
        </Button>
        <Button component={RouterLink} to={path} variant="contained" onClick={onClose}>
          View
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The account box: the account as an AddressEntity plus an info button that opens a dialog with alias,
 * address, type, balance, operation count and last activity, and Copy / Open in new tab / View actions.
 */
export function AccountBox({
  network,
  address,
  title,
  alias,
}: {
  network: string;
  address: string;
  title: string;
  alias?: string | null;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.25, minWidth: 0 }}>
      <AddressEntity network={network} address={address} alias={alias} copy />
      {isAddress(address) ? (
        <IconButton size="small" aria-label={`${title} details`} onClick={() => setOpen(true)}>
          <InfoOutlinedIcon fontSize="inherit" />
        </IconButton>
      ) : null}
      {open ? (
        <AccountDialog network={network} address={address} title={title} onClose={() => setOpen(false)} />
      ) : null}
    </Box>
  );
}
