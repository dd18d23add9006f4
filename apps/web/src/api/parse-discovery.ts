/**
 * Parsers for the main-API answers of the discovery pages (network page, home table, global constants,
 * search cards). Malformed items are dropped; a malformed answer is a clear ApiError.
 */
import { invalid, isObject, listItems, type Json } from './parse';
import { num, optStr, str, strList } from './json-fields';
import type {
  ContractSummary,
  GlobalConstant,
  GlobalConstantItem,
  NetworkState,
  RecentlyCalledContract,
} from './types';

export function parseNetworkStates(body: unknown): NetworkState[] {
  return listItems(body, 'network list', (o) => {
    const network = optStr(o, 'network');
    if (network === null) return null;
    const stats = isObject(o.stats)
      ? {
          contracts_count: num(o.stats, 'contracts_count'),
          global_constants_count: num(o.stats, 'global_constants_count'),
          operations_count: num(o.stats, 'operations_count'),
        }
      : null;
    return {
      network,
      hash: str(o, 'hash'),
      level: num(o, 'level'),
      chain_id: str(o, 'chain_id'),
      timestamp: str(o, 'timestamp'),
      protocol: str(o, 'protocol'),
      cost_per_byte: num(o, 'cost_per_byte'),
      hard_gas_limit_per_operation: num(o, 'hard_gas_limit_per_operation'),
      hard_storage_limit_per_operation: num(o, 'hard_storage_limit_per_operation'),
      time_between_blocks: num(o, 'time_between_blocks'),
      stats,
    };
  });
}

export function parseRecentlyCalled(body: unknown): RecentlyCalledContract[] {
  return listItems(body, 'recently called contracts', (o) => {
    const address = optStr(o, 'address');
    if (address === null) return null;
    return {
      address,
      alias: optStr(o, 'alias'),
      operations_count: num(o, 'operations_count'),
      last_action: str(o, 'last_action'),
    };
  });
}

export function parseGlobalConstantItems(body: unknown): GlobalConstantItem[] {
  return listItems(body, 'global constants', (o) => {
    const address = optStr(o, 'address');
    if (address === null) return null;
    return {
      address,
      timestamp: str(o, 'timestamp'),
      level: num(o, 'level'),
      links_count: num(o, 'links_count'),
    };
  });
}

export function parseGlobalConstant(body: unknown): GlobalConstant {
  if (!isObject(body) || typeof body.address !== 'string') throw invalid('global constant', 'no address');
  return {
    address: body.address,
    timestamp: str(body, 'timestamp'),
    level: num(body, 'level'),
    code: str(body, 'code'),
    value: body.value ?? null,
  };
}

function contractOf(o: Json): ContractSummary | null {
  const address = optStr(o, 'address');
  if (address === null) return null;
  return {
    address,
    network: str(o, 'network'),
    alias: optStr(o, 'alias'),
    manager: optStr(o, 'manager'),
    timestamp: str(o, 'timestamp'),
    last_action: optStr(o, 'last_action'),
    tags: strList(o, 'tags'),
  };
}

export function parseContracts(body: unknown): ContractSummary[] {
  return listItems(body, 'contract list', contractOf);
}
