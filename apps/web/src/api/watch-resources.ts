/**
 * The registry's entries (./resources.ts) of watch rules and their webhooks (issue 39): create a rule, the
 * management token's rules and a rule's delivery log. Each is asked with `Authorization: Bearer <token>`
 * (./watch-api.ts adds it); deleting a rule is a DELETE, which the registry does not describe (watch-api).
 */
import type {
  WatchDeliveryList,
  WatchRuleCreated,
  WatchRuleInput,
  WatchRuleList,
} from '@michelscope/api-types';
import { action, enc, resource } from './resource-builders';

export const WATCH_RESOURCES = {
  /** Creates a rule: the rule, its signing secret and the management token, each shown once. */
  watchCreate: action<void, WatchRuleInput, WatchRuleCreated>(() => '/watch/rules'),
  /** The management token's rules, oldest first. */
  watchRules: resource<void, WatchRuleList>(() => '/watch/rules'),
  /** A rule's delivery log, newest first (the newest `size`). */
  watchDeliveries: resource<{ id: string; size: number }, WatchDeliveryList>(
    (p) => `/watch/rules/${enc(p.id)}/deliveries?size=${p.size}`,
  ),
};
