// What the script and simulation RPCs (rpc-scripts.ts, rpc-helpers.ts) read of the chain. The Sandbox is
// one; `replicaHost` is another, rebuilt in a script worker (script-task.ts) from a snapshot of one block.
import type { ChainView } from './block-id';
import type { StoredBlock } from './chain-store';
import { Kv, State } from './state';
import type { StateSnapshot } from './sandbox';
import type { Listings } from './voting';

export interface ScriptHost extends ChainView {
  stateAt(level: number): State;
  pendingState(): State;
  nextBlockContext(): { level: number; now: bigint; listings: () => Listings };
  listingsAt(level: number): Listings;
}

/** The chain as one script run sees it, sent to a script worker. */
export interface HostSnapshot {
  headLevel: number;
  /** The block the request names (its header: level, timestamp). */
  block: Pick<StoredBlock, 'hash' | 'header'>;
  state: StateSnapshot;
  next: { level: number; now: bigint; listings: Listings };
  /** The voting listings of the block's context. */
  listings: Listings;
}

let parsed: { version: string; kv: Kv } | undefined;

/** A ScriptHost over a snapshot: the named block is the only one, its state the snapshot's. */
export function replicaHost(s: HostSnapshot): ScriptHost {
  if (parsed?.version !== s.state.version)
    parsed = { version: s.state.version, kv: Kv.fromJSON(JSON.parse(s.state.json)) };
  const state = new State(Kv.overlay(parsed.kv, s.state.overrides));
  const level = s.block.header.level;
  return {
    headLevel: s.headLevel,
    levelOf: (hash) => (hash === s.block.hash ? level : undefined),
    block: (l) => (l === level ? { ...s.block, operations: [], fees: '0' } : undefined),
    stateAt: () => state,
    pendingState: () => state,
    nextBlockContext: () => ({ ...s.next, listings: () => s.next.listings }),
    listingsAt: () => s.listings,
  };
}
