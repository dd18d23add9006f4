/**
 * `GET /v1/health` (issue 34): per network, whether the node is reachable, how far the index lags, which parts
 * failed and the latest error; 503 when a network is unhealthy or the database cannot be read, 200 otherwise.
 * Never cached: a monitor asks it to know now.
 */
import { Health, type HealthNetwork } from '@michelscope/api-types';
import { getHeads, type HeadRow } from '@michelscope/db/read';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiContext } from '../context';
import { at, lastPartError, partFailures, publicMessage } from '../services/health';
import { headSync } from '../services/node-head';

export const healthRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Health of every configured network: node, indexer, failed parts',
        description:
          "Per network: the node's reachability and head level, the indexer's state, level and lag, the parts that " +
          'failed now (`failures`: the embedded node cannot store its chain, the indexer cannot use the database) and ' +
          "the latest error with its time (`last_error`, kept after recovery). The indexer's state and the failures are " +
          "known for the parts running in this server's process (`michelscope start`, `indexer`); under `michelscope api` " +
          'the state is `elsewhere`. 503 when a network is unhealthy (node unreachable, a part failed) or the database ' +
          'cannot be read; 200 otherwise. Not cached.',
        tags: ['head'],
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      const names = ctx.networks.names;
      let rows: Map<string, HeadRow> | null = null;
      let dbError: string | undefined;
      try {
        rows = await getHeads(ctx.readDb, names);
      } catch (err) {
        dbError = err instanceof Error ? err.message : String(err);
      }
      const networks = await Promise.all(names.map((name) => networkHealth(ctx, name, rows, dbError)));
      const healthy = dbError === undefined && networks.every((n) => n.healthy);
      const body: Health = {
        healthy,
        time: at(ctx.now()),
        database: dbError === undefined ? { reachable: true } : { reachable: false, error: dbError },
        networks,
      };
      return reply.code(healthy ? 200 : 503).send(body);
    },
  );
};

async function networkHealth(
  ctx: ApiContext,
  network: string,
  rows: Map<string, HeadRow> | null,
  dbError: string | undefined,
): Promise<HealthNetwork> {
  const level = rows?.get(network)?.level ?? null;
  const sync = await headSync(ctx, network, level);
  const failures = [...partFailures(ctx, network)];
  if (dbError !== undefined)
    failures.push({ part: 'database', message: publicMessage(dbError), since: at(ctx.now()) });
  const indexer = ctx.options.parts?.(network)?.indexer;
  const last = lastPartError(ctx, network);
  return {
    network,
    healthy: sync.node_reachable && failures.length === 0,
    node: {
      reachable: sync.node_reachable,
      ...(sync.node_level !== undefined ? { level: sync.node_level } : {}),
    },
    indexer: {
      state: indexer?.state ?? 'elsewhere',
      level,
      ...(sync.lag !== undefined ? { lag: sync.lag } : {}),
      synced: sync.synced,
    },
    failures,
    ...(last ? { last_error: last } : {}),
  };
}
