import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useAppConfig } from '../../shared/config/useAppConfig';
import { chooseNetwork, useStartNetwork } from '../../shared/config/chosen-network';
import { ALIAS_MAX_HOME } from '../../shared/format/format';
import { RecentlyCalledTable } from '../../shared/tables/RecentlyCalledTable';
import { OUTLINED_SMALL_BUTTON } from '../../shared/ui/button-look';
import { HOME_TABLE_ROWS } from './home-table';
import { NetworkToggle } from './NetworkToggle';
import { SearchBox } from './SearchBox';
import { LoadingBlock } from '../../shared/ui/LoadingBlock';

export const FRAMEWORK_AD_URL = 'https://dipdup.io';

/** Home: title, search box, the framework line, and the recently called contracts of the chosen network. */
export function HomePage() {
  const config = useAppConfig();
  // the network chosen last, else the default one when synced, else the first synced one (see chosen-network)
  const start = useStartNetwork(config);
  const network = start.pending ? '' : (start.network ?? '');

  return (
    <Box sx={{ py: { xs: 3, sm: 6 } }}>
      <title>Michelscope · Tezos smart contract explorer</title>
      <Box sx={{ textAlign: 'center', mb: 4 }}>
        <Typography
          variant="h2"
          component="h1"
          sx={{ fontWeight: 700, fontSize: { xs: '2.5rem', sm: '3.75rem' } }}
        >
          Michelscope
        </Typography>
        <Typography variant="h6" component="p" color="text.secondary">
          Tezos smart contract explorer
        </Typography>
      </Box>

      <Box sx={{ maxWidth: 800, mx: 'auto', mb: 2 }}>
        <SearchBox />
        <Stack direction="row" sx={{ justifyContent: 'center', mt: 2, gap: 1, flexWrap: 'wrap' }}>
          <ButtonBase component={RouterLink} to="/search" focusRipple sx={OUTLINED_SMALL_BUTTON}>
            Advanced search
          </ButtonBase>
        </Stack>
      </Box>

      <Typography
        component="p"
        variant="body2"
        color="text.secondary"
        sx={{ textAlign: 'center', mb: 5, px: 2 }}
      >
        Building a dapp? Index your contracts with{' '}
        <Link href={FRAMEWORK_AD_URL} target="_blank" rel="noopener noreferrer">
          DipDup
        </Link>
        , the Python framework for selective Tezos indexers.
      </Typography>

      <Stack
        component="section"
        aria-labelledby="recently-called-title"
        sx={{ maxWidth: 1000, mx: 'auto', gap: 2 }}
      >
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          sx={{ justifyContent: 'space-between', alignItems: { xs: 'flex-start', md: 'center' }, gap: 2 }}
        >
          <Typography id="recently-called-title" variant="h5" component="h2">
            Recently called contracts
          </Typography>
          {config.networks.length > 0 ? (
            <NetworkToggle networks={config.networks} value={network} onChange={chooseNetwork} />
          ) : (
            <Typography color="text.secondary">No network is configured.</Typography>
          )}
        </Stack>
        {start.pending ? (
          <LoadingBlock height={240} label="Loading the networks" />
        ) : network ? (
          <RecentlyCalledTable
            key={network}
            network={network}
            pageSize={HOME_TABLE_ROWS}
            aliasMax={ALIAS_MAX_HOME}
            label={`Recently called contracts on ${network}`}
          />
        ) : null}
      </Stack>
    </Box>
  );
}

export default HomePage;
