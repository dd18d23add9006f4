/** Links to an external explorer (TzKT) for networks that have one; null when there is none (sandbox). */
const TZKT_HOSTS: Record<string, string> = {
  mainnet: 'https://tzkt.io',
  ghostnet: 'https://ghostnet.tzkt.io',
  nairobinet: 'https://nairobinet.tzkt.io',
  oxfordnet: 'https://oxfordnet.tzkt.io',
};

/** External explorer page of an address or operation hash on `network`, or null. */
export function externalExplorerUrl(network: string, id: string): string | null {
  const host = TZKT_HOSTS[network];
  if (!host || !/^[1-9A-HJ-NP-Za-km-z]+$/.test(id)) return null;
  return `${host}/${id}`;
}

/** `KT1Ab…wxyz`: prefix and 4 characters, an ellipsis, the last 4 characters (bcd-frontend.md §3.4). */
export function shortAddress(value: string): string {
  return value.length > 13 ? `${value.slice(0, 7)}…${value.slice(-4)}` : value;
}

/** Network name with a capital first letter (breadcrumbs). */
export function capitalise(network: string): string {
  return network.charAt(0).toUpperCase() + network.slice(1);
}
