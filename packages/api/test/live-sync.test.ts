import { describeDb } from '@michelscope/db/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApi } from '../src/index';
import { NODE_HEAD_TTL_MS } from '../src/services/node-head';
import { fakeClock, insertBlock, insertProtocol } from './helpers';
import { openSse, type SseStream } from './live-client';

const NET = 'sandboxnet';
const PROTO = 'PtParisBxoLz5gzMmn3d9WBQNoPSZakgnkMC2VNuQ3KXfUtUQeZ';
const INDEXED = 40;

// PGlite only: the hub's sync check reads the head like GET /v1/head; no notification is involved.
describeDb(
  'GET /v1/live/{network}: the head sync state (issue 32)',
  { backends: 'pglite' },
  ({ db, handle }) => {
    const clock = fakeClock(Date.now());
    let node: FastifyInstance;
    let app: FastifyInstance;
    let base = '';
    /** The node's head level; 'down': it answers 503. */
    let nodeHead: number | 'down' = INDEXED;
    const streams: SseStream[] = [];

    beforeAll(async () => {
      node = Fastify({ forceCloseConnections: true });
      node.get('/chains/main/blocks/head/header', async (_req, reply) =>
        nodeHead === 'down' ? reply.code(503).send('down') : { level: nodeHead },
      );
      const nodeUrl = await node.listen({ port: 0, host: '127.0.0.1' });
      const p = await insertProtocol(db(), NET, { hash: PROTO, startLevel: 0 });
      await insertBlock(db(), NET, {
        level: INDEXED,
        hash: `BL${INDEXED}`,
        predecessor: `BL${INDEXED - 1}`,
        timestamp: new Date(clock.now()),
        protocolId: p,
      });
      app = await buildApi({
        db: db(),
        networks: [{ name: NET, rpcUrl: nodeUrl, publicRpcUrl: nodeUrl, statsEnabled: false }],
        rateLimit: false,
        now: clock.now,
        // the sync state is checked on each heartbeat
        live: { source: handle(), heartbeatMs: 100 },
      });
      base = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      for (const s of streams) s.close();
      await app.close();
      await node.close();
    });

    it('sends the head again, same level, when the node goes on without the indexer or becomes unreachable', async () => {
      const s = await openSse(`${base}/v1/live/${NET}`);
      streams.push(s);
      expect((await s.next((e) => e.type === 'head')).data).toEqual({
        network: NET,
        level: INDEXED,
        hash: `BL${INDEXED}`,
        time: expect.any(String) as string,
        protocol: PROTO,
        synced: true,
        node_reachable: true,
        node_level: INDEXED,
        lag: 0,
      });

      // the indexer stalls while the node goes on: once the node read expires, the stream says so
      nodeHead = INDEXED + 54;
      clock.advance(NODE_HEAD_TTL_MS + 1);
      const behind = await s.next((e) => e.type === 'head');
      expect(behind.id).toBe(String(INDEXED));
      expect(behind.data).toMatchObject({ level: INDEXED, synced: false, node_level: INDEXED + 54, lag: 54 });

      // the node fails: not synced, and nothing claimed about the node's level
      nodeHead = 'down';
      clock.advance(NODE_HEAD_TTL_MS + 1);
      const down = (await s.next((e) => e.type === 'head')).data;
      expect(down).toMatchObject({ level: INDEXED, synced: false, node_reachable: false });
      expect(down).not.toHaveProperty('lag');
      expect(down).not.toHaveProperty('node_level');

      // back, and the indexer within the sync gap
      nodeHead = INDEXED + 2;
      clock.advance(NODE_HEAD_TTL_MS + 1);
      // (the failed read is answered at once while a new read runs: the recovery shows on a later heartbeat)
      expect((await s.next((e) => e.type === 'head')).data).toMatchObject({
        synced: true,
        node_reachable: true,
        lag: 2,
      });
      // nothing changes: no more head events, only heartbeats
      await new Promise((r) => setTimeout(r, 500));
      expect(s.events.filter((e) => e.type === 'head')).toHaveLength(4);
    });
  },
);
