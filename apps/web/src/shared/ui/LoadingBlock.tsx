import Skeleton from '@mui/material/Skeleton';

/**
 * A placeholder block for a part of a page whose data is on its way, named for assistive technology
 * (an indeterminate progress bar: a bare skeleton is a generic span, which may not carry a name).
 */
export function LoadingBlock({ label, height }: { label: string; height: number }) {
  return <Skeleton variant="rounded" height={height} role="progressbar" aria-label={label} />;
}
