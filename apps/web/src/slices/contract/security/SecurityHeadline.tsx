import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { securityQuery } from '../../../api/contract-api';

/**
 * The security summary's one line under the contract's header (issue 37), with a link to the Security tab.
 * It is asked for once the contract has answered (`ready`), so it never delays the page; while it loads it
 * keeps its room empty, and a failure is a quiet note, never an error page.
 */
export function SecurityHeadline({
  network,
  address,
  ready,
  onSecurityTab,
}: {
  network: string;
  address: string;
  ready: boolean;
  onSecurityTab: boolean;
}) {
  const summary = useQuery({ ...securityQuery(network, address), enabled: ready });
  const to = `/${network}/${address}/security`;
  return (
    // Its room is held from the first paint (the summary comes after the page): one line, the link beside it,
    // or on a phone two lines, the link under it; a headline longer than its line ends with '…' (whole in its
    // title and on the Security tab), so that nothing below moves when it comes.
    <Box
      data-testid="security-headline"
      sx={{
        minHeight: { xs: 44, sm: 24 },
        mb: 1,
        display: 'flex',
        flexWrap: { xs: 'wrap', sm: 'nowrap' },
        alignItems: 'baseline',
        columnGap: 1,
      }}
    >
      {summary.isError ? (
        <Typography variant="body2" color="text.secondary">
          Security summary unavailable
        </Typography>
      ) : summary.data ? (
        <>
          <Typography
            variant="body2"
            noWrap
            title={`Security: ${summary.data.headline}`}
            sx={{ minWidth: 0, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
          >
            <Box component="span" sx={{ fontWeight: 500 }}>
              Security:
            </Box>{' '}
            {summary.data.headline}
          </Typography>
          {onSecurityTab ? null : (
            <Link component={RouterLink} to={to} variant="body2" underline="hover" sx={{ flex: 'none' }}>
              View the security summary
            </Link>
          )}
        </>
      ) : null}
    </Box>
  );
}
