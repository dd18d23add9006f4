/**
 * The GET requests a page's route loader starts (./route-data.ts and ./contract-route-data.ts), for the server
 * to announce them in index.html as `<link rel="preload" as="fetch" crossorigin>`: the browser then asks the
 * API together with the scripts instead of after the boot chunk has downloaded and run (~300 ms on a
 * throttled first visit), and the app's own fetch of the same URL takes the preloaded answer.
 *
 * The web owns it and builds it for the server (vite.config.ts, the SSR build's second entry:
 * dist-ssr/route-fetches.js, which apps/server/src/static-web.ts loads beside the renderer), over the same
 * page sizes, address shapes and default network as the loaders; ./route-fetches.test.ts runs the loaders
 * and checks that they ask for these URLs. It imports nothing but dependency-free modules.
 *
 * Only requests whose URL the page's address decides are listed (no POSTs). Home's recently called table
 * is announced for the default network: the web asks for it at once too, and only a reader who chose
 * another network, or whose default network is not synced, asks for another.
 */
import { BIG_MAP_PAGE_SIZE, OPG_PAGE_SIZE } from '../../api/page-sizes';
import { isAddress, isContractAddress } from '../../shared/chain/patterns';
import { defaultNetwork } from '../../shared/config/network-defaults';
import { HOME_TABLE_ROWS } from '../../slices/home/home-table';

export { defaultNetwork };

const PROTOCOL = /^P[1-9A-HJ-NP-Za-km-z]{50}$/;
const OPG_HASH = /^o[1-9A-HJ-NP-Za-km-z]{50}$/;
const NETWORK = /^[a-z0-9_-]{1,40}$/;

/** The account / contract tabs (route paths of the web's route table) and the first data of each. */
const CONTRACT_TABS: Record<
  string,
  'operations' | 'storage' | 'code' | 'security' | 'source' | 'big_map_keys' | 'frame'
> = {
  '/:network/:address/operations': 'operations',
  '/:network/:address/storage': 'storage',
  '/:network/:address/storage/big_map/:ptr/keys': 'big_map_keys',
  '/:network/:address/code': 'code',
  '/:network/:address/security': 'security',
  '/:network/:address/source': 'source',
  '/:network/:address/events': 'frame',
  '/:network/:address/ticket_updates': 'frame',
  '/:network/:address/interact/:entrypoint?': 'frame',
  '/:network/:address/views/:view?': 'frame',
  '/:network/:address/metadata': 'frame',
  '/:network/:address/fork': 'frame',
  '/:network/:address/tokens': 'frame',
  '/:network/:address/stats': 'frame',
  '/:network/:address/details': 'frame',
  '/:network/:address/watch': 'frame',
};

/**
 * The API URLs (same origin) the loader of `route` (a route table path) starts for `url`'s path parameters
 * `params` and query; [] when unknown or when the parameters are not well formed.
 */
export function routeFetches(
  route: string,
  params: Readonly<Record<string, string>>,
  query: URLSearchParams,
  networks: readonly string[],
  homeNetwork: string | null = networks[0] ?? null,
): string[] {
  if (route === '/') {
    return homeNetwork !== null && NETWORK.test(homeNetwork)
      ? ['/v1/head', `/v1/stats/${homeNetwork}/recently_called_contracts?size=${HOME_TABLE_ROWS}&offset=0`]
      : ['/v1/head'];
  }
  if (route === '/:network/opg/:hash/contents') {
    const { network = '', hash = '' } = params;
    return NETWORK.test(network) && networks.includes(network) && OPG_HASH.test(hash)
      ? [`/v1/opg/${network}/${hash}?with_storage_diff=true`]
      : [];
  }
  const tab = CONTRACT_TABS[route];
  const { network = '', address = '' } = params;
  if (!tab || !NETWORK.test(network) || !networks.includes(network) || !isAddress(address)) return [];
  const contract = `/v1/contract/${network}/${address}`;
  // the account, and its alias for the frame's title (the web's aliasQuery; a reader who has it in the
  // browser's alias cache does not ask)
  const out = [`/v1/account/${network}/${address}`, `/search/v1/account/${network}/${address}`];
  const isContract = isContractAddress(address);
  if (isContract) out.push(`${contract}?stats=true`, `${contract}/views/schema`);
  switch (tab) {
    case 'operations':
      out.push(`${contract}/opg?size=${OPG_PAGE_SIZE}`);
      break;
    case 'storage':
      if (isContract) {
        out.push(`${contract}/storage/schema`);
        if (!query.has('level')) out.push(`${contract}/storage`);
      }
      break;
    case 'code': {
      const protocol = query.get('protocol');
      if (isContract) {
        out.push(
          protocol !== null && PROTOCOL.test(protocol)
            ? `${contract}/code?protocol=${protocol}`
            : `${contract}/code`,
        );
      }
      break;
    }
    case 'security':
      if (isContract) out.push(`${contract}/security`);
      break;
    case 'source':
      if (isContract) out.push(`${contract}/source`);
      break;
    case 'big_map_keys': {
      const ptr = params.ptr ?? '';
      if (/^\d{1,15}$/.test(ptr)) {
        out.push(`/v1/bigmap/${network}/${Number(ptr)}`);
        out.push(`/v1/bigmap/${network}/${Number(ptr)}/keys?offset=0&size=${BIG_MAP_PAGE_SIZE}`);
      }
      break;
    }
    case 'frame':
      break;
  }
  return out;
}
