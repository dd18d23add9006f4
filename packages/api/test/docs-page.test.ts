import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeDb } from '@michelscope/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml, renderDocsPage } from '../src/render/docs-page';
import { makeApi } from './helpers';

const COMMITTED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/openapi.json');

describe('renderDocsPage', () => {
  it('escapes every string of the document', () => {
    const evil = '<script>alert("x")</script>';
    const html = renderDocsPage({
      info: { title: evil, version: '"><img src=x>', description: evil },
      paths: {
        [`/v1/${evil}`]: {
          get: {
            summary: evil,
            tags: [evil],
            parameters: [
              { name: evil, in: 'query', schema: { type: 'string', pattern: evil, enum: [evil] } },
            ],
            responses: {
              '200': {
                content: { 'application/json': { schema: { $ref: `#/components/schemas/${evil}` } } },
              },
            },
          },
        },
      },
      components: { schemas: { [evil]: { type: 'object', properties: { [evil]: { type: 'string' } } } } },
    });
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain(escapeHtml(evil));
  });

  it('does not throw on a malformed document', () => {
    for (const doc of [
      null,
      42,
      'x',
      { paths: { '/a': null, '/b': { get: 'x' } } },
      { components: { schemas: [] } },
    ])
      expect(renderDocsPage(doc)).toContain('<html');
  });
});

// PGlite only: a rendered document, no query that differs.
describeDb('GET /v1/docs', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApi(db());
  });
  afterAll(() => app.close());

  it('lists every route and schema of the committed OpenAPI, self-contained', async () => {
    const res = await app.inject('/v1/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const html = res.body;
    const doc = JSON.parse(readFileSync(COMMITTED, 'utf8')) as {
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
      components: { schemas: Record<string, unknown> };
    };
    for (const [p, item] of Object.entries(doc.paths)) {
      expect(html).toContain(`<code>${escapeHtml(p)}</code>`);
      for (const [method, op] of Object.entries(item)) {
        expect(html).toContain(`>${method.toUpperCase()}</span> <code>${escapeHtml(p)}</code>`);
        for (const param of op.parameters ?? [])
          expect(html).toContain(`<code>${escapeHtml(param.name)}</code>`);
      }
    }
    for (const name of Object.keys(doc.components.schemas)) expect(html).toContain(`id="s-${name}"`);
    expect(html).not.toMatch(/<script|src="https?:|href="https?:/);
  });
});
