import {
  AccountInfo,
  Contract,
  ErrorBody,
  GlobalConstant,
  GlobalConstantItem,
  RecentlyCalledContract,
  SmartRollup,
  TicketBalance,
  TicketUpdate,
} from '@michelscope/api-types';
import {
  contractByTags,
  contractsCount,
  contractsUsingConstant,
  getAccount,
  getGlobalConstant,
  getHeads,
  getSmartRollup,
  listGlobalConstants,
  listSmartRollups,
  recentlyCalledContracts,
  ticketBalancesOf,
  ticketUpdatesOfAccount,
  type SmartRollupRow,
} from '@michelscope/db/read';
import { formatMichelson, TAG_BITS, tagsMask, toMicheline, typedef, type Tag } from '@michelscope/michelson';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { cacheKey, type ApiContext } from '../context';
import { HttpError } from '../errors';
import { ticketContent, ticketUpdate } from '../render/tickets';
import { toContract } from '../services/contracts';
import { nodeRpc } from '../services/node-rpc';
import { formatTime } from '../time';
import {
  ADDRESS_RE,
  AddressParams,
  EXPR_RE,
  NetworkParams,
  Paging,
  pageSize,
  requireAddress,
  requireNetwork,
  ROLLUP_RE,
} from '../validate';

const E = { 400: ErrorBody, 404: ErrorBody, 500: ErrorBody };
const BALANCE_TTL_MS = 10_000;
const Size1000 = Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 }));
const size1000 = (s: number | undefined) => (s && s > 0 ? s : 10);

