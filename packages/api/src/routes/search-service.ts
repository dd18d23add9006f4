import {
  ErrorBody,
  NetworkName,
  SearchRequest,
  SearchResponse,
  SuggestResponse,
} from '@michelscope/api-types';
import { aliasOf, tokenMimeTypes } from '@michelscope/db/read';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import { runSearch } from '../services/search';
import { ADDRESS_RE, requireAddress, requireNetwork } from '../validate';

const E = { 400: ErrorBody, 500: ErrorBody };
const tags = ['search'];
export const SUGGEST_SIZE = 10;
const MIME_TTL_MS = 60_000;

/** The search service, mounted at /search/v1 (discovery spec §7). */
export const searchServiceRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.post(
    '/suggest',
    {
      schema: {
        summary: 'Suggestions for a query (10 by default)',
        tags,
        body: Type.Object({
          query: Type.String({ maxLength: 100_000 }),
          size: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
          filters: Type.Optional(Type.Unknown()),
        }),
        response: { 200: SuggestResponse, ...E },
      },
    },
    async (request) => {
      const size = request.body.size || SUGGEST_SIZE;
      const { items } = await runSearch(ctx, {
        query: request.body.query,
        size,
        offset: 0,
        highlight: true,
        filters: request.body.filters,
        withTotal: false,
      });
      return { items };
    },
  );

  app.post(
    '/search',
    {
      schema: {
        summary: 'Search with filters, highlights, found_by; total capped at 10000; took in ms',
        tags,
        body: SearchRequest,
        response: { 200: SearchResponse, ...E },
      },
    },
    async (request) => {
      const started = performance.now();
      const b = request.body;
      const { items, total } = await runSearch(ctx, {
        query: b.query,
        size: b.size || 10,
        offset: b.offset ?? 0,
        highlight: b.disable_highlight !== true,
        filters: b.filters,
      });
      return { items, total, took: Math.round(performance.now() - started) };
    },
  );

  app.get(
    '/account/:network/:address',
    {
      schema: {
        summary: 'Alias of an account (204 when none is known)',
        description:
          'Sources in priority order: `TzKT` (the indexer name: contract metadata), `TZIP` (token metadata name); each `{Name}`.',
        tags,
        params: Type.Object({ network: NetworkName, address: Type.String({ maxLength: 64 }) }),
        response: {
          200: Type.Record(Type.String(), Type.Object({ Name: Type.String() })),
          204: Type.Null(),
          ...E,
        },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, ADDRESS_RE, 'address');
      const a = await aliasOf(ctx.db, network, address);
      const out: Record<string, { Name: string }> = {};
      if (a.metadata) out.TzKT = { Name: a.metadata };
      if (a.token) out.TZIP = { Name: a.token };
      if (!Object.keys(out).length) return reply.code(204).send(null);
      return out;
    },
  );

  app.get(
    '/mime_types',
    {
      schema: {
        summary: 'Mime types of token files',
        tags,
        response: { 200: Type.Array(Type.Object({ name: Type.String() })), ...E },
      },
    },
    async () =>
      ctx.cache.get('search:mime_types', MIME_TTL_MS, async () =>
        (await tokenMimeTypes(ctx.db)).map((name) => ({ name })),
      ),
  );
};
