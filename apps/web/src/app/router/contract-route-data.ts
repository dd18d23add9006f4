/**
 * The requests of the account / contract tabs that their route loaders start (see ./route-data): the
 * contract frame's (useContractPage) on every tab, and the first data of the operations, storage, code,
 * security, source and tokens tabs, and of a big map's keys page. Loaded with the contract chunks (vite.config.ts puts it in `contract`, which index.html
 * modulepreloads on those pages), so that the API modules and their parsers stay out of the boot chunk.
 */
import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { accountInfoQuery } from '../../api/account-api';
import {
  codeQuery,
  contractQuery,
  opgListQuery,
  securityQuery,
  storageQuery,
  storageSchemaQuery,
  viewsQuery,
} from '../../api/contract-api';
import { contractMetadataQuery, tokensQuery } from '../../api/contract-metadata-api';
import { contractSourceQuery } from '../../api/verify-api';
import { bigMapDetailsQuery, bigMapKeysQuery } from '../../api/bigmap-api';
import { aliasQuery } from '../../features/aliases/useAlias';
import { isContractAddress } from '../../shared/chain/patterns';
import { protocolFromQuery } from '../../slices/contract/code/code-versions';
import { tokenServiceQuery } from '../../slices/contract/token-service';
import { normaliseTokenSearch } from '../../slices/contract/tokens/token-view';

/** The tabs whose own first data is started with the frame's. */
export type ContractTab =
  'operations' | 'storage' | 'code' | 'security' | 'source' | 'big_map_keys' | 'tokens' | 'frame';

/** Starts the requests; the promise settles (never rejects) when every one has answered or failed. */
export function startContractData(
  client: QueryClient,
  tab: ContractTab,
  params: Partial<Record<string, string>>,
  url: URL,
): Promise<unknown> {
  const started: Promise<unknown>[] = [];
  const start = <T, K extends QueryKey>(options: FetchQueryOptions<T, Error, T, K>) =>
    void started.push(client.prefetchQuery(options));
  const { network = '', address = '' } = params;

  // What ContractFrame (useContractPage) asks for on every account / contract tab.
  start(accountInfoQuery(network, address));
  // the frame's title (an alias that comes later would draw the frame and its tab again)
  if (network !== '' && address !== '') start(aliasQuery(network, address));
  if (isContractAddress(address)) {
    start(contractQuery(network, address));
    start(contractMetadataQuery(network, address));
    start(viewsQuery(network, address));
    start(tokenServiceQuery());
  }

  switch (tab) {
    case 'operations':
      started.push(client.prefetchInfiniteQuery(opgListQuery(network, address)));
      break;
    case 'storage':
      start(storageSchemaQuery(network, address));
      // `?level=` (an older version) is left to the tab, which validates it.
      if (!url.searchParams.has('level')) start(storageQuery(network, address, null));
      break;
    case 'code':
      start(codeQuery(network, address, protocolFromQuery(url.searchParams.get('protocol'))));
      break;
    case 'security':
      start(securityQuery(network, address));
      break;
    case 'source':
      start(contractSourceQuery(network, address));
      break;
    case 'big_map_keys': {
      // a big map's keys page (in the storage tab's frame): the map and its first page of keys, unfiltered
      const ptr = Number(params.ptr);
      if (/^\d{1,15}$/.test(params.ptr ?? '') && Number.isSafeInteger(ptr)) {
        start(bigMapDetailsQuery(network, ptr));
        start(bigMapKeysQuery(network, ptr, 0, ''));
      }
      break;
    }
    case 'tokens':
      // the tokens tab's first page (its search from ?search=, as the tab reads it): a POST of the metadata
      // API, so not announced by the server, but rendered with the page there and asked here with the frame's
      start(tokensQuery(network, address, 0, normaliseTokenSearch(url.searchParams.get('search') ?? '')));
      break;
    case 'frame':
      break;
  }
  return Promise.allSettled(started);
}
