import {
  LIVE_MAX_REPLAY_LEVELS,
  LIVE_MAX_SUBSCRIPTIONS,
  LiveBalanceEvent,
  LiveBigMapEvent,
  LiveHeadEvent,
  LiveOperationEvent,
  LiveOperationsEvent,
  LiveQuery,
  LiveResetEvent,
  NetworkName,
} from '@michelscope/api-types';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import type { LiveHub } from '../live/hub';
import { Subscriber } from '../live/subscriber';
import { ref } from '../schemas';
import { ADDRESS_RE, OPG_RE, requireAddress, requireNetwork } from '../validate';

const DESCRIPTION = `Server-sent events (\`text/event-stream\`) of one network, one connection for the whole page.
Every connection gets \`head\` for each new indexed block; the subscriptions add:

- \`address\`: \`operations\` (groups of the address indexed at a level: their hashes) and \`balance\` (mutez, after an operation touched it);
- \`big_map\`: \`big_map\` (number of key updates at a level);
- \`operation\`: \`operation\` (status of the group: \`pending\` while in the node's mempool, then the indexed status and level).

Each event's \`data\` is one JSON object (schemas \`LiveHeadEvent\`, \`LiveOperationsEvent\`, \`LiveBalanceEvent\`,
\`LiveBigMapEvent\`, \`LiveOperationEvent\`, \`LiveResetEvent\`). A level's events come together and end with its \`head\`,
whose SSE \`id\` is the level: EventSource sends it back as \`Last-Event-ID\` when it reconnects (or give \`since_level\`),
and the events of later levels are replayed from the database. More than ${LIVE_MAX_REPLAY_LEVELS} levels behind, or after a
reorganisation of the chain, the stream sends \`reset\` instead: refetch what the page shows. A comment line is sent every
15 s; then too, when the head's sync state changed without a new block (the indexer stalled, the node became
unreachable), the \`head\` is sent again with its \`synced\`, \`node_reachable\`, \`node_level\` and \`lag\`. At most ${LIVE_MAX_SUBSCRIPTIONS} subscriptions per connection; connections per client address are limited (429).
Answers 404 when this server runs without live notifications (no database listener).`;

export const liveRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext; hub: LiveHub | undefined }> = async (
  app,
  { ctx, hub },
) => {
  app.get(
    '/live/:network',
    {
      schema: {
        summary: 'Live updates of a network (server-sent events)',
        description: DESCRIPTION,
        tags: ['live'],
        params: Type.Object({ network: NetworkName }),
        querystring: LiveQuery,
        headers: Type.Object({ 'last-event-id': Type.Optional(Type.String({ maxLength: 20 })) }),
        response: {
          200: {
            description: 'the event stream',
            content: {
              'text/event-stream': {
                schema: Type.Union([
                  LiveHeadEvent,
                  LiveOperationsEvent,
                  LiveBalanceEvent,
                  LiveBigMapEvent,
                  LiveOperationEvent,
                  LiveResetEvent,
                ]),
              },
            },
          },
          400: ref('ErrorBody'),
          429: ref('ErrorBody'),
          404: ref('ErrorBody'),
        },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      requireNetwork(ctx, network);
      const q = request.query;
      const addresses = [...new Set(q.address ?? [])];
      const bigMaps = [...new Set(q.big_map ?? [])];
      const operations = [...new Set(q.operation ?? [])];
      if (addresses.length + bigMaps.length + operations.length > LIVE_MAX_SUBSCRIPTIONS)
        throw new HttpError(400, `at most ${LIVE_MAX_SUBSCRIPTIONS} subscriptions per connection`);
      for (const a of addresses) requireAddress(a, ADDRESS_RE, 'address');
      for (const h of operations) requireAddress(h, OPG_RE, 'operation hash');
      let since = q.since_level;
      const lastId = request.headers['last-event-id'];
      if (since === undefined && lastId !== undefined) {
        if (!/^\d{1,10}$/.test(lastId)) throw new HttpError(400, 'Last-Event-ID must be a level');
        since = Number(lastId);
      }
      if (!hub) throw new HttpError(404, 'live updates are not enabled on this server');
      const refusal = hub.refusal(request.ip);
      if (refusal) throw new HttpError(429, refusal);

      // the stream is written by hand: no serialisation, no compression (SSE must not be buffered)
      const headers: Record<string, string | number | string[]> = {};
      for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v;
      reply.hijack();
      const res = reply.raw;
      request.raw.socket.setNoDelay(true);
      res.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      res.write('retry: 3000\n\n');
      const sub = new Subscriber(
        network,
        request.ip,
        new Set(addresses),
        new Set(bigMaps),
        new Set(operations),
        res,
        (s) => hub.remove(s),
      );
      await hub.add(sub, since);
    },
  );
};
