import { Link as RouterLink } from 'react-router';
import Chip from '@mui/material/Chip';
import VerifiedIcon from '@mui/icons-material/Verified';

/**
 * 'Verified' (issue 38): the contract's script has a verified source. On the contract page it links to the
 * Source tab; on a search card it is a plain mark.
 */
export function VerifiedBadge({ to }: { to?: string }) {
  const common = {
    size: 'small',
    color: 'success',
    variant: 'outlined',
    icon: <VerifiedIcon />,
    label: 'Verified',
    'aria-label': 'Verified source',
  } as const;
  return to ? (
    <Chip {...common} component={RouterLink} to={to} clickable title="Verified source code" />
  ) : (
    <Chip {...common} title="Verified source code" role="img" />
  );
}
