/**
 * Exports (issue 21 part 3): every table the app lists, as CSV or JSON, streamed from the database in keyset
 * batches by the one mechanism of ../export/writer.ts. Each route sits next to its list route
 * (`<list>/export`) and takes that list's filters; its columns are the api-types row schema's, documented.
 *
 * Over ~400 lines because it is one route plugin with one route per exported list, each a few lines of
 * filters and columns over the shared writer; splitting them would scatter routes that must stay alike.
 */
import {
  BigMapKeyExportRow,
  BigMapKeyHistoryExportRow,
  EventExportRow,
  MigrationExportRow,
  NetworkName,
  OperationExportRow,
  RecentlyCalledExportRow,
  SameContractExportRow,
  TicketUpdateExportRow,
  TokenExportRow,
  TokenHolderExportRow,
  PartialHistoryHeaders,
} from '@michelscope/api-types';
import {
  accountOperationsAll,
  accountTicketUpdatesAll,
  bigMapKeyCounts,
  bigMapKeyDiffsAll,
  bigMapKeysAll,
  contractEventsAll,
  contractTokensAll,
  getAccount,
  getBigMap,
  getContract,
  liveBigMapEntriesAll,
  migrationsAll,
  operationById,
  recentlyCalledAll,
  sameContractsAll,
  ticketUpdatesOfOperation,
} from '@michelscope/db/read';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import {
  EVENT_COLUMNS,
  HOLDER_COLUMNS,
  KEY_HISTORY_COLUMNS,
  keyColumns,
  MIGRATION_COLUMNS,
  OPERATION_COLUMNS,
  RECENT_COLUMNS,
  SAME_COLUMNS,
  TICKET_UPDATE_COLUMNS,
  TOKEN_COLUMNS,
  type Holder,
} from '../export/columns';
import { EXPORT_ERRORS, FormatQuery, formatOf, simpleExport } from '../export/export-route';
import { exportBody, exportDescription, FormatParam, sendExport } from '../export/writer';
import { typesOf } from '../render/big-map-keys';
import { markPartialHistory } from '../services/contracts';
import { ledgerHolder, ledgerMatch, ledgerOf } from '../services/tokens';
import {
  ADDRESS_RE,
  AddressParams,
  NetworkParams,
  requireAddress,
  requireContractPath,
  requireNetwork,
} from '../validate';

/** The statuses the database holds (mempool statuses are never stored). */
const STATUSES = ['applied', 'failed', 'backtracked', 'skipped'];

const list = (v: string | undefined) =>
  v === undefined || v === ''
    ? []
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

const Level = () => Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 }));
const PtrParams = Type.Object({
  network: NetworkName,
  ptr: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
});
const KeyParams = Type.Object({
  network: NetworkName,
  ptr: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  key_hash: Type.String({ pattern: '^expr[1-9A-HJ-NP-Za-km-z]{50}$' }),
});

/** Async-maps each batch (the holders export drops ledger entries off the layout or at zero). */
async function* mapBatches<A, B>(batches: AsyncIterable<A[]>, f: (a: A) => B | undefined) {
  for await (const batch of batches) {
    const out: B[] = [];
    for (const a of batch) {
      const b = f(a);
      if (b !== undefined) out.push(b);
    }
    yield out;
  }
}

