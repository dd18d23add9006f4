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

/**
 * An error's text as the public may read it (heads and /v1/health answer anyone): the server's folders are
 * shortened to their last name (`…/sandbox`) and the credentials of a URL dropped; the whole text stays in the
 * server's log.
 */
export function publicMessage(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1…@')
    .replace(/(^|[\s'"(=:])\/(?:[^/\s'"]+\/)+([^/\s'"]+)/g, '$1…/$2');
}

/** The parts of `network` failing now (empty when none, or when none runs in this process). */
export function partFailures(ctx: ApiContext, network: string): PartFailure[] {
  const parts = ctx.options.parts?.(network);
  if (!parts) return [];
  const out: PartFailure[] = [];
  if (parts.nodeStorage)
    out.push({
      part: 'node',
      message: publicMessage(parts.nodeStorage.message),
      since: at(parts.nodeStorage.since),
    });
  const indexer = parts.indexer;
  if (indexer?.state === 'failed' && indexer.lastError)
    out.push({
      part: 'indexer',
      message: publicMessage(indexer.lastError),
      since: at(indexer.failedSince ?? ctx.now()),
    });
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
  return latest && { part: latest.part, message: publicMessage(latest.message), at: at(latest.at) };
}
