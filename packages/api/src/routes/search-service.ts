import {
  AliasSources,
  ErrorBody,
  MimeTypeList,
  NetworkName,
  SearchResultExportRow,
  SearchFilters,
  SearchItem,
  SearchRequest,
  SearchResponse,
  SuggestRequest,
  SuggestResponse,
} from '@michelscope/api-types';
import { aliasOf, SEARCH_TOTAL_CAP, tokenMimeTypes } from '@michelscope/db/read';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import { exportBody, exportDescription, FormatParam, sendExport, tableColumns } from '../export/writer';
import { runSearch } from '../services/search';
import { ADDRESS_RE, requireAddress, requireNetwork } from '../validate';

const E = { 400: ErrorBody, 500: ErrorBody };
const tags = ['search'];
export const SUGGEST_SIZE = 10;
const MIME_TTL_MS = 60_000;
/** Results read per search of an export. */
const EXPORT_PAGE = 100;

/** The name of a result: its own (token, readable key), else a contract's alias (its TZIP-16 name). */
function nameOf(i: SearchItem): string | null {
  switch (i.type) {
    case 'token':
    case 'bigmapkey':
      return i.body.Name || null;
    case 'account':
      return i.body.TzKT?.Name || i.body.TZIP?.Name || null;
    case 'operation':
      return null;
  }
}

export const SEARCH_COLUMNS = tableColumns<SearchItem>()(SearchResultExportRow, {
  type: (i) => i.type,
  network: (i) => i.body.Network,
  value: (i) => i.value,
  name: nameOf,
  found_by: (i) => i.found_by ?? null,
  level: (i) => (i.type === 'operation' ? i.body.Level : null),
  timestamp: (i) => (i.type === 'operation' || i.type === 'bigmapkey' ? i.body['@timestamp'] : null),
  body: (i) => i.body,
});

/** The search service, mounted at /search/v1 (discovery spec §7). */
export const searchServiceRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.post(
    '/suggest',
    {
      schema: {
        summary: 'Suggestions for a query (10 by default)',
        tags,
        body: SuggestRequest,
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

  app.post(
    '/search/export',
    {
      schema: {
        summary: 'Export the results of a search as CSV or JSON (streamed)',
        description: exportDescription(
          'Every result of the search (the body of `POST /search` without paging: `query` and `filters`), in ' +
            `its order, up to the search's cap of ${SEARCH_TOTAL_CAP} results, read ${EXPORT_PAGE} at a time.`,
          SEARCH_COLUMNS,
        ),
        tags,
        querystring: Type.Object({ format: FormatParam }),
        body: Type.Object({
          query: Type.String({ maxLength: 100_000 }),
          filters: Type.Optional(SearchFilters),
        }),
        response: { 200: exportBody(SearchResultExportRow), ...E },
      },
    },
    async (request, reply) => {
      const { query, filters } = request.body;
      async function* pages(): AsyncGenerator<SearchItem[]> {
        let loaded = 0;
        while (loaded < SEARCH_TOTAL_CAP) {
          const { items } = await runSearch(ctx, {
            query,
            size: EXPORT_PAGE,
            offset: loaded,
            highlight: false,
            filters,
          });
          if (items.length) yield items;
          loaded += items.length;
          if (items.length < EXPORT_PAGE) return;
        }
      }
      return sendExport(reply, {
        format: request.query.format ?? 'csv',
        name: ['search', query.trim().slice(0, 40)],
        columns: SEARCH_COLUMNS,
        batches: pages(),
      });
    },
  );

  app.get(
    '/account/:network/:address',
    {
      schema: {
        summary: 'Alias of an account (204 when none is known)',
        tags,
        params: Type.Object({ network: NetworkName, address: Type.String({ maxLength: 64 }) }),
        response: {
          200: AliasSources,
          204: Type.Null(),
          ...E,
        },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, ADDRESS_RE, 'address');
      const a = await aliasOf(ctx.readDb, network, address);
      // the contract's TZIP-16 name (no TzKT alias list here; a token's name is the token's)
      if (!a.metadata) return reply.code(204).send(null);
      const out: AliasSources = { TZIP: { Name: a.metadata } };
      return out;
    },
  );

  app.get(
    '/mime_types',
    {
      schema: {
        summary: 'Mime types of token files',
        tags,
        response: { 200: MimeTypeList, ...E },
      },
    },
    async () =>
      ctx.cache.get('search:mime_types', MIME_TTL_MS, async () =>
        (await tokenMimeTypes(ctx.readDb)).map((name) => ({ name })),
      ),
  );
};
