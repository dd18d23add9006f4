/**
 * The failed parts of a network (issue 34), from what the server knows of the parts it runs in its process
 * (`ApiOptions.parts`: its indexer's status, its embedded node's storage fault): the `failures` of heads and
 * of `GET /v1/health`.
 */
import type { PartFailure } from '@michelscope/api-types';
import type { ApiContext } from '../context';
import { formatTime } from '../time';

/** RFC 3339 in whole seconds, as every time of the API. */
export const at = (ms: number) => formatTime(new Date(Math.floor(ms / 1000) * 1000));

/** The parts of `network` failing now (empty when none, or when none runs in this process). */
export function partFailures(ctx: ApiContext, network: string): PartFailure[] {
  const parts = ctx.options.parts?.(network);
  if (!parts) return [];
  const out: PartFailure[] = [];
  if (parts.nodeStorage)
    out.push({ part: 'node', message: parts.nodeStorage.message, since: at(parts.nodeStorage.since) });
  const indexer = parts.indexer;
  if (indexer?.state === 'failed' && indexer.lastError)
    out.push({ part: 'indexer', message: indexer.lastError, since: at(indexer.failedSince ?? ctx.now()) });
  return out;
}

/** The latest error of a part of `network` run in this process, kept after it recovered. */
export function lastPartError(
  ctx: ApiContext,
  network: string,
): { part: PartFailure['part']; message: string; at: string } | undefined {
  const parts = ctx.options.parts?.(network);
  const candidates = [
    parts?.nodeRecentError && { part: 'node' as const, ...parts.nodeRecentError },
    parts?.indexer?.recentError && { part: 'indexer' as const, ...parts.indexer.recentError },
  ].filter((c) => !!c);
  const latest = candidates.sort((a, b) => b.at - a.at)[0];
  return latest && { part: latest.part, message: latest.message, at: at(latest.at) };
}
