import { describeDb } from '@michelscope/db/testing';
import { applyBlock, emptyBlockData, revertBlock, type OperationRow } from '@michelscope/db/write';
import { encodeLiveNotice, LIVE_PAYLOAD_MAX, type Db } from '@michelscope/db';
import { sql } from 'kysely';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi, type ApiOptions } from '../src/index';
import { decodeLiveNotice } from '@michelscope/db/read';
import { openSse, type SseStream } from './live-client';

const NET = 'sandboxnet';
const PROTO = 'PtParisBxoLz5gzMmn3d9WBQNoPSZakgnkMC2VNuQ3KXfUtUQeZ';
const ALICE = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const BOB = 'tz1gjaF81ZRRvdzjobyfVNsAeSC6PScjfQwN';
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** A well-formed operation group hash (o + 50 base58 characters). */
const opg = (n: number) => `oo${String(n).padStart(8, '1').replace(/0/g, 'z')}${B58.slice(0, 41)}`;

/** The node the API asks for balances, the mempool and its head (a Tezos node's routes, answers set by the test). */
const balances = new Map<string, number>();
let mempool: string[] = [];

function transfer(
  hash: string,
  source: string,
  destination: string,
  status: OperationRow['status'] = 'applied',
): OperationRow {
  return {
    hash,
    counter: 1,
    content_index: 0,
    nonce: null,
    internal: false,
    kind: 'transaction',
    status,
    source,
    destination,
    initiator: null,
    delegate: null,
    fee: 400,
    gas_limit: 1100,
    storage_limit: 0,
    amount: '1000',
    consumed_gas: 0,
    storage_size: 0,
    paid_storage_size_diff: 0,
    burned: 0,
    allocated_destination_contract_burned: 0,
    allocated_destination_contract: false,
    entrypoint: null,
    tag: null,
    tags: 0,
    parameters: null,
    storage: null,
    payload: null,
    payload_type: null,
    errors: null,
    big_map_diffs_count: 0,
    ticket_updates_count: 0,
  };
}

/** Writes blocks as the indexer does (db/write, one transaction each, with the live NOTIFY). */
function chain(db: () => Db) {
  let level = 0;
  let prev = 'BLgenesis';
  return {
    get level() {
      return level;
    },
    async block(ops: OperationRow[] = [], bigMapKeys: Array<{ ptr: number; key: string }> = []) {
      const next = level + 1;
      const hash = `BLlive${next}`;
      const data = emptyBlockData();
      data.operations.push(...ops);
      const touched = new Set(ops.flatMap((o) => [o.source, o.destination]));
      for (const a of touched)
        if (a)
          data.accounts.push({
            address: a,
            type: 'account',
            operations_count: 1,
            events_count: 0,
            migrations_count: 0,
            ticket_updates_count: 0,
          });
      for (const k of bigMapKeys)
        data.bigMapDiffs.push({
          op: 0,
          ptr: k.ptr,
          contract: ALICE,
          key: { string: k.key },
          key_hash: `expr${k.key}`,
          value: { int: '1' },
        });
      await applyBlock(
        db(),
        NET,
        {
          level: next,
          hash,
          predecessor: prev,
          timestamp: new Date(),
          chainId: 'NetXsandbox',
          protocol: PROTO,
        },
        next === 1
          ? {
              hash: PROTO,
              chainId: 'NetXsandbox',
              startLevel: 1,
              costPerByte: 250,
              hardGasLimitPerOperation: 1_040_000,
              hardStorageLimitPerOperation: 60_000,
              timeBetweenBlocks: 8,
              constants: {},
            }
          : undefined,
        data,
      );
      prev = hash;
      level = next;
      return level;
    },
    async revert() {
      await revertBlock(db(), NET, level);
      level--;
      prev = `BLlive${level}`;
    },
  };
}

