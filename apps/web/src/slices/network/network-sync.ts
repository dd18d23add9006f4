/** How a network's index compares with its node (the sync fields of `GET /v1/head`, issue 32), as words. */
import type { Block, Head, LiveHeadEvent } from '@michelscope/api-types';
import { formatNumber } from '../../shared/format/format';

const DASH = '—';

const levels = (n: number) => `${formatNumber(n)} ${n === 1 ? 'level' : 'levels'} behind`;

/**
 * The panel's sync line: the indexed level, the node's level and the lag, e.g. ['Indexed level 1,234',
 * 'Node level 1,288', '54 levels behind']; the node's part says 'Node unreachable' when its head could not be
 * read. Empty while the head is unknown.
 */
export function syncFacts(head: Head | undefined): string[] {
  if (!head) return [];
  const indexed = `Indexed level ${head.level > 0 ? formatNumber(head.level) : DASH}`;
  if (head.node_reachable === false) return [indexed, 'Node unreachable'];
  // (a server without the node's head in its answer)
  if (head.node_level === undefined) return [indexed];
  const node = `Node level ${formatNumber(head.node_level)}`;
  return head.lag !== undefined ? [indexed, node, levels(head.lag)] : [indexed, node];
}

const FAILED_PART = {
  node: 'The node cannot store its chain (it bakes no block meanwhile)',
  indexer: 'The indexer cannot use its database (it retries and goes on from its stored head)',
  database: 'The database cannot be read',
} as const;

/** The panel's alert lines: each part that failed (issue 34), with its error and since when. */
export function failureLines(head: Head | undefined): string[] {
  return (head?.failures ?? []).map((f) => `${FAILED_PART[f.part]} since ${f.since}: ${f.message}`);
}

/**
 * The panel's chip: 'Failed' when a part failed; 'Synced'; 'Syncing' while the indexer catches up with a reachable node; 'Unsynced' when
 * the node cannot be read or nothing is indexed. Without the head, from whether any block is indexed.
 */
export function syncLabel(indexedLevel: number | undefined, head: Head | undefined): string | null {
  if (head?.failures?.length) return 'Failed';
  if (head)
    return head.synced ? 'Synced' : head.node_reachable === true && head.level > 0 ? 'Syncing' : 'Unsynced';
  if (indexedLevel === undefined) return null;
  return indexedLevel > 0 ? null : 'Unsynced';
}

/** The sidebar's note of a network that is not synced: '54 behind' or 'node unreachable' (else none). */
export function sidebarSyncNote(head: Head | undefined): string | null {
  if (head?.failures?.length) return 'failed';
  if (!head || head.synced || head.level <= 0) return null;
  if (head.node_reachable === false) return 'node unreachable';
  return head.lag !== undefined && head.lag > 0 ? `${formatNumber(head.lag)} behind` : null;
}

/**
 * A network's state (GET /v1/stats, which the API caches 30 s) moved to the live stream's last head when that
 * is newer: the panel's Head Level and Hash never lag the header's level, whether the states arrived before
 * the head event (the live client moves them) or after it with an older level (issue 33).
 */
export function withLiveHead(state: Block | undefined, head: LiveHeadEvent | undefined): Block | undefined {
  if (!state || !head || head.network !== state.network || state.level <= 0 || head.level <= state.level)
    return state;
  return { ...state, level: head.level, hash: head.hash, timestamp: head.time, protocol: head.protocol };
}
