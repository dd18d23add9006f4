import type { ConfigResponse } from '@michelscope/api-types';

export const SANDBOX_NETWORK = 'sandboxnet';

/**
 * The network shown when none is chosen (header "Networks" link, home toggle): sandboxnet in sandbox mode
 * when it is configured, else the first configured network (mainnet when configured). null with no networks.
 */
export function defaultNetwork(config: Pick<ConfigResponse, 'networks' | 'sandbox_mode'>): string | null {
  if (config.sandbox_mode && config.networks.includes(SANDBOX_NETWORK)) return SANDBOX_NETWORK;
  return config.networks[0] ?? null;
}
