import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';

/** Loading state of a page body: a title line and a few content blocks. */
export function PageSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading" role="status" sx={{ py: 3 }}>
      <Skeleton variant="text" width="40%" height={48} />
      <Stack spacing={2} sx={{ mt: 2 }}>
        <Skeleton variant="rounded" height={56} />
        <Skeleton variant="rounded" height={160} />
        <Skeleton variant="rounded" height={160} />
      </Stack>
    </Box>
  );
}
