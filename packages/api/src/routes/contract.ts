import {
  ContractWithStats,
  Contract,
  ErrorBody,
  Event,
  GlobalConstant,
  Migration,
  OPGResponse,
  SameContractsResponse,
  Ticket,
  TicketUpdate,
} from '@michelscope/api-types';
import {
  accountOperationGroupsJson,
  constantsOfContract,
  contractEvents,
  getContract,
  migrationsOf,
  protocolsOf,
  sameContracts,
  scriptUnderProtocol,
  ticketsOfTicketer,
  ticketUpdatesOfTicketer,
} from '@michelscope/db/read';
import { formatMichelson, toMicheline, toMiguel } from '@michelscope/michelson';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import {
  fullScript,
  requireScript,
  sameCount,
  toContract,
  withHistory,
  withStats,
} from '../services/contracts';
import { formatTime } from '../time';
import { ticketUpdate, ticketContent } from '../render/tickets';
import {
  ADDRESS_RE,
  AddressParams,
  jsonString,
  rawJson,
  PAGE_SIZE,
  Paging,
  pageSize,
  requireAddress,
  requireNetwork,
  requireContractPath,
} from '../validate';

const E = { 400: ErrorBody, 404: ErrorBody, 500: ErrorBody };
const tags = ['contract'];

