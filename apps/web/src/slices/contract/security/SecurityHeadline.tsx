import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { securityQuery } from '../../../api/contract-api';

/**
 * The security summary's one line under the contract's header (issue 37), with a link to the Security tab.
 * It is asked for once the contract has answered (`ready`), so it never delays the page; while it loads it
 * keeps its line empty, and a failure is a quiet note, never an error page.
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
    <Box
      data-testid="security-headline"
      sx={{ minHeight: 24, mb: 1, display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1 }}
    >
      {summary.isError ? (
        <Typography variant="body2" color="text.secondary">
          Security summary unavailable
        </Typography>
      ) : summary.data ? (
        <>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            <Box component="span" sx={{ fontWeight: 500 }}>
              Security:
            </Box>{' '}
            {summary.data.headline}
          </Typography>
          {onSecurityTab ? null : (
            <Link component={RouterLink} to={to} variant="body2" underline="hover">
              View the security summary
            </Link>
          )}
        </>
      ) : null}
    </Box>
  );
}
