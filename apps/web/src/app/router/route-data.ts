/**
 * The data each screen shows, started by its route loader together with the screen's code (the lazy chunk),
 * instead of after that code has loaded and rendered. Each entry calls `prefetchQuery` with the query
 * factory its screen's components use, so the components find the request in flight or answered; nothing
 * is awaited (the page renders its loading states as before) and a failure is the component's to show.
 */
import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { headQuery, recentlyCalledQuery } from '../../api/queries';
import type { ConfigResponse } from '@michelscope/api-types';
import { readChosenNetwork, startNetwork } from '../../shared/config/chosen-network';
import { browserStorage } from '../../shared/storage/local-storage';
import { HOME_TABLE_ROWS } from '../../slices/home/home-table';
import type { ContractTab } from './contract-route-data';
import type { ScreenData, ScreenId } from './route-table';

/** The prefetch of every screen that has one, for a query client and the boot configuration. */
export function routeData(
  client: QueryClient,
  config: Pick<ConfigResponse, 'networks' | 'sandbox_mode'>,
): Partial<Record<ScreenId, ScreenData>> {
  const start = <T, K extends QueryKey>(options: FetchQueryOptions<T, Error, T, K>) =>
    void client.prefetchQuery(options);

  // The account / contract tabs: their query factories come with the contract chunks (./contract-route-data).
  // The loader waits (bounded: DATA_WAIT_MS) for them: the page's first render has its data.
  const contract =
    (tab: ContractTab): ScreenData =>
    ({ params, url }) =>
      import('./contract-route-data').then((m) => m.startContractData(client, tab, params, url));
  const frame = contract('frame');

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
    operations: contract('operations'),
    storage: contract('storage'),
    code: contract('code'),
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
