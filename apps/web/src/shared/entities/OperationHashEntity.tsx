import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { CopyButton } from '../clipboard/CopyButton';
import { isOperationHash } from '../chain/patterns';
import { shorten } from '../format/format';

interface Props {
  network: string;
  hash: string;
  full?: boolean;
  copy?: boolean;
}

/** An operation-group hash: shortened link to its page, full hash as tooltip, optional copy. */
export function OperationHashEntity({ network, hash, full = false, copy = false }: Props) {
  const label = full ? hash : shorten(hash, 8, 6);
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
      {isOperationHash(hash) ? (
        <Link
          component={RouterLink}
          to={`/${network}/opg/${hash}/contents`}
          underline="hover"
          title={hash}
          sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
        >
          {label}
        </Link>
      ) : (
        <Box component="span" sx={{ fontFamily: 'monospace' }} title={hash}>
          {label}
        </Box>
      )}
      {copy && hash ? <CopyButton text={hash} label="Copy hash" /> : null}
    </Box>
  );
}
