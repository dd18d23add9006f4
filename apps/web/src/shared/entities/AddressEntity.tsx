import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useAlias } from '../../features/aliases/useAlias';
import { CopyButton } from '../clipboard/CopyButton';
import { truncate } from '../format/format';
import { isAddress } from '../chain/patterns';
import { shortAddress } from './explorer-links';

interface Props {
  network: string;
  address: string;
  /** Alias given by the API; otherwise looked up (cache, then search service). */
  alias?: string | null | undefined;
  /** Alias cut (24 in tables). */
  aliasMax?: number;
  /** Show the full address instead of the shortened one. */
  full?: boolean;
  copy?: boolean;
  /** Render as text (no link), e.g. for the page's own address. */
  noLink?: boolean;
}

/**
 * The one way to show an account, contract or rollup: alias (cut) or shortened address, linking to its
 * operations page, the full address as a tooltip, and an optional copy button. Invalid addresses are
 * shown as plain text and never linked.
 */
export function AddressEntity({
  network,
  address,
  alias,
  aliasMax = 24,
  full = false,
  copy = false,
  noLink,
}: Props) {
  const name = useAlias(network, address, alias);
  const valid = isAddress(address);
  const label = name ? truncate(name, aliasMax) : full ? address : shortAddress(address);
  const sx = { fontFamily: name ? undefined : 'monospace', overflowWrap: 'anywhere' as const };
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
      {valid && !noLink ? (
        <Link
          component={RouterLink}
          to={`/${network}/${address}/operations`}
          underline="hover"
          title={address}
          sx={sx}
        >
          {label}
        </Link>
      ) : (
        <Box component="span" title={address} sx={sx}>
          {label}
        </Box>
      )}
      {copy ? <CopyButton text={address} label="Copy address" /> : null}
    </Box>
  );
}
