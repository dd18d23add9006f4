import { describeDb } from '@michelscope/db/testing';
import type { Head } from '@michelscope/api-types';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { clearTables, fakeClock, insertBlock, insertProtocol, makeApi } from './helpers';

const PROTO = 'PtParisBxoLz5gzMmn3d9WBQNoPSZakgnkMC2VNuQ3KXfUtUQeZ';
const NOW = Date.parse('2026-01-10T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms);

// PGlite only: API route logic over ordinary reads.
describeDb('GET /v1/head', { backends: 'pglite' }, ({ db }) => {
  const clock = fakeClock(NOW);
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApi(db(), { now: clock.now });
  });
  afterAll(() => app.close());
  beforeEach(async () => {
    await clearTables(db());
    clock.set(NOW);
  });

  /** A new app, so no response cached by an earlier test is seen. */
  const fresh = () => makeApi(db(), { now: clock.now });

  it('lists every configured network even with no data: level 0, zero time, not synced', async () => {
    const a = await fresh();
    const res = await a.inject('/v1/head');
    await a.close();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(
      ['mainnet', 'sandboxnet', 'parisnet', 'ghostnet'].map((network) => ({
        network,
        level: 0,
        time: '0001-01-01T00:00:00Z',
        protocol: '',
        synced: false,
      })),
    );
  });

  it('is synced when the head block is at most 2 minutes old, unsynced when older', async () => {
    const p1 = await insertProtocol(db(), 'sandboxnet', { hash: PROTO, startLevel: 0 });
    const p2 = await insertProtocol(db(), 'ghostnet', { hash: PROTO, startLevel: 0 });
    await insertBlock(db(), 'sandboxnet', {
      level: 42,
      hash: 'BLsandbox42',
      predecessor: 'BLsandbox41',
      timestamp: ago(60_000),
      protocolId: p1,
    });
    await insertBlock(db(), 'ghostnet', {
      level: 7,
      hash: 'BLghost7',
      predecessor: 'BLghost6',
      timestamp: ago(3 * 60_000),
      protocolId: p2,
    });
    const a = await fresh();
    const heads = (await a.inject('/v1/head')).json<Head[]>();
    await a.close();
    expect(heads.find((h) => h.network === 'sandboxnet')).toEqual({
      network: 'sandboxnet',
      level: 42,
      time: '2026-01-10T11:59:00Z',
      protocol: PROTO,
      synced: true,
    });
    expect(heads.find((h) => h.network === 'ghostnet')).toEqual({
      network: 'ghostnet',
      level: 7,
      time: '2026-01-10T11:57:00Z',
      protocol: PROTO,
      synced: false,
    });
    expect(heads.find((h) => h.network === 'mainnet')?.synced).toBe(false);
  });

  it('turns unsynced once the head ages past 2 minutes', async () => {
    const p = await insertProtocol(db(), 'mainnet', { hash: PROTO, startLevel: 0 });
    await insertBlock(db(), 'mainnet', {
      level: 5,
      hash: 'BLm5',
      predecessor: 'BLm4',
      timestamp: ago(0),
      protocolId: p,
    });
    const a = await fresh();
    expect((await a.inject('/v1/head/mainnet')).json<Head>().synced).toBe(true);
    clock.advance(2 * 60_000 + 10_001); // past the window and past the 10 s cache
    expect((await a.inject('/v1/head/mainnet')).json<Head>().synced).toBe(false);
    await a.close();
  });

  it('follows the indexer state, not the highest block row', async () => {
    const p = await insertProtocol(db(), 'parisnet', { hash: PROTO, startLevel: 0 });
    await insertBlock(db(), 'parisnet', {
      level: 10,
      hash: 'BLp10',
      predecessor: 'BLp9',
      timestamp: ago(20_000),
      protocolId: p,
    });
    // A block row without the state moving (e.g. written before a reorg is finished) is not the head.
    await insertBlock(db(), 'parisnet', {
      level: 11,
      hash: 'BLp11',
      predecessor: 'BLp10',
      timestamp: ago(10_000),
      protocolId: p,
      head: false,
    });
    const a = await fresh();
    const head = (await a.inject('/v1/head/parisnet')).json<Head>();
    await a.close();
    expect(head.level).toBe(10);
  });

  it('answers one network with GET /v1/head/{network}', async () => {
    const a = await fresh();
    const res = await a.inject('/v1/head/ghostnet');
    await a.close();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      network: 'ghostnet',
      level: 0,
      time: '0001-01-01T00:00:00Z',
      protocol: '',
      synced: false,
    });
  });

  it('rejects an unconfigured or malformed network with 400 {"message"}', async () => {
    for (const url of [
      '/v1/head/oxfordnet',
      '/v1/head/MAINNET',
      "/v1/head/x'%20OR%201=1",
      `/v1/head/${'a'.repeat(90)}`,
    ]) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(400);
      expect(Object.keys(res.json()), url).toEqual(['message']);
    }
    expect((await app.inject('/v1/head/oxfordnet')).json()).toEqual({
      message: 'unknown network: oxfordnet',
    });
  });

  it('caches for 10 s: a new block is invisible within the TTL and visible after it', async () => {
    const a = await fresh();
    const first = (await a.inject('/v1/head')).json<Head[]>();
    expect(first.find((h) => h.network === 'sandboxnet')?.level).toBe(0);

    const p = await insertProtocol(db(), 'sandboxnet', { hash: PROTO, startLevel: 0 });
    await insertBlock(db(), 'sandboxnet', {
      level: 1,
      hash: 'BLs1',
      predecessor: 'BLs0',
      timestamp: ago(0),
      protocolId: p,
    });
    clock.advance(9_000);
    expect((await a.inject('/v1/head')).json<Head[]>().find((h) => h.network === 'sandboxnet')?.level).toBe(
      0,
    );
    // Each URL has its own entry: the per-network route was not cached yet, so it sees the block.
    expect((await a.inject('/v1/head/sandboxnet')).json<Head>().level).toBe(1);

    clock.advance(1_001);
    expect((await a.inject('/v1/head')).json<Head[]>().find((h) => h.network === 'sandboxnet')?.level).toBe(
      1,
    );
    await a.close();
  });
});
