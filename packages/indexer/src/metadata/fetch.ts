/**
 * Bounded HTTP(S) GET for untrusted metadata links: a size limit (the body is cut and refused once it
 * exceeds it), a time limit for the whole exchange, at most 3 redirects (each re-checked against the
 * allowed schemes), and, unless `allowPrivateHosts`, no connection to loopback/private/link-local
 * addresses (checked on the resolved IP, so a DNS name pointing inside is refused too).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { MetadataError } from './uri';

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Allow plain http (local tests, a local IPFS gateway). */
  allowHttp: boolean;
  /** Allow loopback / private addresses (local tests, a local gateway or node). */
  allowPrivateHosts: boolean;
  signal?: AbortSignal;
}

const MAX_REDIRECTS = 3;

function isPublic(ip: string): boolean {
  try {
    const addr = ipaddr.process(ip);
    return addr.range() === 'unicast';
  } catch {
    return false;
  }
}

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 4);
    const bad = addresses.find((a) => !isPublic(a.address));
    if (bad || addresses.length === 0) {
      return callback(
        new Error(`${hostname} resolves to a non-public address${bad ? ` (${bad.address})` : ''}`),
        '',
        4,
      );
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
};

/** GETs `url` and returns the body; throws MetadataError (transient for network/5xx, permanent for size/scheme). */
export async function fetchLimited(url: URL, limits: FetchLimits, redirects = 0): Promise<Buffer> {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && limits.allowHttp)) {
    throw new MetadataError(`refusing to fetch ${url.protocol} URL`, true);
  }
  if (
    !limits.allowPrivateHosts &&
    ipaddr.isValid(url.hostname.replace(/^\[|\]$/g, '')) &&
    !isPublic(url.hostname.replace(/^\[|\]$/g, ''))
  ) {
    throw new MetadataError(`refusing to fetch a non-public address: ${url.hostname}`, true);
  }
  const mod = url.protocol === 'https:' ? https : http;
  // One controller per request, aborted by its own timer or by the resolver's stop signal; both are
  // removed when the request ends. (AbortSignal.any over AbortSignal.timeout holds the timeout signal
  // weakly: a garbage collection during a slow response could drop it, and the request never timed out.)
  const controller = new AbortController();
  const signal = controller.signal;
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  const stop = () => controller.abort();
  if (limits.signal?.aborted) controller.abort();
  else limits.signal?.addEventListener('abort', stop, { once: true });
  const res = await new Promise<{ status: number; location?: string; body: Buffer }>((resolve, reject) => {
    const req = mod.get(
      url,
      {
        signal,
        headers: { accept: 'application/json, */*;q=0.5', 'user-agent': 'michelscope-metadata-resolver' },
        ...(limits.allowPrivateHosts ? {} : { lookup: guardedLookup }),
      },
      (r) => {
        const status = r.statusCode ?? 0;
        if (status >= 300 && status < 400 && r.headers.location) {
          r.resume();
          resolve({ status, location: r.headers.location, body: Buffer.alloc(0) });
          return;
        }
        const declared = Number(r.headers['content-length']);
        if (Number.isFinite(declared) && declared > limits.maxBytes) {
          r.destroy();
          reject(
            new MetadataError(
              `response of ${declared} bytes exceeds the ${limits.maxBytes}-byte limit`,
              true,
            ),
          );
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        r.on('data', (c: Buffer) => {
          size += c.length;
          if (size > limits.maxBytes) {
            r.destroy();
            reject(new MetadataError(`response exceeds the ${limits.maxBytes}-byte limit`, true));
            return;
          }
          chunks.push(c);
        });
        r.on('end', () => resolve({ status, body: Buffer.concat(chunks) }));
        r.on('error', (e) => reject(transient(e, signal)));
      },
    );
    req.on('error', (e) => reject(transient(e, signal)));
  }).finally(() => {
    clearTimeout(timer);
    limits.signal?.removeEventListener('abort', stop);
  });
  if (res.location !== undefined) {
    if (redirects >= MAX_REDIRECTS) throw new MetadataError(`more than ${MAX_REDIRECTS} redirects`, true);
    let next: URL;
    try {
      next = new URL(res.location, url);
    } catch {
      throw new MetadataError(`invalid redirect location: ${res.location.slice(0, 100)}`, true);
    }
    return fetchLimited(next, limits, redirects + 1);
  }
  if (res.status >= 500 || res.status === 429 || res.status === 408)
    throw new MetadataError(`HTTP ${res.status} from ${url.host}`, false);
  // 404 is retried too: IPFS gateways answer it for content not found yet.
  if (res.status === 404) throw new MetadataError(`HTTP 404 from ${url.host}`, false);
  if (res.status < 200 || res.status >= 300)
    throw new MetadataError(`HTTP ${res.status} from ${url.host}`, true);
  return res.body;
}

function transient(e: unknown, signal: AbortSignal): MetadataError {
  if (e instanceof MetadataError) return e;
  const err = e as NodeJS.ErrnoException;
  if (signal.aborted) return new MetadataError('timed out', false);
  if (/non-public address/.test(err.message)) return new MetadataError(err.message, true);
  return new MetadataError(`fetch failed: ${err.code ?? err.message}`, false);
}
