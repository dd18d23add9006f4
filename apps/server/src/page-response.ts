/**
 * Sending a page: index.html kept compressed (brotli and gzip) per set of route chunks, or a page rendered
 * for one request streamed and compressed as it goes; in the one encoding the browser takes, never cached
 * without revalidation. And the page a client past its page budget gets.
 */
import { PassThrough, type Transform } from 'node:stream';
import {
  brotliCompressSync,
  constants as zlibConstants,
  createBrotliCompress,
  createGzip,
  gzipSync,
} from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { splitForServerPage } from './page-html';
import type { RenderedPage } from './ssr';
import { REVALIDATE } from './static-files';

/** index.html as sent (boot configuration inlined, the route's modulepreloads), and its brotli and gzip forms. */
export interface Shell {
  text: string;
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** A page request past the client's page budget: a short page that says when to come back. */
export function sendTooManyPages(reply: FastifyReply, retryAfter: number) {
  return reply
    .code(429)
    .header('retry-after', String(retryAfter))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many requests · Michelscope</title>' +
        `</head><body><p>Too many pages were asked from your address. Retry in ${retryAfter} s.</p></body></html>`,
    );
}

/**
 * A page made for one request, streamed and compressed in the one encoding the browser takes: the head goes
 * (flushed) while the page renders, so the browser fetches the app's code and data meanwhile.
 */
export function sendRendered(
  request: FastifyRequest,
  reply: FastifyReply,
  html: string,
  rendered: Promise<RenderedPage | null>,
  /** The route's API requests, announced after all when the page comes back without any answer. */
  fetches: readonly string[] = [],
) {
  const encoding = pageEncoding(request, reply);
  const out: Transform =
    encoding === 'br'
      ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
      : encoding === 'gzip'
        ? createGzip({ level: 6 })
        : new PassThrough();
  if (encoding === 'br' || encoding === 'gzip') reply.header('content-encoding', encoding);
  const [head, tail] = splitForServerPage(html);
  out.write(head);
  if (!(out instanceof PassThrough)) (out as Transform & { flush(): void }).flush();
  void rendered.then((page) => out.end(tail(page, fetches)));
  return reply.send(out);
}

/** index.html and its brotli and gzip forms. */
export function compressShell(html: string): Shell {
  const raw = Buffer.from(html);
  return {
    text: html,
    html: raw,
    // per-address pages are compressed on each request: a fast brotli level (index.html is ~2 kB)
    br: brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
    gzip: gzipSync(raw, { level: 9 }),
  };
}

/** Sets a page's headers (no-cache, HTML, varies by encoding); the encoding the browser takes, if any. */
function pageEncoding(request: FastifyRequest, reply: FastifyReply): string | null {
  const header = request.headers['accept-encoding'];
  reply
    .header('cache-control', REVALIDATE)
    .header('vary', 'accept-encoding')
    .type('text/html; charset=utf-8');
  return typeof header === 'string' ? negotiate(header, ['br', 'gzip', 'identity']) : null;
}

/** index.html as compressed, in the encoding the browser takes. */
export function sendShell(request: FastifyRequest, reply: FastifyReply, shell: Shell) {
  const encoding = pageEncoding(request, reply);
  if (encoding === 'br') return reply.header('content-encoding', 'br').send(shell.br);
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(shell.gzip);
  return reply.send(shell.html);
}
