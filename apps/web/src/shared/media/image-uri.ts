/**
 * Token image URIs (discovery spec §5): `ipfs://{cid}` goes through the configured gateway, `https://` is
 * allowed as it is, any other scheme (http, data, javascript, …) is not shown.
 */
export const DEFAULT_IPFS_GATEWAY = 'https://ipfs.io/ipfs';

/**
 * `{gateway}/ipfs/{path}`: the gateway is the server's `ipfs_gateway` (`https://ipfs.io/ipfs`, the base the
 * indexer puts the CID after) or a bare host (`https://gw.example`); both name the same URL.
 */
export function gatewayUrl(gateway: string, path: string): string {
  return `${gateway.replace(/\/+$/, '').replace(/\/ipfs$/, '')}/ipfs/${path}`;
}

export function imageUrl(uri: string, gateway: string = DEFAULT_IPFS_GATEWAY): string | null {
  const value = uri.trim();
  let candidate: string;
  if (value.startsWith('ipfs://')) {
    const path = value.slice('ipfs://'.length).replace(/^ipfs\//, '');
    if (path === '' || /[\s?#]/.test(path.split('/')[0] ?? '')) return null;
    candidate = gatewayUrl(gateway, path);
  } else if (value.startsWith('https://')) {
    candidate = value;
  } else {
    return null;
  }
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}
