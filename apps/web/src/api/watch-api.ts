/**
 * Watch rules and webhooks (issue 39): create a rule, list the management token's rules, read a rule's
 * delivery log and delete a rule. Every call but a first creation sends `Authorization: Bearer <token>`;
 * the token is part of the query keys, so two tokens never share an answer.
 */
import { queryOptions } from '@tanstack/react-query';
import type { WatchRuleCreated, WatchRuleInput } from '@michelscope/api-types';
import { API_BASE, requestJson } from './client';
import { enc } from './resource-builders';
import { fetchResource, runAction } from './resources';

/** How often the rules and the delivery logs are read again while the page is visible. */
export const WATCH_REFRESH_MS = 5_000;
/** The newest deliveries a rule's log shows. */
export const WATCH_LOG_SIZE = 20;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** POST /v1/watch/rules; with a token the rule joins that token's rules, without one a new token is made. */
export function createWatchRule(input: WatchRuleInput, token: string | null): Promise<WatchRuleCreated> {
  return runAction('watchCreate', undefined, input, token ? { headers: bearer(token) } : undefined);
}

/** GET /v1/watch/rules: the token's rules, read again every few seconds while visible. */
export const watchRulesQuery = (token: string) =>
  queryOptions({
    queryKey: ['watchRules', { token }] as const,
    queryFn: ({ signal }) => fetchResource('watchRules', undefined, { signal, headers: bearer(token) }),
    refetchInterval: WATCH_REFRESH_MS,
    retry: false,
    meta: { silent: true },
  });

/** GET /v1/watch/rules/{id}/deliveries: a rule's newest deliveries, read again every few seconds. */
export const watchDeliveriesQuery = (token: string, id: string) =>
  queryOptions({
    queryKey: ['watchDeliveries', { token, id }] as const,
    queryFn: ({ signal }) =>
      fetchResource('watchDeliveries', { id, size: WATCH_LOG_SIZE }, { signal, headers: bearer(token) }),
    refetchInterval: WATCH_REFRESH_MS,
    retry: false,
    meta: { silent: true },
  });

/** DELETE /v1/watch/rules/{id}: the rule and its delivery log. */
export async function deleteWatchRule(token: string, id: string): Promise<void> {
  await requestJson(`${API_BASE}/watch/rules/${enc(id)}`, { method: 'DELETE', headers: bearer(token) });
}
