/**
 * Token image URIs (discovery spec §5): `ipfs://{cid}` goes through the configured gateway, `https://` is
 * allowed as it is, any other scheme (http, data, javascript, …) is not shown.
 */
export const DEFAULT_IPFS_GATEWAY = 'https://ipfs.io';

export function imageUrl(uri: string, gateway: string = DEFAULT_IPFS_GATEWAY): string | null {
  const value = uri.trim();
  let candidate: string;
  if (value.startsWith('ipfs://')) {
    const path = value.slice('ipfs://'.length).replace(/^ipfs\//, '');
    if (path === '' || /[\s?#]/.test(path.split('/')[0] ?? '')) return null;
    candidate = `${gateway.replace(/\/+$/, '')}/ipfs/${path}`;
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