describe('live notice payload', () => {
  it('keeps the lists when they fit and asks the listener to expand them when they do not', () => {
    const small = decodeLiveNotice(
      encodeLiveNotice({
        kind: 'block',
        network: NET,
        level: 7,
        from: 7,
        hash: 'BLx',
        time: '2026-01-01T00:00:00.000Z',
        protocol: PROTO,
        addresses: [ALICE],
        bigMaps: [3],
        operations: [opg(1)],
      }),
    );
    expect(small).toMatchObject({ level: 7, addresses: [ALICE], bigMaps: [3], operations: [opg(1)] });
    expect(small).not.toHaveProperty('expand');
    const many = Array.from({ length: 300 }, () => ALICE);
    const big = encodeLiveNotice({
      kind: 'block',
      network: NET,
      level: 8,
      from: 8,
      hash: 'BLy',
      time: '2026-01-01T00:00:00.000Z',
      protocol: PROTO,
      addresses: many,
      bigMaps: [],
      operations: [],
    });
    expect(Buffer.byteLength(big)).toBeLessThan(LIVE_PAYLOAD_MAX);
    expect(decodeLiveNotice(big)).toMatchObject({ level: 8, expand: true });
    expect(decodeLiveNotice(big)).not.toHaveProperty('addresses');
  });
});

