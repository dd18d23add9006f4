import { ErrorBody, NetworkName, NetworkStats, SeriesPoint, StatsSummary } from '@michelscope/api-types';
import {
  contractFigures,
  getStats,
  operationHistogram,
  operationSummary,
  protocolsOf,
  type Bucket,
  type SeriesQuery,
} from '@michelscope/db/read';
import { tagsMask } from '@michelscope/michelson';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { ADDRESS_RE, jsonString, requireNetwork } from '../validate';

const E = { 400: ErrorBody, 500: ErrorBody };
const STATS_TTL_MS = 60_000;

/**
 * Tables of the statistics service → operations they read. `field` picks the summed column
 * (`Value` = paid storage bytes, `Used` = consumed gas in milligas as stored, the reference's unit: bcdhub
 * keeps `consumed_gas` in milligas and the stats service sums that column; `Update` = burned mutez).
 */
const TABLES: Record<string, { kinds: string[]; sum?: SeriesQuery['column'] }> = {
  transactions: { kinds: ['transaction'] },
  originations: { kinds: ['origination', 'origination_new'] },
  operations: { kinds: [] },
  events: { kinds: ['event'] },
  paid_storage_size_diff: { kinds: [], sum: 'paid_storage_size_diff' },
  consumed_gas: { kinds: [], sum: 'consumed_gas' },
  burned: { kinds: [], sum: 'burned' },
  // the BCD client's contract statistics read `balance_update` (its 'Burned' series: field Update, Kind 2)
  balance_update: { kinds: [], sum: 'burned' },
  balance_updates: { kinds: [], sum: 'burned' },
};
const FIELDS: Record<string, SeriesQuery['column']> = {
  value: 'paid_storage_size_diff',
  used: 'consumed_gas',
  update: 'burned',
  amount: 'amount',
  fee: 'fee',
  sender: 'source',
  source: 'source',
  target: 'destination',
  destination: 'destination',
};
const STATUS: Record<string, SeriesQuery['status']> = {
  '1': 'applied',
  '2': 'failed',
  '3': 'backtracked',
  '4': 'skipped',
};
const TIMEFRAMES = ['hour', 'day', 'week', 'month', 'year'] as const;

const addresses = (v: string | undefined) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => ADDRESS_RE.test(s))
    .slice(0, 20);

/**
 * Builds a series query from the path and the reference's query filters (`Status=1`, `Target=KT1…`, …).
 * Functions: `count`, `sum` (of `field`, else the table's column) and `distinct`, the number of distinct values
 * of `field` (the BCD client's unique users: `transactions/distinct?field=Sender`); `count` with
 * `distinct=<field>` is the same (Michelscope's older form).
 */
function seriesQuery(
  ctx: ApiContext,
  table: string,
  fn: string,
  q: Record<string, string | undefined>,
  mountedFor?: string,
): SeriesQuery {
  const network = mountedFor ?? q.network ?? '';
  requireNetwork(ctx, network);
  const t = TABLES[table];
  if (!t) throw new HttpError(400, `unknown table: ${table.slice(0, 64)}`);
  const lower = Object.fromEntries(Object.entries(q).map(([k, v]) => [k.toLowerCase(), v]));
  const column = lower.field ? FIELDS[lower.field.toLowerCase()] : t.sum;
  if (lower.field && !column) throw new HttpError(400, `unknown field: ${lower.field.slice(0, 64)}`);
  let distinct = lower.distinct ? FIELDS[lower.distinct.toLowerCase()] : undefined;
  if (lower.distinct && !distinct) throw new HttpError(400, `unknown field: ${lower.distinct.slice(0, 64)}`);
  let f: SeriesQuery['fn'];
  if (fn === 'count') f = distinct ? 'count_distinct' : 'count';
  else if (fn === 'sum') f = 'sum';
  else if (fn === 'distinct') {
    distinct ??= lower.field ? column : undefined;
    if (!distinct)
      throw new HttpError(400, 'distinct: give the field whose values are counted (field=Sender)');
    f = 'count_distinct';
  } else throw new HttpError(400, `unknown function: ${fn.slice(0, 32)}`);
  const num = (v: string | undefined) => (v && /^\d{1,12}$/.test(v) ? Number(v) : undefined);
  return {
    network,
    kinds: t.kinds,
    fn: f,
    column: f === 'count_distinct' ? distinct : (column ?? 'fee'),
    status: lower.status ? STATUS[lower.status] : undefined,
    entrypointNotNull: 'entrypoint.isnotnull' in lower,
    destinations: addresses(lower.target ?? lower.contract ?? lower.destination),
    sources: addresses(lower.sender ?? lower.source ?? lower.counterparty),
    from: num(lower.from),
    to: num(lower.to),
  };
}

