import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TicketUpdate } from '../../api/contract-types';
import { formatNumber, formatTime } from '../format/format';
import { AddressEntity } from './AddressEntity';
import { OperationHashEntity } from './OperationHashEntity';

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