// PGlite and PostgreSQL: LISTEN/NOTIFY, a dropped listening connection and two pools (openAnother).
describeDb(
  'GET /v1/live/{network}: events from the indexer through the database',
  { backends: 'both' },
  ({ db, handle, openAnother }) => {
    let node: FastifyInstance;
    let nodeUrl = '';
    const apps: FastifyInstance[] = [];
    const streams: SseStream[] = [];
    const c = chain(db);

    const start = async (source = handle(), extra: Partial<ApiOptions> = {}) => {
      const app = await buildApi({
        db: source.db,
        networks: [{ name: NET, rpcUrl: nodeUrl, publicRpcUrl: nodeUrl, statsEnabled: false }],
        rateLimit: false,
        live: { source, mempoolPollMs: 100, maxConnectionsPerIp: 5 },
        ...extra,
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      return `http://127.0.0.1:${address.port}`;
    };
    const open = async (url: string, headers: Record<string, string> = {}) => {
      const s = await openSse(url, headers);
      streams.push(s);
      return s;
    };

    beforeAll(async () => {
      node = Fastify({ forceCloseConnections: true });
      node.get<{ Params: { address: string } }>(
        '/chains/main/blocks/:level/context/contracts/:address/balance',
        async (req) => String(balances.get(req.params.address) ?? 0),
      );
      // the node is at the indexed head: the head events say synced
      node.get('/chains/main/blocks/head/header', async () => ({ level: c.level, hash: `BLlive${c.level}` }));
      node.get('/chains/main/mempool/pending_operations', async () => ({
        applied: mempool.map((hash) => ({ hash, branch: 'BLx', contents: [] })),
        validated: [],
      }));
      await node.listen({ port: 0, host: '127.0.0.1' });
      const address = node.server.address();
      if (!address || typeof address === 'string') throw new Error('no node port');
      nodeUrl = `http://127.0.0.1:${address.port}`;
      await c.block();
    });
    afterAll(async () => {
      for (const s of streams) s.close();
      for (const app of apps) await app.close();
      await node.close();
    });

    it('sends the head at once, then a written block as operations, balance, big_map and head events', async () => {
      const base = await start();
      const s = await open(`${base}/v1/live/${NET}?address=${ALICE}&big_map=4`);
      expect(s.status).toBe(200);
      const first = await s.next((e) => e.type === 'head');
      expect(first.data).toMatchObject({
        network: NET,
        level: c.level,
        hash: `BLlive${c.level}`,
        synced: true,
        node_reachable: true,
        node_level: c.level,
        lag: 0,
      });
      expect(first.id).toBe(String(c.level));

      balances.set(ALICE, 4_000_123);
      const level = await c.block(
        [transfer(opg(1), ALICE, BOB)],
        [
          { ptr: 4, key: 'a' },
          { ptr: 4, key: 'b' },
        ],
      );
      const ops = await s.next((e) => e.type === 'operations');
      expect(ops.data).toEqual({ network: NET, address: ALICE, level, hashes: [opg(1)] });
      const balance = await s.next((e) => e.type === 'balance');
      expect(balance.data).toEqual({ network: NET, address: ALICE, level, balance: 4_000_123 });
      const bigMap = await s.next((e) => e.type === 'big_map');
      expect(bigMap.data).toEqual({ network: NET, ptr: 4, level, count: 2 });
      const head = await s.next((e) => e.type === 'head');
      expect(head).toMatchObject({ id: String(level), data: { level, hash: `BLlive${level}` } });

      // a block that touches nobody subscribed: the head only
      const other = await c.block([transfer(opg(2), BOB, BOB)]);
      const next = await s.next(() => true);
      expect(next).toMatchObject({ type: 'head', data: { level: other } });
    });

    it("drops the cached answers of a big map a block changed, so a live page's refetch reads the new counts", async () => {
      const base = await start();
      const s = await open(`${base}/v1/live/${NET}?big_map=5`);
      await s.next((e) => e.type === 'head');
      const info = async () => {
        const r = await fetch(`${base}/v1/bigmap/${NET}/5`);
        expect(r.status).toBe(200);
        return (await r.json()) as { total_keys: number; active_keys: number };
      };
      await c.block([transfer(opg(7), ALICE, BOB)], [{ ptr: 5, key: 'x' }]);
      await s.next((e) => e.type === 'big_map');
      expect(await info()).toMatchObject({ total_keys: 1, active_keys: 1 }); // now cached for 30 s
      await c.block([transfer(opg(8), ALICE, BOB)], [{ ptr: 5, key: 'y' }]);
      const ev = await s.next((e) => e.type === 'big_map');
      expect(ev.data).toMatchObject({ ptr: 5, count: 1 });
      expect(await info()).toMatchObject({ total_keys: 2, active_keys: 2 });
    });

    it('follows an operation hash from the mempool (pending) to its block (applied, failed)', async () => {
      const base = await start();
      const okHash = opg(3);
      const badHash = opg(4);
      mempool = [okHash, badHash];
      const s = await open(`${base}/v1/live/${NET}?operation=${okHash}&operation=${badHash}`);
      const pending = [
        await s.next((e) => e.type === 'operation'),
        await s.next((e) => e.type === 'operation'),
      ];
      expect(pending.map((e) => e.data).sort((a, b) => String(a.hash).localeCompare(String(b.hash)))).toEqual(
        [okHash, badHash].sort().map((hash) => ({ network: NET, hash, status: 'pending' })),
      );
      mempool = [];
      const level = await c.block([transfer(okHash, ALICE, BOB), transfer(badHash, BOB, ALICE, 'failed')]);
      const included = [
        await s.next((e) => e.type === 'operation'),
        await s.next((e) => e.type === 'operation'),
      ];
      expect(Object.fromEntries(included.map((e) => [e.data.hash, e.data]))).toEqual({
        [okHash]: { network: NET, hash: okHash, status: 'applied', level },
        [badHash]: { network: NET, hash: badHash, status: 'failed', level },
      });
      // a new connection for an included hash is told its status at once
      const late = await open(`${base}/v1/live/${NET}?operation=${okHash}`);
      expect((await late.next((e) => e.type === 'operation')).data).toEqual({
        network: NET,
        hash: okHash,
        status: 'applied',
        level,
      });
    });

    it('replays the levels missed by a dropped connection (Last-Event-ID), or sends reset when too far behind', async () => {
      const base = await start();
      const s = await open(`${base}/v1/live/${NET}?address=${BOB}`);
      const seen = await s.next((e) => e.type === 'head');
      s.close();
      await s.closed;
      const l1 = await c.block([transfer(opg(5), ALICE, BOB)]);
      await c.block();
      const l3 = await c.block([transfer(opg(6), BOB, ALICE), transfer(opg(7), ALICE, BOB)]);

      const again = await open(`${base}/v1/live/${NET}?address=${BOB}`, { 'last-event-id': seen.id! });
      const replayed = [
        await again.next((e) => e.type === 'operations'),
        await again.next((e) => e.type === 'operations'),
      ];
      expect(replayed.map((e) => e.data)).toEqual([
        { network: NET, address: BOB, level: l1, hashes: [opg(5)] },
        { network: NET, address: BOB, level: l3, hashes: [opg(6), opg(7)] },
      ]);
      expect(await again.next((e) => e.type === 'head')).toMatchObject({
        id: String(l3),
        data: { level: l3 },
      });
      // and then live again
      const l4 = await c.block([transfer(opg(8), BOB, ALICE)]);
      expect((await again.next((e) => e.type === 'operations')).data).toMatchObject({
        level: l4,
        hashes: [opg(8)],
      });

      // 100 levels at most are replayed: further behind, the page is told to refetch
      while (c.level <= 101) await c.block();
      const far = await open(`${base}/v1/live/${NET}?since_level=0`);
      const reset = await far.next(() => true);
      expect(reset).toMatchObject({
        type: 'reset',
        id: String(c.level),
        data: { reason: 'behind', level: c.level },
      });
    });

    it('tells every connection of a reverted block to refetch (reset, reorg)', async () => {
      const base = await start();
      const s = await open(`${base}/v1/live/${NET}`);
      await s.next((e) => e.type === 'head');
      await c.block();
      await s.next((e) => e.type === 'head');
      await c.revert();
      expect(await s.next(() => true)).toMatchObject({
        type: 'reset',
        data: { reason: 'reorg', level: c.level },
      });
    });

    it('reaches the connections of two API processes on the same database', async () => {
      const one = await start(handle());
      const two = await start(await openAnother());
      const a = await open(`${one}/v1/live/${NET}?address=${ALICE}`);
      const b = await open(`${two}/v1/live/${NET}?address=${ALICE}`);
      await a.next((e) => e.type === 'head');
      await b.next((e) => e.type === 'head');
      const level = await c.block([transfer(opg(9), ALICE, BOB)]);
      for (const s of [a, b])
        expect((await s.next((e) => e.type === 'operations')).data).toEqual({
          network: NET,
          address: ALICE,
          level,
          hashes: [opg(9)],
        });
    });

    it('reopens a dropped LISTEN connection and sends what was stored meanwhile (PostgreSQL; PGlite has no connection to drop)', async () => {
      const another = await openAnother();
      const base = await start(another);
      const s = await open(`${base}/v1/live/${NET}?address=${ALICE}`);
      await s.next((e) => e.type === 'head');
      if (another.kind === 'postgres') {
        // the server drops the listening session (a failover, a restart of PostgreSQL, a network cut)
        const killed = await sql<{ n: number }>`
        SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN "ms_live_' || current_schema() || '"'
          AND pid <> pg_backend_pid()`.execute(db());
        expect(killed.rows[0]!.n).toBeGreaterThan(0);
      }
      const level = await c.block([transfer(opg(10), ALICE, BOB)]);
      expect((await s.next((e) => e.type === 'operations', 15_000)).data).toMatchObject({
        level,
        hashes: [opg(10)],
      });
    });

    it('refuses bad subscriptions and too many connections with {message}', async () => {
      const base = await start();
      const bad = await fetch(`${base}/v1/live/${NET}?address=tz1nope`);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ message: 'invalid address: tz1nope' });
      const many = Array.from({ length: 51 }, (_, i) => `big_map=${i}`).join('&');
      const tooMany = await fetch(`${base}/v1/live/${NET}?${many}`);
      expect(tooMany.status).toBe(400);
      expect(((await tooMany.json()) as { message: string }).message).toMatch(/50/);
      expect((await fetch(`${base}/v1/live/nonet`)).status).toBe(400);
      const badId = await fetch(`${base}/v1/live/${NET}`, { headers: { 'last-event-id': 'x' } });
      expect(badId.status).toBe(400);
      const five = await Promise.all(Array.from({ length: 5 }, () => open(`${base}/v1/live/${NET}`)));
      for (const s of five) expect(s.status).toBe(200);
      const sixth = await fetch(`${base}/v1/live/${NET}`);
      expect(sixth.status).toBe(429);
      expect(await sixth.json()).toEqual({ message: 'too many live connections from this address' });
      for (const s of five) s.close();

      const noLive = await buildApi({
        db: db(),
        networks: [{ name: NET, rpcUrl: nodeUrl, publicRpcUrl: nodeUrl, statsEnabled: false }],
        rateLimit: false,
      });
      const res = await noLive.inject(`/v1/live/${NET}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'live updates are not enabled on this server' });
      await noLive.close();
    });
  },
);
