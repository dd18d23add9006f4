import { existsSync } from 'node:fs';
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
    return reply.header('cache-control', 'no-cache').sendFile('index.html', distDir);
  });
}
