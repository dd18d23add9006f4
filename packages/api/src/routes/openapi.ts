import type { FastifyPluginAsync } from 'fastify';
import { renderDocsPage } from '../render/docs-page';

/** GET /v1/openapi.json: the OpenAPI document generated from the route schemas (= docs/openapi.json). */
export const openapiRoute: FastifyPluginAsync<{ document: () => unknown }> = async (app, { document }) => {
  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(JSON.stringify(document(), null, 2)),
  );
  let page: string | undefined;
  /** GET /v1/docs: a readable, self-contained HTML reference of the same document. */
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    page ??= renderDocsPage(document());
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(page);
  });
};
