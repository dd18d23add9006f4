import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** /not_found: the 404 page. Asks search engines not to index it while it is shown. */
export function NotFoundPage() {
  return (
    <Box sx={{ py: { xs: 6, sm: 12 }, textAlign: 'center' }}>
      <title>Page not found · Michelscope</title>
      <meta name="robots" content="noindex" />
      <Typography variant="h3" component="h1" gutterBottom>
        Error 404. Page not found.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ mt: 4, gap: 2, justifyContent: 'center' }}>
        <Button component={RouterLink} to="/" variant="contained">
          GO TO HOMEPAGE
        </Button>
        <Button component={RouterLink} to="/search" variant="outlined">
          ADVANCED SEARCH
        </Button>
      </Stack>
    </Box>
  );
}

export default NotFoundPage;
