import { ZERO_TIME, type Block } from '@michelscope/api-types';
import { getHeads, getStats, zeroStats, type HeadRow, type StatsCounters } from '@michelscope/db/read';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cacheKey, type ApiContext } from '../context';
import { ref } from '../schemas';
import { formatTime } from '../time';

export const STATS_TTL_MS = 30_000;

export const statsRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get(
    '/stats',
    {
      schema: {
        summary: 'Head block, protocol constants and counters of every configured network',
        description: 'Networks with nothing indexed yet appear with zeros. Cached 30 s.',
        tags: ['stats'],
        response: { 200: Type.Array(ref('Block')), 500: ref('ErrorBody') },
      },
    },
    async (request) =>
      ctx.cache.get(cacheKey(request.url), STATS_TTL_MS, async () => {
        const names = ctx.networks.names;
        const [heads, stats] = await Promise.all([getHeads(ctx.readDb, names), getStats(ctx.readDb, names)]);
        return names.map((name) => toBlock(name, heads.get(name), stats.get(name) ?? zeroStats()));
      }),
  );
};

function toBlock(network: string, head: HeadRow | undefined, stats: StatsCounters): Block {
  return {
    network,
    hash: head?.hash ?? '',
    level: head?.level ?? 0,
    predecessor: head?.predecessor ?? '',
    chain_id: head?.chain_id ?? '',
    timestamp: head ? formatTime(head.timestamp) : ZERO_TIME,
    protocol: head?.protocol ?? '',
    cost_per_byte: head?.cost_per_byte ?? 0,
    hard_gas_limit_per_operation: head?.hard_gas_limit_per_operation ?? 0,
    hard_storage_limit_per_operation: head?.hard_storage_limit_per_operation ?? 0,
    time_between_blocks: head?.time_between_blocks ?? 0,
    stats,
  };
}
