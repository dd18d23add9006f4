/**
 * Links the value inspector offers for a value (workspace spec §2 "Dialogs"): View for an address,
 * View Storage only for a tezos-storage URI naming a valid contract, View IPFS for ipfs URIs and
 * multihash strings. Values are untrusted: anything else gets no link.
 */
import { BASE58_CHARS, isAddress, isContractAddress } from '../chain/patterns';
import { DEFAULT_IPFS_GATEWAY, gatewayUrl } from '../media/image-uri';

export interface ValueLink {
  label: 'View' | 'View Storage' | 'View IPFS';
  href: string;
  /** Opens outside the app (new tab). */
  external: boolean;
}

const B58 = `[${BASE58_CHARS}]`;
/** CIDv0 (Qm + 44 base58) or CIDv1 in base32 (b + 58 or more lowercase base32 characters). */
const MULTIHASH = new RegExp(`^(?:Qm${B58}{44}|b[a-z2-7]{58,})$`);

/** The contract of a `tezos-storage://KT1…/key` URI (TZIP-16), or null. */
export function tezosStorageContract(value: string): string | null {
  const m = /^tezos-storage:\/\/([^/.?#]+)(?:\.[^/]*)?\//.exec(value.trim());
  return m?.[1] !== undefined && isContractAddress(m[1]) ? m[1] : null;
}

/** The gateway URL of an `ipfs://` URI or a bare multihash, or null. */
export function ipfsUrl(value: string, gateway: string = DEFAULT_IPFS_GATEWAY): string | null {
  const v = value.trim();
  let path: string;
  if (v.startsWith('ipfs://')) path = v.slice('ipfs://'.length).replace(/^ipfs\//, '');
  else if (MULTIHASH.test(v)) path = v;
  else return null;
  const cid = path.split('/')[0] ?? '';
  if (!MULTIHASH.test(cid) || /[\s?#]/.test(path)) return null;
  return gatewayUrl(gateway, path);
}

export function valueLinks(value: string, network: string, gateway?: string): ValueLink[] {
  const links: ValueLink[] = [];
  const v = value.trim();
  if (isAddress(v)) {
    links.push({ label: 'View', href: `/${encodeURIComponent(network)}/${v}/operations`, external: false });
  }
  const storage = tezosStorageContract(v);
  if (storage !== null) {
    links.push({
      label: 'View Storage',
      href: `/${encodeURIComponent(network)}/${storage}/storage`,
      external: false,
    });
  }
  const ipfs = ipfsUrl(v, gateway);
  if (ipfs !== null) links.push({ label: 'View IPFS', href: ipfs, external: true });
  return links;
}
