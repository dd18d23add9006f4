/**
 * The webhook URL check (issue 39): http or https only, no credentials in it, and a host whose every address is
 * public — no loopback, link-local, private (RFC 1918, IPv6 ULA), CGNAT (100.64/10), multicast, unspecified,
 * reserved or documentation range, IPv4-mapped forms included — unless the operator allows private targets
 * (`watch.allow_private_targets`). Checked when a rule is created and again at each delivery through the
 * connection's own DNS lookup (`guardedLookup`), so a name that resolves elsewhere later (DNS rebinding) is
 * refused at the moment of the connection.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 (embeds IPv4)
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds IPv4)
  ['fc00::', 7], // ULA
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address carries (`::ffff:127.0.0.1`), else undefined. */
function embeddedV4(address: string): string | undefined {
  const m = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1];
  const h = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (h) {
    const a = parseInt(h[1]!, 16);
    const b = parseInt(h[2]!, 16);
    return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
  }
  return undefined;
}

/** Whether an IP address is not a public unicast one (loopback, private, link-local, multicast, …). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedV4(address);
    if (v4) return blocked.check(v4, 'ipv4');
    // IPv4-mapped in any other spelling (::ffff:0:0/96) is refused whole
    if (/^::ffff:/i.test(address)) return true;
    return blocked.check(address, 'ipv6');
  }
  return true;
}

export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses: LookupAddress[]) =>
      err ? reject(err) : resolve(addresses.map((a) => a.address)),
    ),
  );

/** A refused URL: the message says why (a 400's). */
export class WebhookUrlError extends Error {}

/**
 * Checks a webhook URL; throws `WebhookUrlError` naming the problem. `allowPrivate` lets any address through
 * (the operator's `watch.allow_private_targets`, e.g. a receiver on 127.0.0.1 in tests).
 */
export async function checkWebhookUrl(
  raw: string,
  opts: { allowPrivate: boolean; resolve?: Resolver },
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError('url is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebhookUrlError('url must be http:// or https://');
  if (url.username || url.password) throw new WebhookUrlError('url must not hold credentials');
  if (opts.allowPrivate) return url;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    if (/^localhost$|\.localhost$/i.test(host))
      throw new WebhookUrlError(`url's host ${host} is a loopback name`);
    try {
      addresses = await (opts.resolve ?? systemResolver)(host);
    } catch {
      throw new WebhookUrlError(`url's host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw new WebhookUrlError(`url's host ${host} does not resolve`);
  }
  const bad = addresses.find(isPrivateAddress);
  if (bad)
    throw new WebhookUrlError(
      `url's host ${host} is ${bad === host ? 'a' : `at ${bad}, a`} loopback, link-local, private, multicast or reserved address`,
    );
  return url;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for node:http(s) requests that refuses private addresses at connection time (DNS rebinding): the
 * address connected to is the one checked.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, []);
      const ok = allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
      if (ok.length === 0) {
        const e = new Error(`${hostname} resolves to a private address`) as NodeJS.ErrnoException;
        e.code = 'EPRIVATE';
        return callback(e, []);
      }
      if ((options as { all?: boolean }).all) return callback(null, ok);
      return callback(null, ok[0]!.address, ok[0]!.family);
    });
  };
}