export const contractRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  const check = (p: { network: string; address: string }) => requireContractPath(ctx, p);

  app.get(
    '/contract/:network/:address',
    {
      schema: {
        summary: 'Contract',
        description: '204 with no body when the contract is unknown. `same_count` unless `stats=false`.',
        tags,
        params: AddressParams,
        querystring: Type.Object({ stats: Type.Optional(Type.Boolean({ default: true })) }),
        response: { 200: Type.Union([ContractWithStats, Contract]), 204: Type.Null(), ...E },
      },
    },
    async (request, reply) => {
      check(request.params);
      const row = await getContract(ctx.readDb, request.params.network, request.params.address);
      if (!row) return reply.code(204).send(null);
      const out = request.query.stats === false ? toContract(row) : await withStats(ctx, row);
      return withHistory(ctx, out);
    },
  );

  app.get(
    '/contract/:network/:address/code',
    {
      schema: {
        summary: 'Contract code as Michelson text',
        description:
          'With `protocol`: the code the contract ran under that protocol (the script a later `update` ' +
          'migration replaced), 404 when that script was not kept. `level` is accepted and unused.',
        tags,
        params: AddressParams,
        querystring: Type.Object({
          protocol: Type.Optional(Type.String({ maxLength: 64 })),
          level: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
        }),
        response: { 200: Type.String(), ...E },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      check(request.params);
      const { protocol } = request.query;
      if (protocol && !(await protocolsOf(ctx.readDb, network)).some((p) => p.hash === protocol))
        throw new HttpError(400, `Unknown protocol: ${protocol}`);
      const script = await requireScript(ctx, network, address);
      if (!protocol) return jsonString(reply, formatMichelson(fullScript(script)));
      // the code under that protocol: the script an `update` migration after it replaced, else the current one
      const under = await scriptUnderProtocol(ctx.readDb, network, address, protocol);
      if (under.migration === null) return jsonString(reply, formatMichelson(fullScript(script)));
      if (!under.script)
        throw new HttpError(
          404,
          `the code before the migration at level ${under.migration} was not kept (indexed before it was stored)`,
        );
      return jsonString(reply, formatMichelson(fullScript(under.script)));
    },
  );

  app.get(
    '/contract/:network/:address/opg',
    {
      schema: {
        summary: 'Operation groups of an account (keyset paging by last_id)',
        tags,
        params: AddressParams,
        querystring: Type.Object({
          // backfilled operations (issue 32) have negative ids, below the forward ones
          last_id: Type.Optional(
            Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }),
          ),
          size: Paging.size,
        }),
        response: { 200: Type.Array(OPGResponse), ...E },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, ADDRESS_RE, 'address', 404);
      const { last_id } = request.query;
      // the account's existence comes with the window (one statement): unknown → 404; the page is the JSON
      // text PostgreSQL builds in the answer's shape (OPGResponse), sent as it is
      const { known, json } = await accountOperationGroupsJson(
        ctx.readDb,
        network,
        address,
        pageSize(request.query.size),
        last_id || undefined,
      );
      if (!known) throw new HttpError(404, 'not found');
      return rawJson(reply, json);
    },
  );

  app.get(
    '/contract/:network/:address/migrations',
    {
      schema: {
        summary: 'Migrations of a contract',
        tags,
        params: AddressParams,
        response: { 200: Type.Array(Migration), ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      if (!(await getContract(ctx.readDb, network, address))) throw new HttpError(404, 'not found');
      const rows = await migrationsOf(ctx.readDb, network, address);
      return rows.map((m) => ({
        level: m.level,
        timestamp: formatTime(m.timestamp),
        ...(m.hash ? { hash: m.hash } : {}),
        protocol: m.protocol,
        prev_protocol: m.prev_protocol,
        kind: m.kind,
      }));
    },
  );

  app.get(
    '/contract/:network/:address/same',
    {
      schema: {
        summary: 'Contracts with the same script in every configured network',
        tags,
        params: AddressParams,
        querystring: Type.Object(Paging),
        response: { 200: SameContractsResponse, ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      const row = await getContract(ctx.readDb, network, address);
      if (!row) throw new HttpError(404, 'not found');
      const count = await sameCount(ctx, row.script_hash);
      const list = await sameContracts(
        ctx.readDb,
        ctx.networks.names,
        row.script_hash,
        { network, address },
        pageSize(request.query.size),
        request.query.offset ?? 0,
      );
      return { count, contracts: list.map((c) => ({ ...toContract(c, false), same_count: count })) };
    },
  );

  app.get(
    '/contract/:network/:address/global_constants',
    {
      schema: {
        summary: 'Global constants the contract uses',
        tags,
        params: AddressParams,
        querystring: Type.Object({
          offset: Paging.offset,
          size: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
        }),
        response: { 200: Type.Array(GlobalConstant), ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      const size = request.query.size && request.query.size > 0 ? request.query.size : PAGE_SIZE;
      const rows = await constantsOfContract(ctx.readDb, network, address, size, request.query.offset ?? 0);
      return rows.map((g) => ({
        timestamp: formatTime(g.timestamp),
        level: g.level,
        address: g.address,
        value: g.value,
      }));
    },
  );

  app.get(
    '/contract/:network/:address/events',
    {
      schema: {
        summary: 'Events emitted by a contract',
        tags,
        params: AddressParams,
        querystring: Type.Object(Paging),
        response: { 200: Type.Array(Event), ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      const rows = await contractEvents(
        ctx.readDb,
        network,
        address,
        pageSize(request.query.size),
        request.query.offset ?? 0,
      );
      return rows.map((r) => {
        const ev: Event = {
          hash: r.hash ?? '',
          status: r.status,
          timestamp: formatTime(r.timestamp),
          level: r.level,
          tag: r.tag ?? '',
        };
        if (r.payload != null && r.payload_type != null) {
          try {
            ev.payload = toMiguel(toMicheline(r.payload_type), toMicheline(r.payload));
          } catch {
            /* undecodable payload: left out */
          }
        }
        return ev;
      });
    },
  );

  app.get(
    '/contract/:network/:address/tickets',
    {
      schema: {
        summary: 'Tickets issued by a contract',
        tags,
        params: AddressParams,
        querystring: Type.Object({
          offset: Paging.offset,
          size: Type.Optional(Type.Integer({ minimum: 0, maximum: 99 })),
        }),
        response: { 200: Type.Array(Ticket), ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      const rows = await ticketsOfTicketer(
        ctx.readDb,
        network,
        address,
        pageSize(request.query.size, 99),
        request.query.offset ?? 0,
      );
      return rows.map((t) => ({
        ticketer: t.ticketer,
        ...ticketContent(t.content_type, t.content),
        updates_count: t.updates_count,
        first_level: t.level,
      }));
    },
  );

  app.get(
    '/contract/:network/:address/ticket_updates',
    {
      schema: {
        summary: 'Updates of the tickets issued by a contract',
        tags,
        params: AddressParams,
        querystring: Type.Object({
          ...Paging,
          account: Type.Optional(Type.String({ maxLength: 64 })),
          ticket_id: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
        }),
        response: { 200: Type.Array(TicketUpdate), ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      const { account, ticket_id } = request.query;
      if (account) requireAddress(account, ADDRESS_RE, 'account', 400);
      const rows = await ticketUpdatesOfTicketer(ctx.readDb, network, address, {
        size: pageSize(request.query.size),
        offset: request.query.offset ?? 0,
        account,
        ticketId: ticket_id,
      });
      return rows.map(ticketUpdate);
    },
  );
};
