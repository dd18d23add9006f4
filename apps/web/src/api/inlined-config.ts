/** The boot configuration the server inlines in index.html, read by the app before its first request. */
import type { ConfigResponse } from '@michelscope/api-types';

/** The id of the JSON block in which the server inlines GET /v1/config (apps/server page-html.ts). */
export const BOOT_CONFIG_ID = 'ms-boot-config';

/**
 * The configuration the server inlined in index.html (`<script type="application/json">`), so that the app
 * starts without a round trip; undefined when it is absent or unreadable (the app then asks /v1/config).
 */
export function inlinedConfig(doc: Document = document): ConfigResponse | undefined {
  const text = doc.getElementById(BOOT_CONFIG_ID)?.textContent;
  if (!text) return undefined;
  try {
    const config = JSON.parse(text) as ConfigResponse | null;
    return Array.isArray(config?.networks) ? config : undefined;
  } catch {
    return undefined;
  }
}
