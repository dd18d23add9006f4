/**
 * TZIP-16 metadata URIs: `tezos-storage:<key>` / `tezos-storage://<KT1…>[.<network>]/<key>`, `https://…`,
 * `ipfs://<CID>/<path>` and `sha256://0x<hex>/<percent-encoded URI>`. Everything else (http:, file:,
 * data:, javascript:, …) is refused: the URI comes from the chain and is untrusted.
 */

/** A resolution error; `permanent` ones are not retried (the same input would fail the same way). */
export class MetadataError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'MetadataError';
  }
}

export type MetadataUri =
  | { kind: 'tezos-storage'; contract: string | null; network: string | null; key: string }
  | { kind: 'https'; url: URL }
  | { kind: 'ipfs'; cid: string; path: string }
  | { kind: 'sha256'; hash: string; inner: string };

const KT1 = /^KT1[1-9A-HJ-NP-Za-km-z]{33}$/;
const CID = /^[A-Za-z0-9]{10,128}$/;
const MAX_URI = 2048;

export interface UriOptions {
  /** Accept plain http:// links (local testing only). Default false. */
  allowHttp?: boolean;
}

const permanent = (msg: string) => new MetadataError(msg, true);

function decode(s: string, what: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw permanent(`invalid percent-encoding in ${what}`);
  }
}

export function parseMetadataUri(raw: string, opts: UriOptions = {}): MetadataUri {
  const uri = raw.trim();
  if (uri.length === 0) throw permanent('empty metadata URI');
  if (uri.length > MAX_URI) throw permanent(`metadata URI longer than ${MAX_URI} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(uri)) throw permanent('metadata URI contains control characters');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(uri)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'tezos-storage': {
      const rest = uri.slice('tezos-storage:'.length);
      if (!rest.startsWith('//'))
        return {
          kind: 'tezos-storage',
          contract: null,
          network: null,
          key: decode(rest, 'tezos-storage key'),
        };
      const slash = rest.indexOf('/', 2);
      if (slash < 0) throw permanent(`tezos-storage URI without a key: ${uri}`);
      const host = rest.slice(2, slash);
      const [contract = '', network = null, ...more] = host.split('.');
      if (!KT1.test(contract) || more.length > 0)
        throw permanent(`tezos-storage URI with an invalid contract: ${host}`);
      return {
        kind: 'tezos-storage',
        contract,
        network,
        key: decode(rest.slice(slash + 1), 'tezos-storage key'),
      };
    }
    case 'https':
    case 'http': {
      if (scheme === 'http' && !opts.allowHttp) throw permanent('http: links are not allowed (https only)');
      let url: URL;
      try {
        url = new URL(uri);
      } catch {
        throw permanent(`invalid URL: ${uri}`);
      }
      if (url.username || url.password) throw permanent('URLs with credentials are not allowed');
      return { kind: 'https', url };
    }
    case 'ipfs': {
      const rest = uri.slice('ipfs://'.length);
      if (!uri.toLowerCase().startsWith('ipfs://')) throw permanent(`invalid ipfs URI: ${uri}`);
      const slash = rest.indexOf('/');
      const cid = slash < 0 ? rest : rest.slice(0, slash);
      const path = slash < 0 ? '' : rest.slice(slash + 1);
      if (!CID.test(cid)) throw permanent(`invalid IPFS CID: ${cid}`);
      if (path.split('/').some((seg) => seg === '..' || seg === '.'))
        throw permanent('IPFS path with dot segments');
      return { kind: 'ipfs', cid, path };
    }
    case 'sha256': {
      const m = /^sha256:\/\/0x([0-9a-fA-F]{64})\/(.+)$/.exec(uri);
      if (!m)
        throw permanent(`invalid sha256 URI (expected sha256://0x<64 hex>/<URI>): ${uri.slice(0, 100)}`);
      return { kind: 'sha256', hash: m[1]!.toLowerCase(), inner: decode(m[2]!, 'sha256 URI') };
    }
    default:
      throw permanent(`unsupported metadata URI scheme: ${scheme ? `${scheme}:` : uri.slice(0, 40)}`);
  }
}

/** The gateway URL of an ipfs:// URI: `<gateway>/<cid>/<path>` (the gateway ends with /ipfs or not, as configured). */
export function ipfsUrl(gateway: string, cid: string, path: string): URL {
  const base = gateway.replace(/\/+$/, '');
  return new URL(`${base}/${cid}${path ? `/${path.split('/').map(encodeURIComponent).join('/')}` : ''}`);
}
