/**
 * The registry's entries (./resources.ts) read from the node RPC through this origin's pass-through
 * (/rpc/{network}/…), typed by the `Node*` types of api-types (the node's answers as they are).
 */
import type {
  NodeBlockHeader,
  NodeConstants,
  NodeNumber,
  NodeScript,
  NodeSimulateRequest,
  NodeSimulateResult,
} from '@michelscope/api-types';
import { action, enc, resource, type At, type Mount } from './resource-builders';

/** The node RPC through this origin's pass-through (/rpc/{network}/…). */
const RPC: Mount = { base: '/rpc' };
const node = (network: string) => `/${enc(network)}/chains/main`;

/** The node RPC reads, through this origin's pass-through. */
export const NODE_RESOURCES = {
  /** The contract's script from the node (the server's RPC pass-through). */
  script: resource<At, NodeScript>(
    (p) => `${node(p.network)}/blocks/head/context/contracts/${enc(p.address)}/script`,
    RPC,
  ),
  /** The protocol's constants at the head or at a level (node RPC). */
  networkConstants: resource<{ network: string; block: 'head' | number }, NodeConstants>(
    (p) => `${node(p.network)}/blocks/${p.block}/context/constants`,
    RPC,
  ),
  /** The head block's header, or a level's (node RPC). */
  headHeader: resource<{ network: string; block?: number | undefined }, NodeBlockHeader>(
    (p) => `${node(p.network)}/blocks/${p.block ?? 'head'}/header`,
    RPC,
  ),
  /** The chain id (node RPC). */
  chainId: resource<{ network: string }, string>((p) => `${node(p.network)}/chain_id`, RPC),
  /** An account's counter at the head, or at a level (node RPC). */
  counter: resource<At & { block?: number | undefined }, NodeNumber>(
    (p) => `${node(p.network)}/blocks/${p.block ?? 'head'}/context/contracts/${enc(p.address)}/counter`,
    RPC,
  ),
  /** The bytes a contract's storage uses, and those it paid for (node RPC). */
  usedSpace: resource<At, NodeNumber>(
    (p) => `${node(p.network)}/blocks/head/context/contracts/${enc(p.address)}/storage/used_space`,
    RPC,
  ),
  paidSpace: resource<At, NodeNumber>(
    (p) => `${node(p.network)}/blocks/head/context/contracts/${enc(p.address)}/storage/paid_space`,
    RPC,
  ),
  /** The total bytes of a big map (node RPC, raw context). */
  bigMapTotalBytes: resource<{ network: string; ptr: number }, NodeNumber>(
    (p) => `${node(p.network)}/blocks/head/context/raw/json/big_maps/index/${p.ptr}/total_bytes`,
    RPC,
  ),
  /** An unsigned operation run by the node at the head or at a level (the deploy wizard's origination simulation). */
  simulateOperation: action<
    { network: string; block?: number | undefined },
    NodeSimulateRequest,
    NodeSimulateResult
  >((p) => `${node(p.network)}/blocks/${p.block ?? 'head'}/helpers/scripts/simulate_operation`, RPC),
};
