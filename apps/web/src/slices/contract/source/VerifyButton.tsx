/**
 * 'Verify source' (issue 38): the Code tab's button (and the Source tab's 'Verify again' link) opening the
 * verify form, which loads as a chunk of its own at the first click.
 */
import { lazy, Suspense, useState } from 'react';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';

const VerifyDialog = lazy(() => import('./VerifyDialog'));

export function VerifyButton({
  network,
  address,
  variant = 'button',
}: {
  network: string;
  address: string;
  /** `link`: the Source tab's 'Verify again'. */
  variant?: 'button' | 'link';
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {variant === 'link' ? (
        <Link component="button" type="button" variant="body2" onClick={() => setOpen(true)}>
          Verify again
        </Link>
      ) : (
        <Button size="small" variant="outlined" onClick={() => setOpen(true)}>
          Verify source
        </Button>
      )}
      {open ? (
        <Suspense fallback={null}>
          <VerifyDialog network={network} address={address} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