const Query = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 2000 }));

/**
 * The statistics service, mounted at /stats/v1 (network in the query, `users_and_calls_count/{network}`) and,
 * with `perNetwork`, at /stats/{network}/v1 as one service per network the way BCD clients use it (no network
 * in the query, `users_and_calls_count/{timeframe}`); the per-network routes stay out of the OpenAPI document.
 */
export const statsServiceRoutes: FastifyPluginAsyncTypebox<{
  ctx: ApiContext;
  perNetwork?: boolean;
}> = async (app, { ctx, perNetwork = false }) => {
  const mounted = (params: unknown) =>
    perNetwork ? ((params as { network?: string }).network ?? '') : undefined;
  app.get(
    '/summary/:table/:fn',
    {
      schema: {
        summary: 'A total over a table (count, sum or distinct) with filters, as a bare decimal string',
        tags: ['stats service'],
        hide: perNetwork,
        params: Type.Object({ table: Type.String({ maxLength: 64 }), fn: Type.String({ maxLength: 32 }) }),
        querystring: Query,
        response: { 200: StatsSummary, ...E },
      },
    },
    async (request, reply) => {
      const q = seriesQuery(
        ctx,
        request.params.table,
        request.params.fn,
        request.query,
        mounted(request.params),
      );
      // the bare total (`"294"`): the BCD client parses the body itself (`parseInt(response, 10)`), so an
      // object around it read as 0 in its four headline totals (issue 33)
      const value = await ctx.cache.get(`stats:${request.url}`, STATS_TTL_MS, () =>
        operationSummary(ctx.readDb, q),
      );
      return jsonString(reply, value);
    },
  );

  app.get(
    '/histogram/:table/:fn/:timeframe',
    {
      schema: {
        summary: 'Points {ts, value} per day, week, month or year',
        tags: ['stats service'],
        hide: perNetwork,
        params: Type.Object({
          table: Type.String({ maxLength: 64 }),
          fn: Type.String({ maxLength: 32 }),
          timeframe: Type.Union(TIMEFRAMES.map((t) => Type.Literal(t))),
        }),
        querystring: Query,
        response: { 200: Type.Array(SeriesPoint), ...E },
      },
    },
    async (request) => {
      const q = seriesQuery(
        ctx,
        request.params.table,
        request.params.fn,
        request.query,
        mounted(request.params),
      );
      return ctx.cache.get(`stats:${request.url}`, STATS_TTL_MS, () =>
        operationHistogram(ctx.readDb, q, request.params.timeframe as Bucket),
      );
    },
  );

  app.post(
    perNetwork ? '/users_and_calls_count/:timeframe' : '/users_and_calls_count/:network',
    {
      schema: {
        summary: 'Distinct callers and calls of contracts',
        tags: ['stats service'],
        hide: perNetwork,
        params: perNetwork
          ? Type.Object({
              network: NetworkName,
              timeframe: Type.Union(TIMEFRAMES.map((t) => Type.Literal(t))),
            })
          : Type.Object({ network: NetworkName }),
        body: Type.Object({
          contracts: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 }),
          from: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000_000 })),
          to: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000_000 })),
        }),
        response: { 200: Type.Object({ users: Type.String(), calls: Type.String() }), ...E },
      },
    },
    async (request) => {
      const { network } = request.params;
      requireNetwork(ctx, network);
      const destinations = request.body.contracts.filter((c) => ADDRESS_RE.test(c));
      if (!destinations.length) throw new HttpError(400, 'contracts: no valid address');
      const base: SeriesQuery = {
        network,
        kinds: ['transaction'],
        fn: 'count',
        status: 'applied',
        destinations,
        from: request.body.from,
        to: request.body.to,
      };
      const [users, calls] = await Promise.all([
        operationSummary(ctx.readDb, { ...base, fn: 'count_distinct', column: 'source' }),
        operationSummary(ctx.readDb, base),
      ]);
      return { users, calls };
    },
  );
};