export const chainRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get(
    '/account/:network/:address',
    {
      schema: {
        summary: 'Account info (balance from the node)',
        tags: ['account'],
        params: AddressParams,
        response: { 200: AccountInfo, ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, ADDRESS_RE, 'address');
      const acc = await getAccount(ctx.readDb, network, address);
      if (!acc) throw new HttpError(404, 'not found');
      let balance = 0;
      if (/^(tz|KT)/.test(address)) {
        balance = await ctx.cache
          .get(`balance:${network}:${address}`, BALANCE_TTL_MS, async () => {
            const head = (await getHeads(ctx.readDb, [network])).get(network);
            const v = await nodeRpc<string>(
              ctx,
              network,
              `/chains/main/blocks/${head?.level ?? 'head'}/context/contracts/${address}/balance`,
              undefined,
              5000,
            );
            return Number(v) || 0;
          })
          .catch(() => 0);
      }
      return {
        address,
        balance,
        operations_count: acc.operations_count,
        migrations_count: acc.migrations_count,
        events_count: acc.events_count,
        ticket_updates_count: acc.ticket_updates_count,
        last_action: formatTime(acc.last_action),
        account_type: acc.type,
      };
    },
  );

  app.get(
    '/account/:network/:address/ticket_balances',
    {
      schema: {
        summary: 'Ticket balances of an account',
        tags: ['account'],
        params: AddressParams,
        querystring: Type.Object({ ...Paging, skip_empty: Type.Optional(Type.Boolean()) }),
        response: { 200: Type.Array(TicketBalance), ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, ADDRESS_RE, 'address');
      if (!(await getAccount(ctx.readDb, network, address))) throw new HttpError(404, 'not found');
      const rows = await ticketBalancesOf(ctx.readDb, network, address, {
        size: pageSize(request.query.size),
        offset: request.query.offset ?? 0,
        skipEmpty: request.query.skip_empty === true,
      });
      return rows.map((r) => ({
        ticketer: r.ticketer,
        amount: r.amount,
        ...ticketContent(r.content_type, r.content),
        ticket_id: r.id,
      }));
    },
  );

  app.get(
    '/account/:network/:address/ticket_updates',
    {
      schema: {
        summary: 'Ticket updates an account takes part in (Michelscope extension)',
        description:
          'Updates of tickets the account holds or issued, newest first: as many as its `ticket_updates_count`.',
        tags: ['account'],
        params: AddressParams,
        querystring: Type.Object(Paging),
        response: { 200: Type.Array(TicketUpdate), ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, ADDRESS_RE, 'address');
      const rows = await ticketUpdatesOfAccount(ctx.readDb, network, address, {
        size: pageSize(request.query.size),
        offset: request.query.offset ?? 0,
      });
      return rows.map(ticketUpdate);
    },
  );

  app.get(
    '/stats/:network/recently_called_contracts',
    {
      schema: {
        summary: 'Contracts by last activity',
        description: 'Cached 10 s.',
        tags: ['stats'],
        params: NetworkParams,
        querystring: Type.Object(Paging),
        response: { 200: Type.Array(RecentlyCalledContract), ...E },
      },
    },
    async (request) => {
      const { network } = request.params;
      requireNetwork(ctx, network);
      return ctx.cache.get(request.url, 10_000, async () => {
        const rows = await recentlyCalledContracts(
          ctx.readDb,
          network,
          pageSize(request.query.size),
          request.query.offset ?? 0,
        );
        return rows.map((r) => ({
          id: r.id,
          address: r.address,
          last_action: formatTime(r.last_action),
          operations_count: r.operations_count,
        }));
      });
    },
  );

  app.get(
    '/stats/:network/contracts_count',
    {
      schema: {
        summary: 'Number of contracts',
        description: 'Cached 10 s.',
        tags: ['stats'],
        params: NetworkParams,
        response: { 200: Type.Integer(), ...E },
      },
    },
    async (request) => {
      const { network } = request.params;
      requireNetwork(ctx, network);
      const n = await ctx.cache.get(cacheKey(request.url), 10_000, () => contractsCount(ctx.readDb, network));
      if (n === undefined) throw new HttpError(404, 'not found');
      return n;
    },
  );

  app.get(
    '/helpers/contracts/:network',
    {
      schema: {
        summary: 'The newest contract with one of the tags',
        description: 'Cached 1 h once found; a miss is not cached.',
        tags: ['helpers'],
        params: NetworkParams,
        querystring: Type.Object({ tags: Type.String({ minLength: 1, maxLength: 500 }) }),
        response: { 200: Contract, ...E },
      },
    },
    async (request) => {
      const { network } = request.params;
      requireNetwork(ctx, network);
      const names = request.query.tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const known = names.filter((n): n is Tag => (TAG_BITS as readonly string[]).includes(n));
      const mask = tagsMask(known);
      if (!mask || known.length !== names.length)
        throw new HttpError(400, `unknown tags: ${request.query.tags.slice(0, 100)}`);
      // A miss is not cached: on a network still being indexed the contract may appear a moment later, and
      // a cached 'not found' would hide it for the whole hour (the cache keeps no failed load).
      const row = await ctx.cache.get(request.url, 3_600_000, async () => {
        const found = await contractByTags(ctx.readDb, network, mask);
        if (!found) throw new HttpError(404, 'not found');
        return found;
      });
      return toContract(row);
    },
  );

  app.get(
    '/global_constants/:network',
    {
      schema: {
        summary: 'Global constants',
        tags: ['global_constants'],
        params: NetworkParams,
        querystring: Type.Object({
          offset: Paging.offset,
          size: Size1000,
          order_by: Type.Optional(
            Type.Union(['level', 'timestamp', 'links_count', 'address'].map((v) => Type.Literal(v))),
          ),
          sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
        }),
        response: { 200: Type.Array(GlobalConstantItem), ...E },
      },
    },
    async (request) => {
      const { network } = request.params;
      requireNetwork(ctx, network);
      const q = request.query;
      const rows = await listGlobalConstants(ctx.readDb, network, {
        size: size1000(q.size),
        offset: q.offset ?? 0,
        orderBy: q.order_by,
        sort: q.sort ?? 'desc',
      });
      return rows.map((g) => ({
        timestamp: formatTime(g.timestamp),
        level: g.level,
        address: g.address,
        links_count: g.links_count,
      }));
    },
  );

  app.get(
    '/global_constants/:network/:address',
    {
      schema: {
        summary: 'One global constant with its code',
        tags: ['global_constants'],
        params: AddressParams,
        response: { 200: GlobalConstant, ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, EXPR_RE, 'global constant');
      const g = await getGlobalConstant(ctx.readDb, network, address);
      if (!g) throw new HttpError(404, 'not found');
      let code = '';
      try {
        code = formatMichelson(toMicheline(g.value));
      } catch {
        code = '';
      }
      return { timestamp: formatTime(g.timestamp), level: g.level, address: g.address, value: g.value, code };
    },
  );

  app.get(
    '/global_constants/:network/:address/contracts',
    {
      schema: {
        summary: 'Contracts using a global constant',
        tags: ['global_constants'],
        params: AddressParams,
        querystring: Type.Object({ offset: Paging.offset, size: Size1000 }),
        response: { 200: Type.Array(Contract), ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, EXPR_RE, 'global constant');
      const rows = await contractsUsingConstant(
        ctx.readDb,
        network,
        address,
        size1000(request.query.size),
        request.query.offset ?? 0,
      );
      return rows.map((r) => toContract(r, false));
    },
  );

  app.get(
    '/smart_rollups/:network',
    {
      schema: {
        summary: 'Smart rollups',
        tags: ['smart_rollups'],
        params: NetworkParams,
        querystring: Type.Object({
          offset: Paging.offset,
          size: Size1000,
          sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
        }),
        response: { 200: Type.Array(SmartRollup), ...E },
      },
    },
    async (request) => {
      const { network } = request.params;
      requireNetwork(ctx, network);
      const q = request.query;
      const rows = await listSmartRollups(ctx.readDb, network, {
        size: size1000(q.size),
        offset: q.offset ?? 0,
        sort: q.sort ?? 'desc',
      });
      return rows.map(toRollup);
    },
  );

  app.get(
    '/smart_rollups/:network/:address',
    {
      schema: {
        summary: 'One smart rollup',
        tags: ['smart_rollups'],
        params: AddressParams,
        response: { 200: SmartRollup, ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, ROLLUP_RE, 'smart rollup address');
      const r = await getSmartRollup(ctx.readDb, network, address);
      if (!r) throw new HttpError(404, 'not found');
      return toRollup(r);
    },
  );
};

function toRollup(r: SmartRollupRow): SmartRollup {
  let type: SmartRollup['type'] = [];
  try {
    if (r.type != null) type = typedef(toMicheline(r.type)) ?? [];
  } catch {
    type = [];
  }
  return {
    id: r.id,
    level: r.level,
    timestamp: formatTime(r.timestamp),
    size: Number(r.size),
    address: r.address,
    genesis_commitment_hash: r.genesis_commitment_hash,
    pvm_kind: r.pvm_kind,
    kernel: r.kernel,
    type,
  };
}
