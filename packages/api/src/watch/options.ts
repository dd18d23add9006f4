import type { DeliveryOptions } from './delivery';

/** Watch rules and webhooks (issue 39): `ApiOptions.watch`. */
export interface WatchOptions extends DeliveryOptions {
  /** Rules one management token may hold (default 20). */
  maxRulesPerToken?: number;
  /** Rules in all (default 10,000). */
  maxRulesTotal?: number;
  /** Rule creations per client (request.ip) a minute (default 30). */
  createPerMinute?: number;
  /** Webhook URLs may point to loopback, private and link-local addresses (default false). */
  allowPrivateTargets?: boolean;
  /** The most levels one evaluation covers when it fell behind (older ones are skipped; default 100). */
  maxLevelsPerEvaluation?: number;
  /** Resolves a webhook host at creation (tests); default the system's DNS. */
  resolve?: (host: string) => Promise<string[]>;
}