/** `/v1/stats/{network}` and `/v1/stats/{network}/series` (reference §4.3, removed from the reference API). */
export const networkStatsRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get(
    '/stats/:network',
    {
      schema: {
        summary: 'Network counters and protocols',
        description: 'Cached 10 min.',
        tags: ['stats'],
        params: Type.Object({ network: NetworkName }),
        response: { 200: NetworkStats, ...E },
      },
    },
    async (request) => {
      const { network } = request.params;
      requireNetwork(ctx, network);
      return ctx.cache.get(request.url, 600_000, async () => {
        const [stats, figures, protocols] = await Promise.all([
          getStats(ctx.readDb, [network]),
          contractFigures(ctx.readDb, network, tagsMask(['fa1-2', 'fa2'])),
          protocolsOf(ctx.readDb, network),
        ]);
        const s = stats.get(network);
        return {
          contracts_count: s?.contracts_count ?? 0,
          operations_count: s?.operations_count ?? 0,
          contract_calls: s?.tx_count ?? 0,
          unique_contracts: figures.unique,
          fa_count: figures.fa,
          protocols: protocols.map((p) => ({
            hash: p.hash,
            start_level: p.start_level,
            ...(p.end_level != null ? { end_level: p.end_level } : {}),
            alias: protocolAlias(p.hash),
          })),
        };
      });
    },
  );

  const SERIES: Record<
    string,
    Pick<SeriesQuery, 'kinds' | 'fn' | 'column' | 'status' | 'entrypointNotNull'>
  > = {
    contract: { kinds: ['origination', 'origination_new'], fn: 'count', status: 'applied' },
    operation: { kinds: ['transaction'], fn: 'count', status: 'applied', entrypointNotNull: true },
    paid_storage_size_diff: { kinds: [], fn: 'sum', column: 'paid_storage_size_diff' },
    consumed_gas: { kinds: [], fn: 'sum', column: 'consumed_gas' },
    volume: { kinds: ['transaction'], fn: 'sum', column: 'amount', status: 'applied' },
    users: { kinds: ['transaction'], fn: 'count_distinct', column: 'source', status: 'applied' },
  };

  app.get(
    '/stats/:network/series',
    {
      schema: {
        summary: 'Histogram buckets [[timestamp ms, value], …]',
        tags: ['stats'],
        params: Type.Object({ network: NetworkName }),
        querystring: Type.Object({
          name: Type.Union(Object.keys(SERIES).map((k) => Type.Literal(k))),
          period: Type.Union(TIMEFRAMES.map((t) => Type.Literal(t))),
          address: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
        response: { 200: Type.Array(Type.Tuple([Type.Integer(), Type.Number()])), ...E },
      },
    },
    async (request) => {
      const { network } = request.params;
      requireNetwork(ctx, network);
      const { name, period, address } = request.query;
      const points = await operationHistogram(
        ctx.readDb,
        { network, ...SERIES[name]!, destinations: addresses(address) },
        period,
      );
      return points.map((p) => [p.ts * 1000, Number(p.value)] as [number, number]);
    },
  );
};

/** A readable protocol name from its hash (`PtParisB…` → `Paris`). */
export function protocolAlias(hash: string): string {
  const m = /^P[st]?([A-Z][a-z]+)/.exec(hash);
  return m?.[1] ?? hash.slice(0, 8);
}
