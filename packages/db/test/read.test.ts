import { afterEach, expect, it } from 'vitest';
import { getHeads, getStats, zeroStats } from '../src/read/index';
import { describeDb } from '../src/testing';

// PGlite and PostgreSQL: the read queries and each driver's value types (int8, timestamptz).
describeDb('read queries', { backends: 'both' }, ({ db }) => {
  afterEach(async () => {
    await db().deleteFrom('indexer_state').execute();
    await db().deleteFrom('stats').execute();
    await db().deleteFrom('blocks').execute();
    await db().deleteFrom('protocols').execute();
  });

  async function protocol(network: string, hash: string, costPerByte: number): Promise<number> {
    const row = await db()
      .insertInto('protocols')
      .values({
        network,
        hash,
        start_level: 0,
        chain_id: 'NetXchain',
        cost_per_byte: costPerByte,
        hard_gas_limit_per_operation: 1_040_000,
        hard_storage_limit_per_operation: 60_000,
        time_between_blocks: 2,
        constants: {},
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('getHeads joins the indexer state with its block and that block protocol', async () => {
    const a = await protocol('sandboxnet', 'PtA', 250);
    const b = await protocol('sandboxnet', 'PtB', 300);
    const ts = new Date('2026-01-10T12:00:00Z');
    await db()
      .insertInto('blocks')
      .values([
        {
          network: 'sandboxnet',
          level: 1,
          hash: 'BL1',
          predecessor: 'BL0',
          timestamp: ts,
          protocol_id: a,
          chain_id: 'NetXchain',
        },
        {
          network: 'sandboxnet',
          level: 2,
          hash: 'BL2',
          predecessor: 'BL1',
          timestamp: ts,
          protocol_id: b,
          chain_id: 'NetXchain',
        },
      ])
      .execute();
    await db()
      .insertInto('indexer_state')
      .values({ network: 'sandboxnet', level: 1, hash: 'BL1', timestamp: ts })
      .execute();

    const heads = await getHeads(db(), ['sandboxnet', 'mainnet']);
    expect([...heads.keys()]).toEqual(['sandboxnet']);
    const head = heads.get('sandboxnet');
    expect(head).toMatchObject({
      level: 1,
      hash: 'BL1',
      predecessor: 'BL0',
      protocol: 'PtA',
      cost_per_byte: 250,
      time_between_blocks: 2,
    });
    expect(head?.timestamp).toBeInstanceOf(Date);
    expect(head?.timestamp.toISOString()).toBe('2026-01-10T12:00:00.000Z');
  });

  it('getHeads keeps a head whose block row is missing, with nulls for the block fields', async () => {
    await db()
      .insertInto('indexer_state')
      .values({ network: 'ghostnet', level: 9, hash: 'BL9', timestamp: new Date() })
      .execute();
    const head = (await getHeads(db(), ['ghostnet'])).get('ghostnet');
    expect(head).toMatchObject({
      level: 9,
      hash: 'BL9',
      protocol: null,
      predecessor: null,
      cost_per_byte: null,
    });
  });

  it('getHeads and getStats ignore networks not asked for and accept an empty list', async () => {
    await db()
      .insertInto('indexer_state')
      .values({ network: 'other', level: 1, hash: 'x', timestamp: new Date() })
      .execute();
    await db().insertInto('stats').values({ network: 'other', tx_count: 3 }).execute();
    expect((await getHeads(db(), ['mainnet'])).size).toBe(0);
    expect((await getStats(db(), ['mainnet'])).size).toBe(0);
    expect((await getHeads(db(), [])).size).toBe(0);
    expect((await getStats(db(), [])).size).toBe(0);
  });

  it('getStats returns every counter as a number', async () => {
    await db()
      .insertInto('stats')
      .values({ network: 'mainnet', tx_count: 3, operations_count: 9_007_199_254 })
      .execute();
    const stats = (await getStats(db(), ['mainnet'])).get('mainnet');
    expect(stats).toEqual({ ...zeroStats(), tx_count: 3, operations_count: 9_007_199_254 });
    expect(Object.keys(stats ?? {})).not.toContain('network');
  });
});
