import { useQuery } from '@tanstack/react-query';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { headQuery } from '../../api/queries';
import { SyncDot } from './SyncDot';
import { syncStatusByNetwork } from './sync-status';

interface Props {
  networks: readonly string[];
  value: string;
  onChange: (network: string) => void;
}

/**
 * One toggle button per configured network, each with its sync dot; /v1/head is polled every 30 s.
 * A button's accessible name is its network name; the dot next to the name is an image named
 * "{network} synced" or "{network} unsynced".
 */
export function NetworkToggle({ networks, value, onChange }: Props) {
  const heads = useQuery(headQuery());
  const status = syncStatusByNetwork(networks, heads.data, heads.isError);

  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      color="primary"
      aria-label="Network"
      value={value}
      onChange={(_event, next: string | null) => {
        if (next !== null) onChange(next);
      }}
      sx={{ flexWrap: 'wrap' }}
    >
      {networks.map((network) => (
        <ToggleButton
          key={network}
          value={network}
          aria-label={network}
          sx={{ textTransform: 'none', px: 2 }}
        >
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
            <SyncDot network={network} status={status.get(network) ?? 'unsynced'} />
            <span>{network}</span>
          </Stack>
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
