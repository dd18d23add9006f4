import { describeDb } from '@michelscope/db/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApi } from '../src/index';
import { fakeClock } from './helpers';

const ALICE = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const BOB = 'tz1gjaF81ZRRvdzjobyfVNsAeSC6PScjfQwN';
const CAROL = 'tz1faswCTDciRzE4oJ9jn2Vm2dvjeyA9fUzU';

const transfer = (source: string, destination: string, counter: number, amount = 1000) => ({
  kind: 'transaction',
  source,
  destination,
  fee: '400',
  counter: String(counter),
  gas_limit: '1100',
  storage_limit: '0',
  amount: String(amount),
});

/** A node whose mempool the test sets. */
let pending: { applied: unknown[]; validated: unknown[] } = { applied: [], validated: [] };

// PGlite only: the node's mempool, kept in memory; the database is only a fixture.
describeDb(
  'GET /v1/contract/{network}/{address}/mempool: first-seen times, newest first',
  { backends: 'pglite' },
  ({ db }) => {
    let node: FastifyInstance;
    let app: FastifyInstance;
    const clock = fakeClock(Date.parse('2026-01-10T12:00:00Z'));

    beforeAll(async () => {
      node = Fastify({ forceCloseConnections: true });
      node.get('/chains/main/mempool/pending_operations', async () => pending);
      await node.listen({ port: 0, host: '127.0.0.1' });
      const address = node.server.address();
      if (!address || typeof address === 'string') throw new Error('no node port');
      app = await buildApi({
        db: db(),
        networks: [
          {
            name: 'ghostnet',
            rpcUrl: `http://127.0.0.1:${address.port}/`,
            publicRpcUrl: 'https://rpc.ghostnet.example',
            statsEnabled: false,
          },
        ],
        rateLimit: false,
        now: clock.now,
      });
    });
    afterAll(async () => {
      await app.close();
      await node.close();
    });

    const read = async (address: string) => {
      const res = await app.inject(`/v1/contract/ghostnet/${address}/mempool`);
      expect(res.statusCode).toBe(200);
      return res.json<
        Array<{ hash: string; timestamp: string; content_index: number; status: string; mempool: boolean }>
      >();
    };

    it('keeps the time a group was first seen and lists the newest first', async () => {
      pending = { applied: [{ hash: 'ooFirst', contents: [transfer(ALICE, BOB, 1)] }], validated: [] };
      const first = await read(ALICE);
      expect(first).toMatchObject([
        { hash: 'ooFirst', timestamp: '2026-01-10T12:00:00Z', status: 'pending', mempool: true },
      ]);

      clock.advance(5_000);
      pending = {
        applied: [{ hash: 'ooFirst', contents: [transfer(ALICE, BOB, 1)] }],
        validated: [{ hash: 'ooSecond', contents: [transfer(CAROL, ALICE, 7)] }],
      };
      expect((await read(ALICE)).map((o) => [o.hash, o.timestamp])).toEqual([
        ['ooSecond', '2026-01-10T12:00:05Z'],
        ['ooFirst', '2026-01-10T12:00:00Z'],
      ]);

      // a group that left the mempool is forgotten: seen again later, it is new again
      clock.advance(5_000);
      pending = { applied: [{ hash: 'ooSecond', contents: [transfer(CAROL, ALICE, 7)] }], validated: [] };
      expect((await read(ALICE)).map((o) => o.hash)).toEqual(['ooSecond']);
      clock.advance(5_000);
      pending = {
        applied: [
          { hash: 'ooSecond', contents: [transfer(CAROL, ALICE, 7)] },
          { hash: 'ooFirst', contents: [transfer(ALICE, BOB, 1)] },
        ],
        validated: [],
      };
      expect((await read(ALICE)).map((o) => [o.hash, o.timestamp])).toEqual([
        ['ooFirst', '2026-01-10T12:00:15Z'],
        ['ooSecond', '2026-01-10T12:00:05Z'],
      ]);
    });

    it('orders groups seen at once by the node order, newest (last) first, and keeps a batch in order', async () => {
      clock.advance(60_000);
      pending = {
        applied: [
          { hash: 'ooBatch', contents: [transfer(BOB, CAROL, 3), transfer(BOB, ALICE, 4)] },
          { hash: 'ooLater', contents: [transfer(BOB, ALICE, 5)] },
        ],
        validated: [],
      };
      const rows = await read(BOB);
      expect(rows.map((o) => [o.hash, o.content_index])).toEqual([
        ['ooLater', 0],
        ['ooBatch', 0],
        ['ooBatch', 1],
      ]);
    });
  },
);
