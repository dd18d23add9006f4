import { afterEach, expect, it } from 'vitest';
import { bigMapKeys, bigMapKeysPage, DEEP_OFFSET, KEY_TEXT_PROBE, keyTextProbe } from '../src/read/big-maps';
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
  it('a deep page (offset ≥ DEEP_OFFSET, ids from the index, then the rows) is the page the plain query reads', async () => {
    // levels repeat (several keys a level) and ids do not follow them, as after a backfill
    const n = DEEP_OFFSET + 40;
    const keys = Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      network: 'remotenet',
      ptr: 8,
      key_hash: `expr${i + 1}`,
      contract: 'KT1',
      key: JSON.stringify({ int: `${i}` }),
      value: JSON.stringify({ int: `${i}` }),
      removed: false,
      last_update_level: 2000,
      last_update_time: new Date('2026-01-10T12:00:00Z'),
      count: 1,
      level: 1 + ((i * 37) % 300),
    }));
    for (let i = 0; i < n; i += 500)
      await db()
        .insertInto('big_map_states')
        .values(keys.slice(i, i + 500))
        .execute();
    for (const offset of [DEEP_OFFSET - 1, DEEP_OFFSET, DEEP_OFFSET + 33, n]) {
      const page = await bigMapKeysPage(db(), 'remotenet', 8, 10, offset);
      const plain = await bigMapKeys(db(), 'remotenet', 8, { size: 10, offset });
      expect(page.rows.map((k) => k.key_hash)).toEqual(plain.map((k) => k.key_hash));
      expect(page.rows.length).toBe(Math.max(0, Math.min(10, n - offset)));
    }
  });

  it('keyset pages (after a key hash) walk every key once, in the order offset pages give', async () => {
    // levels repeat and ids do not follow them (as after a backfill): the cursor is (level, id), not the id
    const n = 57;
    await db()
      .insertInto('big_map_states')
      .values(
        Array.from({ length: n }, (_, i) => ({
          id: 1 + ((i * 23) % n),
          network: 'remotenet',
          ptr: 10,
          key_hash: `exprKeyset${i}`,
          contract: 'KT1',
          key: JSON.stringify({ int: `${i}` }),
          key_text: `${i}`,
          value: null,
          removed: i % 5 === 0,
          last_update_level: 100,
          last_update_time: new Date('2026-01-10T12:00:00Z'),
          count: 1,
          level: 1 + (i % 7),
        })),
      )
      .execute();
    const byOffset = (await bigMapKeys(db(), 'remotenet', 10, { size: 100, offset: 0 })).map(
      (k) => k.key_hash,
    );
    expect(byOffset).toHaveLength(n);
    // the unfiltered page's own statement and the filtered read take the same cursor
    const walked: string[] = [];
    const filtered: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = (await bigMapKeysPage(db(), 'remotenet', 10, 8, after ? { after } : 0)).rows;
      if (!page.length) break;
      walked.push(...page.map((k) => k.key_hash));
      after = page.at(-1)!.key_hash;
    }
    after = undefined;
    for (;;) {
      const page = await bigMapKeys(db(), 'remotenet', 10, { size: 8, offset: 0, activeOnly: true, after });
      if (!page.length) break;
      filtered.push(...page.map((k) => k.key_hash));
      after = page.at(-1)!.key_hash;
    }
    expect(walked).toEqual(byOffset);
    const active = (await bigMapKeys(db(), 'remotenet', 10, { size: 100, offset: 0, activeOnly: true })).map(
      (k) => k.key_hash,
    );
    expect(filtered).toEqual(active);
    expect(filtered.length).toBeLessThan(n);
    // the cursor's page is the same as the offset page it continues
    const third = await bigMapKeysPage(db(), 'remotenet', 10, 8, { after: byOffset[15]! });
    expect(third.rows.map((k) => k.key_hash)).toEqual(byOffset.slice(16, 24));
    // a hash that is no key of the map (or a key of another map) gives nothing
    expect((await bigMapKeysPage(db(), 'remotenet', 10, 8, { after: 'exprNoSuchKey' })).rows).toEqual([]);
    expect((await bigMapKeysPage(db(), 'remotenet', 11, 8, { after: byOffset[0]! })).rows).toEqual([]);
  });

  /** A key of big map 9 with its readable text (null: unknown, the filter reads its JSON). */
  const key = (id: number, key: unknown, key_text: string | null) => ({
    id,
    network: 'remotenet',
    ptr: 9,
    key_hash: `exprFilter${id}`,
    contract: 'KT1',
    key: JSON.stringify(key),
    key_text,
    value: null,
    removed: false,
    last_update_level: 10,
    last_update_time: new Date('2026-01-10T12:00:00Z'),
    count: 1,
    level: id,
  });

  it('the filter matches a key hash, the key text, and the key JSON only where the text is unknown', async () => {
    await db()
      .insertInto('big_map_states')
      .values([
        key(1, { bytes: '0000abcdef' }, 'tz1Readable'),
        key(2, { string: 'tz1Older' }, null),
        key(3, { string: 'other' }, 'other'),
      ])
      .execute();
    const hashes = async (search: string) =>
      (await bigMapKeys(db(), 'remotenet', 9, { size: 10, offset: 0, search })).map((k) => k.key_hash);
    expect(await hashes('exprFilter3')).toEqual(['exprFilter3']);
    expect(await hashes('readable')).toEqual(['exprFilter1']);
    // the bytes of key 1 are not what its page shows (its text is): not matched; key 2 has no text: its JSON
    expect(await hashes('abcdef')).toEqual([]);
    expect(await hashes('tz1older')).toEqual(['exprFilter2']);
    expect(await hashes('tz1')).toEqual(['exprFilter2', 'exprFilter1']);
    // a whole key hash names its key alone (the unique index), not text inside other keys
    const hash = 'exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC';
    await db()
      .insertInto('big_map_states')
      .values([
        { ...key(4, { string: 'x' }, 'x'), key_hash: hash },
        key(5, { string: `see ${hash}` }, `"see ${hash}"`),
      ])
      .execute();
    expect(await hashes(hash)).toEqual([hash]);
    expect(await hashes(hash.slice(0, 53))).toEqual(['exprFilter5']);
    const exported: string[] = [];
    for await (const rows of bigMapKeysAll(db(), 'remotenet', 9, { search: hash }, 10))
      exported.push(...rows.map((r) => r.key_hash));
    expect(exported).toEqual([hash]);
  });

  it('a long base58 filter (a piece of an address) is looked up by its end, and matched whole, in any case', async () => {
    const alice = 'tz1JzKt9iaHxeTYBNN4tXS11PtxQrUrG3xLa';
    // same last five characters as the piece of alice's address below, not the piece
    const decoy = 'tz1Ab3cDeFgHiJkLmNoPqRsTuVwXTYBNN4zz';
    const piece = alice.slice(8, 19);
    expect(keyTextProbe(piece)).toBe(piece.slice(-KEY_TEXT_PROBE));
    expect(decoy).toContain(keyTextProbe(piece));
    await db()
      .insertInto('big_map_states')
      .values([
        key(1, { prim: 'Pair', args: [{ string: alice }, { int: '1' }] }, `Pair "${alice}" 1`),
        key(2, { string: decoy }, decoy),
        // a key whose text is unknown: its JSON is matched
        key(3, { string: `${alice}` }, null),
        key(4, { string: 'tz1Other' }, 'tz1Other'),
      ])
      .execute();
    const hashes = async (search: string) =>
      (await bigMapKeys(db(), 'remotenet', 9, { size: 10, offset: 0, search })).map((k) => k.key_hash);
    expect(await hashes(piece)).toEqual(['exprFilter3', 'exprFilter1']);
    expect(await hashes(piece.toLowerCase())).toEqual(['exprFilter3', 'exprFilter1']);
    expect(await hashes(alice)).toEqual(['exprFilter3', 'exprFilter1']);
    expect(await hashes(decoy.slice(3))).toEqual(['exprFilter2']);
    // texts that are not base58 alone are looked up whole (a space, a quote, `0`/`O`/`I`/`l`)
    expect(keyTextProbe(`"${alice}`)).toBeUndefined();
    expect(keyTextProbe('Pair 1 2')).toBeUndefined();
    expect(keyTextProbe('tz1Oth')).toBeUndefined();
    expect(await hashes(`"${alice}"`)).toEqual(['exprFilter3', 'exprFilter1']);
    expect(await hashes('1Other')).toEqual(['exprFilter4']);
  });
});
