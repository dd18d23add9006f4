import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Paths that belong to the APIs: never answered with the SPA's index.html. The SPA itself owns /search
 * (search page), so only the services' versioned bases are reserved.
 */
const API_PREFIXES = ['/v1/', '/rpc/', '/search/v1/', '/stats/v1/', '/metadata/v1/'];

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/**
 * Serves the built SPA with a history fallback: any other GET that accepts HTML gets index.html, so deep
 * links such as /mainnet/KT1…/storage load the app. API paths keep JSON 404 bodies.
 */
export async function registerWeb(app: FastifyInstance, distDir = WEB_DIST): Promise<void> {
  const built = existsSync(path.join(distDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      maxAge: '1h',
      immutable: false,
    });
  }
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
      return reply.header('cache-control', 'public, max-age=31536000, immutable').sendFile(file, distDir);
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', distDir);
  });
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
