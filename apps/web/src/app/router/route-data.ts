/**
 * The data each screen shows, started by its route loader together with the screen's code (the lazy chunk),
 * instead of after that code has loaded and rendered. Each entry calls `prefetchQuery` with the query
 * factory its screen's components use, so the components find the request in flight or answered. The loader
 * waits for the first data at most DATA_WAIT_MS (./route-table): the page's first render has it, or shows its
 * loading states when the API is slower; a failure is the component's to show.
 */
import type { QueryClient } from '@tanstack/react-query';
import { headQuery, recentlyCalledQuery } from '../../api/queries';
import { opgQuery } from '../../api/opg-api';
import { operationDebugQuery } from '../../slices/debugger/debug-target';
import { debuggable, readDebugFragment } from '../../slices/operation/debug-link';
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
  // The account / contract tabs: their query factories come with the contract chunks (./contract-route-data).
  // The loader waits (bounded: DATA_WAIT_MS) for them: the page's first render has its data.
  const contract =
    (tab: ContractTab): ScreenData =>
    ({ params, url }) =>
      import('./contract-route-data').then((m) => m.startContractData(client, tab, params, url));
  const frame = contract('frame');

  return {
    home: () => {
      // The table of the network home opens on: the reader's stored choice, else the default network, asked
      // at once (the server announces the same URL with the page); once the heads answer, the network they
      // decide if it differs (the default one not synced). The loader waits (bounded) for the first page.
      const chosen = readChosenNetwork(browserStorage());
      const guess = startNetwork(config, undefined, chosen);
      const table = (network: string | null) =>
        network ? client.prefetchQuery(recentlyCalledQuery(network, HOME_TABLE_ROWS, 0)) : undefined;
      const guessed = table(guess);
      const decided = client
        .fetchQuery(headQuery())
        .catch(() => undefined)
        .then((heads) => {
          const network = startNetwork(config, heads, chosen);
          return network === guess ? guessed : table(network);
        });
      return chosen !== null && guess === chosen ? guessed : decided;
    },
    // an operation group: its operations; with a debugger link (`#debug=`, in the browser only: a server never
    // sees the fragment) also the debugger's code, and that operation's recording as soon as the group says it
    // is one of its calls (an operation not in the group, or not a call, is the page's error to show)
    opg_contents: ({ params }) => {
      const { network, hash } = params;
      if (!network || !hash) return undefined;
      const group = client.prefetchQuery(opgQuery(network, hash));
      const link = typeof window === 'undefined' ? null : readDebugFragment(window.location.hash);
      if (link && 'id' in link) {
        void import('../../slices/debugger/DebuggerDialog');
        void group.then(() => {
          const ops = client.getQueryData(opgQuery(network, hash).queryKey);
          if (ops?.some((op) => op.id === link.id && debuggable(op)))
            void client.prefetchQuery(operationDebugQuery(network, link.id));
        });
      }
      return group;
    },
    operations: contract('operations'),
    storage: contract('storage'),
    big_map_keys: contract('big_map_keys'),
    code: contract('code'),
    security: contract('security'),
    source: contract('source'),
    events: frame,
    ticket_updates: frame,
    interact: frame,
    views: frame,
    metadata: frame,
    fork: frame,
    tokens: contract('tokens'),
    contract_stats: frame,
    details: frame,
    watch: frame,
  };
}
