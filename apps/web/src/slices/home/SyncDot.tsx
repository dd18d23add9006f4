import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { syncDotLabel, type SyncStatus } from './sync-status';

const SIZE = 10;

/** A small dot: green when the network is synced, grey when not; a pulsing skeleton while loading. */
export function SyncDot({ network, status }: { network: string; status: SyncStatus }) {
  const label = syncDotLabel(network, status);
  if (status === 'loading') {
    return <Skeleton role="img" aria-label={label} variant="circular" width={SIZE} height={SIZE} />;
  }
  return (
    <Box
      role="img"
      aria-label={label}
      title={status === 'synced' ? 'Synced' : 'Not synced'}
      data-status={status}
      sx={{
        width: SIZE,
        height: SIZE,
        borderRadius: '50%',
        flexShrink: 0,
        bgcolor: status === 'synced' ? 'success.main' : 'action.disabled',
      }}
    />
  );
}
