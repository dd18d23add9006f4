import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Skeleton from '@mui/material/Skeleton';
import { PageSkeleton } from '../../shared/ui/PageSkeleton';

/** What shows while the configuration loads: the header's outline and a page skeleton. */
export function BootSkeleton() {
  return (
    <Box>
      <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Container maxWidth="xl" sx={{ display: 'flex', alignItems: 'center', gap: 2, height: 64 }}>
          <Skeleton variant="text" width={140} height={36} />
          <Skeleton variant="text" width={240} height={36} sx={{ display: { xs: 'none', md: 'block' } }} />
        </Container>
      </Box>
      <Container maxWidth="xl">
        <PageSkeleton />
      </Container>
    </Box>
  );
}
