import { NetworkName, ZERO_TIME, type Head } from '@michelscope/api-types';
import { getHeads, type HeadRow } from '@michelscope/db/read';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cacheKey, type ApiContext } from '../context';
import { HttpError } from '../errors';
import { ref } from '../schemas';
import { formatTime } from '../time';

/** A head counts as synced while its block is at most this old. */
export const SYNCED_WINDOW_MS = 2 * 60 * 1000;
export const HEAD_TTL_MS = 10_000;

export const headRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get(
    '/head',
    {
      schema: {
        summary: 'Indexed head of every configured network',
        description:
          'Networks with nothing indexed yet appear with level 0, the zero time and synced false. Cached 10 s.',
        tags: ['head'],
        response: { 200: Type.Array(ref('Head')), 500: ref('ErrorBody') },
      },
    },
    async (request) =>
      ctx.cache.get(cacheKey(request.url), HEAD_TTL_MS, async () => {
        const names = ctx.networks.names;
        const rows = await getHeads(ctx.db, names);
        return names.map((name) => toHead(name, rows.get(name), ctx.now()));
      }),
  );

  app.get(
    '/head/:network',
    {
      schema: {
        summary: 'Indexed head of one network',
        tags: ['head'],
        params: Type.Object({ network: NetworkName }),
        response: { 200: ref('Head'), 400: ref('ErrorBody'), 500: ref('ErrorBody') },
      },
    },
    async (request) => {
      const { network } = request.params;
      if (!ctx.networks.get(network)) throw new HttpError(400, `unknown network: ${network}`);
      return ctx.cache.get(cacheKey(request.url), HEAD_TTL_MS, async () => {
        const rows = await getHeads(ctx.db, [network]);
        return toHead(network, rows.get(network), ctx.now());
      });
    },
  );
};

function toHead(network: string, row: HeadRow | undefined, now: number): Head {
  if (!row) return { network, level: 0, time: ZERO_TIME, protocol: '', synced: false };
  return {
    network,
    level: row.level,
    time: formatTime(row.timestamp),
    protocol: row.protocol ?? '',
    synced: now - row.timestamp.getTime() <= SYNCED_WINDOW_MS,
  };
}
