// Resolution of the node's block identifiers: head, genesis, a level, a block hash, each optionally
// followed by ~N or -N (N blocks before, as Octez accepts both) or +N (N blocks after). checkpoint, savepoint and caboose are
// genesis here (the sandbox keeps every block).
import { PrefixV2 } from '@taquito/utils';
import { isB58 } from './hashing';
import { RpcError } from './operation-types';
import { CHAIN_ID } from './protocol';
import type { StoredBlock } from './chain-store';

export interface ChainView {
  headLevel: number;
  levelOf(hash: string): number | undefined;
  block(level: number): StoredBlock | undefined;
}

function cannotParse(id: string): RpcError {
  return new RpcError(400, [
    {
      kind: 'permanent',
      id: 'rpc.argument_parsing',
      msg: `Failed to parse argument 'block_id' (${JSON.stringify(id.slice(0, 80))}): Cannot parse block identifier.`,
    },
  ]);
}

function notFound(id: string): RpcError {
  return new RpcError(404, [{ kind: 'temporary', id: 'store.block_not_found', block: id.slice(0, 80) }]);
}

/** Returns the level of the block `id` names; throws 400 for a malformed id, 404 for an unknown block. */
export function resolveBlockId(id: string, chain: ChainView): number {
  const m = /^([^~+-]+)(?:([~+-])(\d{1,10}))?$/.exec(id);
  if (!m) throw cannotParse(id);
  const base = m[1]!;
  let level: number | undefined;
  if (base === 'head') level = chain.headLevel;
  else if (base === 'genesis' || base === 'checkpoint' || base === 'savepoint' || base === 'caboose')
    level = 0;
  else if (/^\d{1,10}$/.test(base)) {
    level = Number(base);
    if (level > 2147483647) throw cannotParse(id);
  } else if (isB58(base, PrefixV2.BlockHash)) {
    level = chain.levelOf(base);
    if (level === undefined) throw notFound(id);
  } else throw cannotParse(id);
  if (m[2] && m[3]) level = m[2] === '+' ? level + Number(m[3]) : level - Number(m[3]);
  if (level < 0 || level > chain.headLevel) throw notFound(id);
  return level;
}

export function checkChain(chain: string): void {
  if (chain === 'main' || chain === CHAIN_ID) return;
  if (chain === 'test' || isB58(chain, PrefixV2.ChainID))
    throw new RpcError(404, [{ kind: 'temporary', id: 'node.chain.unknown_chain', chain }]);
  throw new RpcError(400, [
    {
      kind: 'permanent',
      id: 'rpc.argument_parsing',
      msg: `Failed to parse argument 'chain_id': Cannot parse chain identifier.`,
    },
  ]);
}

/** Resolves `:chain` and `:block` of a request to a stored block (or throws 400/404). */
export function blockOf(sandbox: ChainView, params: Record<string, string>): StoredBlock {
  checkChain(params.chain ?? '');
  const level = resolveBlockId(params.block ?? '', sandbox);
  return sandbox.block(level)!;
}
