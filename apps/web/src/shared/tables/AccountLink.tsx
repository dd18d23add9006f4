import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useAlias } from '../../features/aliases/useAlias';
import { shorten, truncate } from '../format/format';

interface Props {
  network: string;
  address: string;
  /** Alias sent by the API, if any; otherwise looked up (cache, then search service). */
  alias?: string | null;
  /** Alias cut length: 24 in tables, 20 on home. */
  aliasMax: number;
}

/** A link to an account's page: the alias (cut) when known, with the short address under it. */
export function AccountLink({ network, address, alias, aliasMax }: Props) {
  const name = useAlias(network, address, alias);
  const to = `/${network}/${address}/operations`;
  return (
    <Stack sx={{ minWidth: 0 }}>
      <Link
        component={RouterLink}
        to={to}
        underline="hover"
        sx={{ fontFamily: name ? undefined : 'monospace', overflowWrap: 'anywhere' }}
        title={address}
      >
        {name ? truncate(name, aliasMax) : shorten(address, 8, 6)}
      </Link>
      {name ? (
        <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
          {shorten(address, 8, 6)}
        </Typography>
      ) : null}
    </Stack>
  );
}
