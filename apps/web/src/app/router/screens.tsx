/**
 * Which module renders each screen. Every entry but home is a dynamic import, so each screen is its own chunk
 * (see apps/web/README.md, "Adding a page"). Home is in the boot chunk: every page loads its search box
 * (home's, the search page's, the header's), and a file of its own was one more request for every page.
 */
import { HomePage } from '../../slices/home/HomePage';
import type { LazyScreen, ScreenId } from './route-table';

export const screens: Record<ScreenId, LazyScreen> = {
  home: () => Promise.resolve({ Component: HomePage }),
  not_found: async () => ({ Component: (await import('../errors/NotFoundPage')).NotFoundPage }),
  search: async () => ({ Component: (await import('../../slices/search/SearchPage')).SearchPage }),
  deploy: async () => ({ Component: (await import('../../slices/deploy/DeployPage')).DeployPage }),
  constant: async () => ({ Component: (await import('../../slices/constant/ConstantPage')).ConstantPage }),
  recently_called: async () => ({
    Component: (await import('../../slices/network/NetworkPage')).RecentlyCalledScreen,
  }),
  network_constants: async () => ({
    Component: (await import('../../slices/network/NetworkPage')).NetworkConstantsScreen,
  }),
  network_stats: async () => ({
    Component: (await import('../../slices/network/NetworkPage')).NetworkStatsScreen,
  }),
  operations: async () => ({
    Component: (await import('../../slices/account/OperationsPage')).OperationsPage,
  }),
  events: async () => ({ Component: (await import('../../slices/account/EventsPage')).EventsPage }),
  ticket_updates: async () => ({
    Component: (await import('../../slices/account/TicketUpdatesPage')).TicketUpdatesPage,
  }),
  interact: async () => ({
    Component: (await import('../../slices/contract/interact/InteractPage')).InteractPage,
  }),
  views: async () => ({ Component: (await import('../../slices/contract/views/ViewsPage')).ViewsPage }),
  storage: async () => ({ Component: (await import('../../slices/contract/StoragePage')).StoragePage }),
  big_map_keys: async () => ({
    Component: (await import('../../slices/big-map/BigMapKeysPage')).BigMapKeysPage,
  }),
  big_map_history: async () => ({
    Component: (await import('../../slices/big-map/BigMapKeyHistoryPage')).BigMapKeyHistoryPage,
  }),
  // CodeMirror is not part of it: the code shows first without it (shared/micheline/MichelsonCode).
  code: async () => ({ Component: (await import('../../slices/contract/code/CodePage')).CodePage }),
  security: async () => ({
    Component: (await import('../../slices/contract/security/SecurityPage')).SecurityPage,
  }),
  source: async () => ({
    Component: (await import('../../slices/contract/source/SourcePage')).SourcePage,
  }),
  watch: async () => ({ Component: (await import('../../slices/contract/watch/WatchPage')).WatchPage }),
  metadata: async () => ({
    Component: (await import('../../slices/contract/metadata/MetadataPage')).MetadataPage,
  }),
  fork: async () => ({ Component: (await import('../../slices/contract/fork/ForkPage')).ForkPage }),
  tokens: async () => ({ Component: (await import('../../slices/contract/tokens/TokensPage')).TokensPage }),
  contract_stats: async () => ({
    Component: (await import('../../slices/contract/stats/ContractStatsPage')).ContractStatsPage,
  }),
  details: async () => ({ Component: (await import('../../slices/contract/DetailsTab')).DetailsPage }),
  opg_contents: async () => ({
    Component: (await import('../../slices/operation/OperationGroupPage')).OperationGroupPage,
  }),
};