export const exportRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  const contractPath = (p: { network: string; address: string }) => requireContractPath(ctx, p);

  app.get(
    '/contract/:network/:address/operations/export',
    {
      schema: {
        summary: "Export an account's operations as CSV or JSON (streamed)",
        description: exportDescription(
          'Every operation of the account (as source or destination), newest first, with the operations ' +
            "tab's filters: `status` and `entrypoint` (comma-separated lists), `from` / `to` (block time, ms " +
            "since the epoch, [from, to)), `search` (the tab's text: an address on the other side, or the " +
            'start of an operation group hash).',
          OPERATION_COLUMNS,
        ),
        tags: ['contract'],
        params: AddressParams,
        querystring: Type.Object({
          format: FormatParam,
          status: Type.Optional(Type.String({ maxLength: 200 })),
          entrypoint: Type.Optional(Type.String({ maxLength: 5000 })),
          from: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 })),
          to: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 })),
          search: Type.Optional(Type.String({ maxLength: 255 })),
        }),
        response: { 200: exportBody(OperationExportRow), ...EXPORT_ERRORS },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, ADDRESS_RE, 'address', 404);
      const q = request.query;
      const statuses = list(q.status);
      const bad = statuses.find((s) => !STATUSES.includes(s));
      if (bad !== undefined) throw new HttpError(400, `unknown status: ${bad.slice(0, 40)}`);
      const entrypoints = list(q.entrypoint);
      if (entrypoints.length > 100 || entrypoints.some((e) => e.length > 255))
        throw new HttpError(400, 'at most 100 entrypoints of at most 255 characters');
      // no entrypoint's name holds a NUL, and the database refuses one in a text parameter
      if (entrypoints.some((e) => e.includes('\0')))
        throw new HttpError(400, 'an entrypoint name holds no NUL');
      if (!(await getAccount(ctx.readDb, network, address))) throw new HttpError(404, 'not found');
      const filters = {
        statuses,
        entrypoints,
        from: q.from ?? null,
        to: q.to ?? null,
        text: q.search?.replace(/\0/g, '').trim() ?? '',
      };
      return sendExport(reply, {
        format: formatOf(q.format),
        name: [address, 'operations'],
        columns: OPERATION_COLUMNS,
        batches: accountOperationsAll(ctx.readDb, network, address, filters),
      });
    },
  );

  app.get(
    '/bigmap/:network/:ptr/keys/export',
    {
      schema: {
        summary: 'Export the keys of a big map as CSV or JSON (streamed)',
        description: exportDescription(
          "Keys of the big map, newest update first, with the keys list's filters: `search` (3 characters or " +
            'more: a key hash, or text in the readable key or its JSON), `active_only`, `min_level` (inclusive) ' +
            'and `max_level` (exclusive) on the last update. Each key with its current value.',
          keyColumns(undefined),
        ),
        tags: ['bigmap'],
        params: PtrParams,
        querystring: Type.Object({
          format: FormatParam,
          search: Type.Optional(Type.String({ maxLength: 255 })),
          active_only: Type.Optional(Type.Boolean()),
          min_level: Level(),
          max_level: Level(),
        }),
        response: { 200: exportBody(BigMapKeyExportRow), ...EXPORT_ERRORS },
      },
    },
    async (request, reply) => {
      const { network, ptr } = request.params;
      requireNetwork(ctx, network);
      const q = request.query;
      if (q.max_level !== undefined && q.min_level !== undefined && q.max_level <= q.min_level)
        throw new HttpError(400, 'max_level must be greater than min_level');
      const row = await getBigMap(ctx.readDb, network, ptr);
      if (!row && (await bigMapKeyCounts(ctx.readDb, network, ptr)).total === 0)
        throw new HttpError(404, 'not found');
      const search = q.search?.replace(/\0/g, '').trim();
      return sendExport(reply, {
        format: formatOf(q.format),
        name: [network, 'big_map', ptr, 'keys'],
        columns: keyColumns(typesOf(row)?.key),
        batches: bigMapKeysAll(ctx.readDb, network, ptr, {
          minLevel: q.min_level,
          maxLevel: q.max_level,
          activeOnly: q.active_only,
          search: search && search.length > 2 ? search : undefined,
        }),
      });
    },
  );

  simpleExport(app, '/bigmap/:network/:ptr/keys/:key_hash/export', {
    summary: 'Export the history of a big-map key as CSV or JSON (streamed)',
    description: 'Every update of the key, newest first.',
    tag: 'bigmap',
    params: KeyParams,
    row: BigMapKeyHistoryExportRow,
    columns: KEY_HISTORY_COLUMNS,
    async open({ network, ptr, key_hash }) {
      requireNetwork(ctx, network);
      return {
        name: [network, 'big_map', ptr, key_hash],
        batches: bigMapKeyDiffsAll(ctx.readDb, network, ptr, key_hash),
      };
    },
  });

  simpleExport(app, '/contract/:network/:address/events/export', {
    summary: 'Export the events of a contract as CSV or JSON (streamed)',
    description: 'Events the contract emitted, newest first.',
    tag: 'contract',
    params: AddressParams,
    row: EventExportRow,
    columns: EVENT_COLUMNS,
    async open(params) {
      const { network, address } = params;
      contractPath(params);
      if (!(await getAccount(ctx.readDb, network, address))) throw new HttpError(404, 'not found');
      return { name: [address, 'events'], batches: contractEventsAll(ctx.readDb, network, address) };
    },
  });

  simpleExport(app, '/account/:network/:address/ticket_updates/export', {
    summary: 'Export the ticket updates of an account as CSV or JSON (streamed)',
    description: 'Updates of the tickets the account holds or issued, newest first (its ticket updates tab).',
    tag: 'account',
    params: AddressParams,
    row: TicketUpdateExportRow,
    columns: TICKET_UPDATE_COLUMNS,
    async open({ network, address }) {
      requireNetwork(ctx, network);
      requireAddress(address, ADDRESS_RE, 'address', 404);
      if (!(await getAccount(ctx.readDb, network, address))) throw new HttpError(404, 'not found');
      return {
        name: [address, 'ticket_updates'],
        batches: accountTicketUpdatesAll(ctx.readDb, network, address),
      };
    },
  });

  app.get(
    '/operation/:network/:id/ticket_updates/export',
    {
      schema: {
        summary: 'Export the ticket updates of an operation as CSV or JSON',
        description: exportDescription(
          "Updates of tickets made by the operation, in the order applied (its page's ticket updates list, " +
            'at most 1,000 rows as the list).',
          TICKET_UPDATE_COLUMNS,
        ),
        tags: ['operation'],
        params: Type.Object({
          network: NetworkName,
          id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
        }),
        querystring: FormatQuery(),
        response: { 200: exportBody(TicketUpdateExportRow), ...EXPORT_ERRORS },
      },
    },
    async (request, reply) => {
      const { network, id } = request.params;
      requireNetwork(ctx, network);
      const op = await operationById(ctx.readDb, network, id);
      if (!op) throw new HttpError(404, 'not found');
      // bounded by the operation (the list's 1,000): one batch
      const rows = await ticketUpdatesOfOperation(ctx.readDb, network, op.id);
      return sendExport(reply, {
        format: formatOf(request.query.format),
        name: [op.hash ?? String(op.id), 'ticket_updates'],
        columns: TICKET_UPDATE_COLUMNS,
        batches: (async function* () {
          yield rows.map((r) => ({ ...r, operation_hash: r.operation_hash ?? op.hash ?? null }));
        })(),
      });
    },
  );

  app.get(
    '/contract/:network/:address/tokens/export',
    {
      schema: {
        summary: 'Export the tokens of a contract as CSV or JSON (streamed)',
        description: exportDescription(
          "Tokens of the contract by token id, with the tokens tab's `search` (text in the name or symbol, " +
            'or a token id).',
          TOKEN_COLUMNS,
        ),
        tags: ['tokens'],
        params: AddressParams,
        querystring: Type.Object({
          format: FormatParam,
          search: Type.Optional(Type.String({ maxLength: 255 })),
        }),
        response: { 200: exportBody(TokenExportRow, PartialHistoryHeaders), ...EXPORT_ERRORS },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      contractPath(request.params);
      if (!(await getContract(ctx.readDb, network, address))) throw new HttpError(404, 'not found');
      await markPartialHistory(ctx, reply, network, address);
      return sendExport(reply, {
        format: formatOf(request.query.format),
        name: [address, 'tokens'],
        columns: TOKEN_COLUMNS,
        batches: contractTokensAll(
          ctx.readDb,
          network,
          address,
          request.query.search?.replace(/\0/g, '').trim() ?? '',
        ),
      });
    },
  );

  app.get(
    '/contract/:network/:address/tokens/holders/export',
    {
      schema: {
        summary: 'Export the holders of a token as CSV or JSON (streamed)',
        description: exportDescription(
          "Holders of token `token_id` (default 0) and their balances, read from the contract's `ledger` big " +
            'map (the layouts of `GET …/tokens/holders`), oldest key first, zero balances left out; no rows ' +
            'for another layout or no ledger. Unlike `…/tokens/holders`, not capped.',
          HOLDER_COLUMNS,
        ),
        tags: ['tokens'],
        params: AddressParams,
        querystring: Type.Object({
          format: FormatParam,
          token_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,78}$', description: 'default 0' })),
        }),
        response: { 200: exportBody(TokenHolderExportRow, PartialHistoryHeaders), ...EXPORT_ERRORS },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      contractPath(request.params);
      if (!(await getContract(ctx.readDb, network, address))) throw new HttpError(404, 'not found');
      await markPartialHistory(ctx, reply, network, address);
      const tokenId = (request.query.token_id ?? '0').replace(/^0+(?=\d)/, '');
      const ledger = await ledgerOf(ctx, network, address);
      const match = ledger ? ledgerMatch(ledger.layout, tokenId) : null;
      async function* none(): AsyncGenerator<Holder[]> {}
      return sendExport(reply, {
        format: formatOf(request.query.format),
        name: [address, 'token', tokenId, 'holders'],
        columns: HOLDER_COLUMNS,
        batches:
          ledger && match !== null
            ? mapBatches(liveBigMapEntriesAll(ctx.readDb, network, ledger.ptr, match), (r) => {
                const h = ledgerHolder(ledger.layout, r.key, r.value);
                return h ? { token_id: tokenId, ...h } : undefined;
              })
            : none(),
      });
    },
  );

  simpleExport(app, '/contract/:network/:address/same/export', {
    summary: "Export a contract's 'Same contracts' as CSV or JSON (streamed)",
    description:
      'Other contracts with the same script in every configured network, by network then newest first.',
    tag: 'contract',
    params: AddressParams,
    row: SameContractExportRow,
    columns: SAME_COLUMNS,
    async open(params) {
      const { network, address } = params;
      contractPath(params);
      const row = await getContract(ctx.readDb, network, address);
      if (!row) throw new HttpError(404, 'not found');
      return {
        name: [address, 'same_contracts'],
        batches: sameContractsAll(ctx.readDb, ctx.networks.names, row.script_hash, { network, address }),
      };
    },
  });

  simpleExport(app, '/contract/:network/:address/migrations/export', {
    summary: 'Export the migrations of a contract as CSV or JSON (streamed)',
    description: 'Migrations of the contract, newest first.',
    tag: 'contract',
    params: AddressParams,
    row: MigrationExportRow,
    columns: MIGRATION_COLUMNS,
    async open(params) {
      const { network, address } = params;
      contractPath(params);
      if (!(await getContract(ctx.readDb, network, address))) throw new HttpError(404, 'not found');
      return { name: [address, 'migrations'], batches: migrationsAll(ctx.readDb, network, address) };
    },
  });

  simpleExport(app, '/stats/:network/recently_called_contracts/export', {
    summary: 'Export the recently called contracts as CSV or JSON (streamed)',
    description:
      'Every contract of the network by last activity, then operations count (the recently called list).',
    tag: 'stats',
    params: NetworkParams,
    row: RecentlyCalledExportRow,
    columns: RECENT_COLUMNS,
    async open({ network }) {
      requireNetwork(ctx, network);
      return {
        name: [network, 'recently_called_contracts'],
        batches: recentlyCalledAll(ctx.readDb, network),
      };
    },
  });
};
