import { afterEach, expect, it } from 'vitest';
import { bigMapKeys, bigMapKeysPage } from '../src/read/big-maps';
import { bigMapKeysAll } from '../src/read/export-big-maps';
import { describeDb } from '../src/testing';

// PGlite and PostgreSQL (row-value comparison in the export's keyset): a big map's keys are listed in chain
// order, the level a key first appeared at, newest first, then the order of that level's keys (issue 32).
describeDb('a big map’s keys in chain order', { backends: 'both' }, ({ db }) => {
  afterEach(async () => {
    await db().deleteFrom('big_map_states').execute();
  });

  /**
   * The keys of a network whose history was backfilled: the forward index stored the keys first seen at
   * levels 120 and 130 (ids 1 and 2), the backfill then stored older ones, its newest page first (level 60:
   * ids 3 and 4, then level 40: id 5). An index from genesis lists them 130, 120, 60 (its second key first),
   * 40: by id alone they came 5, 4, 3, 2, 1.
   */
  async function backfilledKeys() {
    const key = (id: number, level: number) => ({
      id,
      network: 'remotenet',
      ptr: 7,
      key_hash: `expr${id}`,
      contract: 'KT1',
      key: JSON.stringify({ string: `k${id}` }),
      value: JSON.stringify({ int: `${id}` }),
      removed: false,
      last_update_level: 140,
      last_update_time: new Date('2026-01-10T12:00:00Z'),
      count: 1,
      level,
    });
    await db()
      .insertInto('big_map_states')
      .values([key(1, 120), key(2, 130), key(3, 60), key(4, 60), key(5, 40)])
      .execute();
  }

  it('lists, pages and exports the keys by the level they first appeared at, not by when they were stored', async () => {
    await backfilledKeys();
    const all = await bigMapKeys(db(), 'remotenet', 7, { size: 10, offset: 0 });
    expect(all.map((k) => k.key_hash)).toEqual(['expr2', 'expr1', 'expr4', 'expr3', 'expr5']);
    const second = await bigMapKeys(db(), 'remotenet', 7, { size: 2, offset: 2 });
    expect(second.map((k) => k.key_hash)).toEqual(['expr4', 'expr3']);
    const page = await bigMapKeysPage(db(), 'remotenet', 7, 3, 1);
    expect(page.rows.map((k) => k.key_hash)).toEqual(['expr1', 'expr4', 'expr3']);
    const exported: string[] = [];
    for await (const rows of bigMapKeysAll(db(), 'remotenet', 7, {}, 2))
      exported.push(...rows.map((r) => r.key_hash));
    expect(exported).toEqual(['expr2', 'expr1', 'expr4', 'expr3', 'expr5']);
  });
});
