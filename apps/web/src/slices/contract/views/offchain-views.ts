/**
 * Off-chain views of the Views tab: the TZIP-16 `views` of the contract metadata, each turned into a
 * parameter form by POST /v1/off_chain_view, and executed by POST …/views/execute with kind off-chain
 * and the chosen implementation (at the head, or pinned to a level: the answer's headers say where it ran).
 * Metadata is untrusted: only well-formed views are kept.
 */
import { queryOptions } from '@tanstack/react-query';
import type { MiguelNode, StateLevel, ViewRequest, ViewSchema } from '@michelscope/api-types';
import { errorMessageFromBody } from '../../../api/client';
import { isObject } from '../../../api/parse';
import { runAction, runActionAnswer } from '../../../api/resources';
import { ViewExecutionError } from '../../../api/workspace-api';

export const OFF_CHAIN_ERROR = (error: string) => `Error while fetching off-chain views: ${error}`;

/** A TZIP-16 view as declared in the metadata. */
export interface MetadataView {
  name: string;
  description?: string;
  implementations: unknown[];
}

/** The `views` of a metadata document that have a name and a list of implementations. */
export function metadataViews(doc: unknown): MetadataView[] {
  if (!isObject(doc) || !Array.isArray(doc.views)) return [];
  return doc.views.filter(isObject).flatMap((v) => {
    if (typeof v.name !== 'string' || !v.name || !Array.isArray(v.implementations)) return [];
    return [
      {
        name: v.name,
        ...(typeof v.description === 'string' ? { description: v.description } : {}),
        implementations: v.implementations,
      },
    ];
  });
}

/** An off-chain view form with the implementation it runs. */
export interface OffChainView extends ViewSchema {
  source: unknown;
}

/** POST /v1/off_chain_view for each view (null answers: no michelsonStorageView, left out). */
export async function fetchOffChainViews(
  views: MetadataView[],
  signal?: AbortSignal,
): Promise<OffChainView[]> {
  const out: OffChainView[] = [];
  for (const view of views) {
    const form = await runAction('offChainView', undefined, view, { signal });
    if (!form) continue;
    out.push({ ...form, kind: 'off-chain', source: view.implementations[form.implementation] });
  }
  return out;
}

export const offChainViewsQuery = (network: string, address: string, views: MetadataView[]) =>
  queryOptions({
    queryKey: ['off_chain_views', network, address, views] as const,
    queryFn: ({ signal }) => fetchOffChainViews(views, signal),
    staleTime: 60_000,
    retry: false,
    enabled: views.length > 0,
    meta: { silent: true },
  });

/** A view's run: its result (null: none) and the level it ran at, as the answer's headers say it. */
export interface ViewRun {
  result: MiguelNode[] | null;
  at: StateLevel | undefined;
}

/**
 * Where a view ran, from …/views/execute's headers (x-simulated-level, x-head-level, x-changed-since);
 * undefined when they are absent or not numbers.
 */
export function viewRunLevel(headers: Headers): StateLevel | undefined {
  const number = (name: string) => {
    const v = headers.get(name);
    return v !== null && /^\d{1,10}$/.test(v) ? Number(v) : undefined;
  };
  const level = number('x-simulated-level');
  const head = number('x-head-level');
  if (level === undefined || head === undefined) return undefined;
  return { level, head_level: head, changed_since: headers.get('x-changed-since') === 'true' };
}

/**
 * POST …/views/execute for an on-chain (name) or off-chain (implementation in `view`) view, at the head or at
 * the request's `at_level`. A failure is a ViewExecutionError, with where it ran when the answer says it.
 */
export async function executeView(network: string, address: string, body: ViewRequest): Promise<ViewRun> {
  let statusText = '';
  // a failed run (FAILWITH…) says where it ran in the same headers as a result
  let at: StateLevel | undefined;
  try {
    const answer = await runActionAnswer('executeView', { network, address }, body, {
      errorMessage: (response, text) => {
        statusText = response.statusText;
        at = viewRunLevel(response.headers);
        return errorMessageFromBody(text) ?? (text || response.statusText);
      },
    });
    return { result: answer.data, at: viewRunLevel(answer.headers) };
  } catch (e) {
    if (e instanceof Error && 'status' in e && typeof e.status === 'number' && e.status > 0)
      throw new ViewExecutionError(e.message, e.status, statusText, at);
    throw e;
  }
}
