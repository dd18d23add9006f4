import { describeDb } from '@michelscope/db/testing';
import type { Block } from '@michelscope/api-types';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { fakeClock, insertBlock, insertProtocol, makeApi } from './helpers';

const OLD_PROTO = 'PtNairobiyssHuh87hEhfVBGCVrK3WnS8Z2FT4ymB5tAa4r1nQf';
const NEW_PROTO = 'PtParisBxoLz5gzMmn3d9WBQNoPSZakgnkMC2VNuQ3KXfUtUQeZ';
const ZERO_STATS = {
  contracts_count: 0,
  smart_rollups_count: 0,
  global_constants_count: 0,
  operations_count: 0,
  events_count: 0,
  tx_count: 0,
  originations_count: 0,
  sr_originations_count: 0,
  sr_executes_count: 0,
  register_global_constants_count: 0,
  transfer_tickets_count: 0,
};

// PGlite only: API route logic over ordinary reads.
describeDb('GET /v1/stats', { backends: 'pglite' }, ({ db }) => {
  const clock = fakeClock();
  let app: FastifyInstance;

  beforeAll(async () => {
    // mainnet moved from an old protocol to a new one with other constants; its head is on the new one.
    const oldP = await insertProtocol(db(), 'mainnet', {
      hash: OLD_PROTO,
      startLevel: 1,
      costPerByte: 250,
      hardGas: 1_040_000,
      hardStorage: 60_000,
      timeBetweenBlocks: 15,
    });
    const newP = await insertProtocol(db(), 'mainnet', {
      hash: NEW_PROTO,
      startLevel: 101,
      costPerByte: 300,
      hardGas: 2_000_000,
      hardStorage: 70_000,
      timeBetweenBlocks: 10,
    });
    await insertBlock(db(), 'mainnet', {
      level: 100,
      hash: 'BLmain100',
      predecessor: 'BLmain99',
      timestamp: new Date('2026-01-10T11:58:00Z'),
      protocolId: oldP,
    });
    await insertBlock(db(), 'mainnet', {
      level: 101,
      hash: 'BLmain101',
      predecessor: 'BLmain100',
      timestamp: new Date('2026-01-10T11:58:10Z'),
      protocolId: newP,
      chainId: 'NetXdQprcVkpaWU',
    });
    await db()
      .insertInto('stats')
      .values({
        network: 'mainnet',
        contracts_count: 12,
        operations_count: 5_000_000_000,
        tx_count: 7,
        events_count: 1,
      })
      .execute();
    app = await makeApi(db(), { now: clock.now });
  });
  afterAll(() => app.close());

  it('gives every configured network in order, with head block, protocol constants and counters', async () => {
    const res = await app.inject('/v1/stats');
    expect(res.statusCode).toBe(200);
    const blocks = res.json<Block[]>();
    expect(blocks.map((b) => b.network)).toEqual(['mainnet', 'sandboxnet', 'parisnet', 'ghostnet']);
    expect(blocks[0]).toEqual({
      network: 'mainnet',
      hash: 'BLmain101',
      level: 101,
      predecessor: 'BLmain100',
      chain_id: 'NetXdQprcVkpaWU',
      timestamp: '2026-01-10T11:58:10Z',
      protocol: NEW_PROTO,
      cost_per_byte: 300,
      hard_gas_limit_per_operation: 2_000_000,
      hard_storage_limit_per_operation: 70_000,
      time_between_blocks: 10,
      stats: {
        ...ZERO_STATS,
        contracts_count: 12,
        operations_count: 5_000_000_000,
        tx_count: 7,
        events_count: 1,
      },
    });
  });

  it('shows networks without data with zeros', async () => {
    const blocks = (await app.inject('/v1/stats')).json<Block[]>();
    expect(blocks.find((b) => b.network === 'ghostnet')).toEqual({
      network: 'ghostnet',
      hash: '',
      level: 0,
      predecessor: '',
      chain_id: '',
      timestamp: '0001-01-01T00:00:00Z',
      protocol: '',
      cost_per_byte: 0,
      hard_gas_limit_per_operation: 0,
      hard_storage_limit_per_operation: 0,
      time_between_blocks: 0,
      stats: ZERO_STATS,
    });
  });

  it('caches for 30 s', async () => {
    const fresh = await makeApi(db(), { now: clock.now });
    expect((await fresh.inject('/v1/stats')).json<Block[]>()[0]?.stats?.contracts_count).toBe(12);
    await db().updateTable('stats').set({ contracts_count: 13 }).where('network', '=', 'mainnet').execute();
    clock.advance(29_000);
    expect((await fresh.inject('/v1/stats')).json<Block[]>()[0]?.stats?.contracts_count).toBe(12);
    clock.advance(1_001);
    expect((await fresh.inject('/v1/stats')).json<Block[]>()[0]?.stats?.contracts_count).toBe(13);
    await fresh.close();
  });
});
