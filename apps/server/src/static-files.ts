/**
 * The web build's files (dist): served from the brotli / gzip files the build writes beside them, chosen by
 * `accept-encoding`, with their caching headers; hashed assets (under /assets/) are immutable for a year,
 * everything else (index.html included) `no-cache`.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Vite's content-hashed output: a new build gives new names, so a browser may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * Security headers that only a document (or a worker script, which the app has none of) obeys: a hashed
 * script, style sheet or font does not carry them, ~0.7 kB less on each of a page's asset requests (HTTP/1.1
 * sends headers uncompressed). They keep `x-content-type-options: nosniff` and the resource policy.
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
/** The page (and unhashed files such as the favicon) is revalidated on every load: it names the assets. */
export const REVALIDATE = 'no-cache';

/** Serves the files of `distDir` (no index, no wildcard: the history fallback answers the rest). */
export async function registerStaticFiles(app: FastifyInstance, distDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => {
      const cacheControl = cacheControlOf(distDir, file);
      reply.header('cache-control', cacheControl);
      if (cacheControl === IMMUTABLE) for (const h of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(h);
    },
  });
}

function cacheControlOf(distDir: string, file: string): string {
  const rel = path.relative(distDir, file).split(path.sep);
  return rel.length > 1 && rel[0] === 'assets' ? IMMUTABLE : REVALIDATE;
}

/** The path of `url` relative to `distDir` when it names a regular file inside it, else null. */
export function builtFile(distDir: string, url: string): string | null {
  let rel: string;
  try {
    rel = decodeURIComponent(url).replace(/^\/+/, '');
  } catch {
    return null;
  }
  const full = path.resolve(distDir, rel);
  if (!full.startsWith(distDir + path.sep)) return null;
  try {
    return statSync(full).isFile() ? path.relative(distDir, full) : null;
  } catch {
    return null;
  }
}
