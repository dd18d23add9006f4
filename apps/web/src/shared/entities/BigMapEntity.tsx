import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';

interface Props {
  network: string;
  /** Owning contract. */
  address: string;
  ptr: number;
  /** Optional suffix, e.g. "12 keys". */
  detail?: string | undefined;
}

/** A link to a big map's keys page, as an outlined accent button "Big Map <ptr>". */
export function BigMapEntity({ network, address, ptr, detail }: Props) {
  return (
    <Button
      component={RouterLink}
      to={`/${network}/${address}/storage/big_map/${ptr}/keys`}
      size="small"
      variant="outlined"
      color="secondary"
      sx={{ py: 0, textTransform: 'none', fontFamily: 'monospace' }}
    >
      Big Map {ptr}
      {detail ? ` · ${detail}` : ''}
    </Button>
  );
}
