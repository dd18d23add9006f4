import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Paths that belong to the APIs: never answered with the SPA's index.html. The SPA itself owns /search
 * (search page), so only the services' versioned bases are reserved.
 */
const API_PREFIXES = ['/v1/', '/rpc/', '/search/v1/', '/stats/v1/', '/metadata/v1/'];

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Vite's content-hashed output: a new build gives new names, so a browser may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page (and unhashed files such as the favicon) is revalidated on every load: it names the assets. */
const REVALIDATE = 'no-cache';
/** The id of the `<script type="application/json">` block of index.html that carries GET /v1/config. */
export const BOOT_CONFIG_ID = 'ms-boot-config';

export interface WebOptions {
  distDir?: string;
  /**
   * The answer of GET /v1/config, inlined in index.html so that the app starts without waiting for it
   * (read once, at the first page request: the configuration does not change while the server runs).
   */
  bootConfig?: () => Promise<unknown>;
}

/**
 * Serves the built SPA with a history fallback: any other GET that accepts HTML gets index.html, so deep
 * links such as /mainnet/KT1…/storage load the app. API paths keep JSON 404 bodies.
 *
 * Assets are served from the brotli / gzip files the build writes beside them (`preCompressed`), chosen by
 * `accept-encoding`; hashed assets (under /assets/) are immutable for a year, everything else `no-cache`.
 */
export async function registerWeb(app: FastifyInstance, opts: WebOptions = {}): Promise<void> {
  const distDir = opts.distDir ?? WEB_DIST;
  const built = existsSync(path.join(distDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) => {
        reply.header('cache-control', cacheControlOf(distDir, file));
      },
    });
  }
  let shell: Promise<Shell> | undefined;
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => url.startsWith(p) || url === p.slice(0, -1));
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({ message: 'not found' });
    }
    if (!built) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built yet: run `npm run build:web` (npm start does it for you).');
    }
    // A file added to dist after start (the app rebuilt under a running server) is served from disk; a
    // missing asset is a 404, never index.html (a script answered with HTML leaves a blank page).
    if (url.startsWith('/assets/')) {
      const file = builtFile(distDir, url);
      if (!file) return reply.code(404).type('text/plain').send('not found');
      return reply.sendFile(file, distDir);
    }
    shell ??= loadShell(distDir, opts.bootConfig);
    return sendShell(request, reply, await shell);
  });
}

function cacheControlOf(distDir: string, file: string): string {
  const rel = path.relative(distDir, file).split(path.sep);
  return rel.length > 1 && rel[0] === 'assets' ? IMMUTABLE : REVALIDATE;
}

/** index.html with the boot configuration inlined, and its brotli and gzip forms. */
interface Shell {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

async function loadShell(distDir: string, bootConfig: WebOptions['bootConfig']): Promise<Shell> {
  let html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  if (bootConfig) {
    try {
      html = inlineBootConfig(html, await bootConfig());
    } catch {
      // The app asks GET /v1/config itself when the block is missing.
    }
  }
  const raw = Buffer.from(html);
  return { html: raw, br: brotliCompressSync(raw), gzip: gzipSync(raw, { level: 9 }) };
}

/**
 * Adds `<script type="application/json" id="ms-boot-config">` before `</head>`. It is data, not script
 * (a Content-Security-Policy without 'unsafe-inline' allows it); `<`, `>`, `&` and the JavaScript line
 * separators are escaped so that no value can close the element.
 */
export function inlineBootConfig(html: string, config: unknown): string {
  const json = JSON.stringify(config).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const block = `<script type="application/json" id="${BOOT_CONFIG_ID}">${json}</script>`;
  return html.includes('</head>') ? html.replace('</head>', `${block}\n</head>`) : block + html;
}

function sendShell(request: FastifyRequest, reply: FastifyReply, shell: Shell) {
  const header = request.headers['accept-encoding'];
  const encoding = typeof header === 'string' ? negotiate(header, ['br', 'gzip', 'identity']) : null;
  reply
    .header('cache-control', REVALIDATE)
    .header('vary', 'accept-encoding')
    .type('text/html; charset=utf-8');
  if (encoding === 'br') return reply.header('content-encoding', 'br').send(shell.br);
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(shell.gzip);
  return reply.send(shell.html);
}

/** The path of `url` relative to `distDir` when it names a regular file inside it, else null. */
function builtFile(distDir: string, url: string): string | null {
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
