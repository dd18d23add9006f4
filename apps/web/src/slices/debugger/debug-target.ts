/** What the debugger records (a call, an indexed operation, a view) and the query that asks the API for it. */
import type { DebugRequest, ScriptDebugRequest, ViewRequest } from '@michelscope/api-types';
import { actionQuery } from '../../api/resources';

/**
 * A call to debug: an entrypoint with its inputs, an indexed operation (replayed at its level), or a view with
 * its input (`view`: on-chain or off-chain, as the Views tab executes it), or a call of an undeployed script
 * (`script`: the deploy page's).
 */
export interface DebugTarget {
  network: string;
  address: string;
  request: DebugRequest;
  operationId?: number;
  view?: ViewRequest;
  script?: ScriptDebugRequest;
}

/** Where the debugger stands: a step and a view (what a share link keeps). */
export interface DebugAt {
  step: number;
  tab: 'step' | 'profile';
}

/** The recording's query: kept for the page's life (a recording does not change), never retried. */
export function debugQuery(t: DebugTarget) {
  if (t.operationId !== undefined) return operationDebugQuery(t.network, t.operationId);
  const at = { network: t.network, address: t.address };
  const q = t.view
    ? actionQuery('viewDebug', at, t.view)
    : t.script
      ? actionQuery('scriptDebug', { network: t.network }, t.script)
      : actionQuery('debug', at, t.request);
  return { ...q, staleTime: Infinity, retry: false } as const;
}

/** An indexed operation's recording (its id is the whole input): what a `#debug=` link's page starts early. */
export function operationDebugQuery(network: string, id: number) {
  return {
    ...actionQuery('operationDebug', { network, id }, {}),
    staleTime: Infinity,
    retry: false,
  } as const;
}
