/**
 * The registry's entries (./resources.ts) of a network as a whole: the configuration, the heads and latest
 * blocks, the recently called contracts, the global constants and the contracts using one, the newest
 * contract with a tag.
 */
import type {
  Block,
  ConfigResponse,
  Contract,
  GlobalConstant,
  GlobalConstantItem,
  Head,
  RecentlyCalledContract,
} from '@michelscope/api-types';
import { enc, page, resource, type Page } from './resource-builders';

/** The network-wide reads: configuration, heads, blocks, recently called contracts, global constants. */
export const NETWORK_RESOURCES = {
  config: resource<void, ConfigResponse>(() => '/config'),
  head: resource<void, Head[]>(() => '/head'),
  stats: resource<void, Block[]>(() => '/stats'),
  recentlyCalled: resource<{ network: string } & Page, RecentlyCalledContract[]>(
    (p) => `/stats/${enc(p.network)}/recently_called_contracts?${page(p)}`,
  ),
  globalConstants: resource<{ network: string } & Page, GlobalConstantItem[]>(
    (p) => `/global_constants/${enc(p.network)}?${page(p)}`,
  ),
  globalConstant: resource<{ network: string; address: string }, GlobalConstant>(
    (p) => `/global_constants/${enc(p.network)}/${enc(p.address)}`,
  ),
  constantContracts: resource<{ network: string; address: string } & Page, Contract[]>(
    (p) => `/global_constants/${enc(p.network)}/${enc(p.address)}/contracts?${page(p)}`,
  ),
  /** The newest contract with one of the tags (comma-separated); 404 when there is none. */
  contractWithTag: resource<{ network: string; tags: string }, Contract>(
    (p) => `/helpers/contracts/${enc(p.network)}?tags=${enc(p.tags)}`,
  ),
};
