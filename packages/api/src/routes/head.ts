import { NetworkName, ZERO_TIME, type Head } from '@michelscope/api-types';
import { getBackfillSummaries, getHeads, type BackfillSummaryRow, type HeadRow } from '@michelscope/db/read';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cacheKey, type ApiContext } from '../context';
import { HttpError } from '../errors';
import { ref } from '../schemas';
import { headSync, NODE_HEAD_TIMEOUT_MS, NODE_HEAD_TTL_MS, SYNC_GAP_LEVELS } from '../services/node-head';
import { formatTime } from '../time';

export const HEAD_TTL_MS = 10_000;

const BACKFILL_NOTE =
  '`backfill` (a network with history backfills only): its adopted addresses by the state of their history ' +
  'backfill, and the levels covered of those to cover, summed over them.';

const SYNC_NOTE =
  `\`synced\`: at most ${SYNC_GAP_LEVELS} levels behind the node's head (read with a ${NODE_HEAD_TIMEOUT_MS / 1000} s ` +
  `timeout and trusted ${NODE_HEAD_TTL_MS / 1000} s). When the node's head cannot be read the answer still comes, with \`synced\` false, ` +
  "`node_reachable` false and no `node_level` or `lag`; the head block's age is not used.";

export const headRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get(
    '/head',
    {
      schema: {
        summary: 'Indexed head of every configured network',
        description: `Networks with nothing indexed yet appear with level 0, the zero time and synced false. ${SYNC_NOTE} ${BACKFILL_NOTE} Cached 10 s.`,
        tags: ['head'],
        response: { 200: Type.Array(ref('Head')), 500: ref('ErrorBody') },
      },
    },
    async (request) =>
      ctx.cache.get(cacheKey(request.url), HEAD_TTL_MS, async () => {
        const names = ctx.networks.names;
        const [rows, backfills] = await Promise.all([
          getHeads(ctx.readDb, names),
          getBackfillSummaries(ctx.readDb, names),
        ]);
        return Promise.all(names.map((name) => toHead(ctx, name, rows.get(name), backfills.get(name))));
      }),
  );

  app.get(
    '/head/:network',
    {
      schema: {
        summary: 'Indexed head of one network',
        description: `${SYNC_NOTE} ${BACKFILL_NOTE} Cached 10 s.`,
        tags: ['head'],
        params: Type.Object({ network: NetworkName }),
        response: { 200: ref('Head'), 400: ref('ErrorBody'), 500: ref('ErrorBody') },
      },
    },
    async (request) => {
      const { network } = request.params;
      if (!ctx.networks.get(network)) throw new HttpError(400, `unknown network: ${network}`);
      return ctx.cache.get(cacheKey(request.url), HEAD_TTL_MS, async () => {
        const [rows, backfills] = await Promise.all([
          getHeads(ctx.readDb, [network]),
          getBackfillSummaries(ctx.readDb, [network]),
        ]);
        return toHead(ctx, network, rows.get(network), backfills.get(network));
      });
    },
  );
};

async function toHead(
  ctx: ApiContext,
  network: string,
  row: HeadRow | undefined,
  backfill: BackfillSummaryRow | undefined,
): Promise<Head> {
  const sync = await headSync(ctx, network, row ? row.level : null);
  const extra = backfill ? { backfill } : {};
  if (!row) return { network, level: 0, time: ZERO_TIME, protocol: '', ...sync, ...extra };
  return {
    network,
    level: row.level,
    time: formatTime(row.timestamp),
    protocol: row.protocol ?? '',
    ...sync,
    ...extra,
  };
}
