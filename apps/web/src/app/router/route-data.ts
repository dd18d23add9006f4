/**
 * The data each screen shows, started by its route loader together with the screen's code (the lazy chunk),
 * instead of after that code has loaded and rendered. Each entry calls `prefetchQuery` with the query
 * factory its screen's components use, so the components find the request in flight or answered; nothing
 * is awaited (the page renders its loading states as before) and a failure is the component's to show.
 */
import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { accountInfoQuery } from '../../api/account-api';
import {
  codeQuery,
  contractQuery,
  opgListQuery,
  storageQuery,
  storageSchemaQuery,
  viewsQuery,
} from '../../api/contract-api';
import { contractMetadataQuery } from '../../api/contract-metadata-api';
import { headQuery, recentlyCalledQuery } from '../../api/queries';
import type { ConfigResponse } from '@michelscope/api-types';
import { isContractAddress } from '../../shared/chain/patterns';
import { readChosenNetwork, startNetwork } from '../../shared/config/chosen-network';
import { browserStorage } from '../../shared/storage/local-storage';
import { protocolFromQuery } from '../../slices/contract/code/code-versions';
import { tokenServiceQuery } from '../../slices/contract/token-service';
import { HOME_TABLE_ROWS } from '../../slices/home/home-table';
import type { ScreenData, ScreenId } from './route-table';

type RouteDataArgs = Parameters<ScreenData>[0];

/** The prefetch of every screen that has one, for a query client and the boot configuration. */
export function routeData(
  client: QueryClient,
  config: Pick<ConfigResponse, 'networks' | 'sandbox_mode'>,
): Partial<Record<ScreenId, ScreenData>> {
  const start = <T, K extends QueryKey>(options: FetchQueryOptions<T, Error, T, K>) =>
    void client.prefetchQuery(options);

  // What ContractFrame (useContractPage) asks for on every account / contract tab.
  const frame = ({ params }: RouteDataArgs) => {
    const { network = '', address = '' } = params;
    start(accountInfoQuery(network, address));
    if (!isContractAddress(address)) return;
    start(contractQuery(network, address));
    start(contractMetadataQuery(network, address));
    start(viewsQuery(network, address));
    start(tokenServiceQuery());
  };
  const withFrame =
    (tab: (network: string, address: string, url: URL) => void): ScreenData =>
    (args) => {
      frame(args);
      tab(args.params.network ?? '', args.params.address ?? '', args.url);
    };

  return {
    home: () => {
      // the table of the network home opens on (it depends on which networks are synced)
      void client
        .fetchQuery(headQuery())
        .catch(() => undefined)
        .then((heads) => {
          const network = startNetwork(config, heads, readChosenNetwork(browserStorage()));
          if (network) start(recentlyCalledQuery(network, HOME_TABLE_ROWS, 0));
        });
    },
    operations: withFrame((network, address) => {
      void client.prefetchInfiniteQuery(opgListQuery(network, address));
    }),
    storage: withFrame((network, address, url) => {
      start(storageSchemaQuery(network, address));
      // `?level=` (an older version) is left to the tab, which validates it.
      if (!url.searchParams.has('level')) start(storageQuery(network, address, null));
    }),
    code: withFrame((network, address, url) => {
      start(codeQuery(network, address, protocolFromQuery(url.searchParams.get('protocol'))));
    }),
    events: frame,
    ticket_updates: frame,
    interact: frame,
    views: frame,
    metadata: frame,
    fork: frame,
    tokens: frame,
    contract_stats: frame,
    details: frame,
  };
}
