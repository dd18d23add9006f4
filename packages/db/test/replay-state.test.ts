/**
 * The state an operation ran with inside its block (debug replays): tez moved by the block's earlier operations
 * (a backtracked group's earlier contents count for its own later ones only), big-map entries written earlier
 * in the block, maps copied or allocated in it, originations of the group before it.
 */
import { expect, it } from 'vitest';
import {
  balanceChangeInBlock,
  bigMapChangesOf,
  bigMapEntryInBlock,
  originationsBefore,
  storageSpaceInBlock,
} from '../src/read/index';
import { describeDb } from '../src/testing';

const NET = 'replaynet';
const KT = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5';
const TZ = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const K1 = 'exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC';
const K2 = 'exprvKwnhi4q3tSmdvgqXACxfN6zARGkoikHv7rqohvQKg4cWdgsii';

// PGlite and PostgreSQL: the SQL of the replay reads, tested directly on each engine.
describeDb('replay state within a block', { backends: 'both' }, ({ db }) => {
  const ts = new Date('2026-11-26T12:00:00Z');
  const op = (
    id: number,
    level: number,
    hash: string,
    status: string,
    o: {
      kind?: string;
      source?: string;
      destination?: string;
      amount?: string;
      storage_size?: number;
      paid_storage_size_diff?: number;
    } = {},
  ) => ({
    id,
    network: NET,
    level,
    timestamp: ts,
    protocol_id: 1,
    hash,
    content_index: 0,
    kind: o.kind ?? 'transaction',
    status: status as 'applied',
    source: o.source ?? TZ,
    destination: o.destination ?? KT,
    amount: o.amount ?? '0',
    internal: false,
    tags: 0,
    allocated_destination_contract: false,
    big_map_diffs_count: 0,
    ticket_updates_count: 0,
    storage_size: o.storage_size ?? 0,
    paid_storage_size_diff: o.paid_storage_size_diff ?? 0,
  });
  const diff = (
    id: number,
    operation_id: number,
    level: number,
    ptr: number,
    key_hash: string,
    value: unknown,
  ) => ({
    id,
    network: NET,
    operation_id,
    level,
    timestamp: ts,
    protocol_id: 1,
    ptr,
    contract: KT,
    key: JSON.stringify({ int: '1' }),
    key_hash,
    value: value === null ? null : JSON.stringify(value),
  });

  it('reads what the block changed before an operation, and only that', async () => {
    await db()
      .insertInto('operations')
      .values([
        op(1, 9, 'oA', 'applied', { amount: '500' }), // the level before: not counted
        op(2, 10, 'oB', 'applied', { amount: '1000' }),
        op(3, 10, 'oC', 'applied', { source: KT, destination: TZ, amount: '300' }),
        op(4, 10, 'oD', 'failed', { amount: '7000' }), // failed: moved nothing
        op(5, 10, 'oE', 'backtracked', { amount: '40' }), // backtracked with its group oE
        op(6, 10, 'oE', 'failed'),
        op(7, 10, 'oE', 'backtracked', { kind: 'origination', destination: undefined }),
        op(8, 10, 'oF', 'applied', { amount: '2' }),
        op(9, 10, 'oG', 'applied', { amount: '100000' }), // after the operation
      ])
      .execute();
    expect(await balanceChangeInBlock(db(), NET, KT, { level: 10, beforeId: 8, hash: 'oF' })).toBe(700n);
    // the failed operation of group oE ran after its first content had moved 40 mutez
    expect(await balanceChangeInBlock(db(), NET, KT, { level: 10, beforeId: 6, hash: 'oE' })).toBe(740n);
    expect(await balanceChangeInBlock(db(), NET, KT, { level: 10, beforeId: 2, hash: 'oB' })).toBe(0n);
    expect(await originationsBefore(db(), NET, { level: 10, beforeId: 8, hash: 'oE' })).toBe(1);
    expect(await originationsBefore(db(), NET, { level: 10, beforeId: 7, hash: 'oE' })).toBe(0);

    await db()
      .insertInto('big_map_diffs')
      .values([
        diff(1, 1, 9, 4, K1, { int: '1' }), // the level before: the node's, not this
        diff(2, 2, 10, 4, K1, { int: '2' }),
        diff(3, 3, 10, 4, K1, null), // removed
        diff(4, 8, 10, 4, K2, { int: '5' }),
        diff(5, 9, 10, 4, K1, { int: '9' }), // after the operation
      ])
      .execute();
    await db()
      .insertInto('big_map_actions')
      .values([
        {
          network: NET,
          operation_id: 3,
          level: 10,
          timestamp: ts,
          action: 'copy',
          source_ptr: 4,
          destination_ptr: 6,
          address: KT,
        },
        {
          network: NET,
          operation_id: 3,
          level: 10,
          timestamp: ts,
          action: 'alloc',
          source_ptr: 7,
          destination_ptr: null,
          address: KT,
        },
      ])
      .execute();
    const at = (beforeId: number) => ({ level: 10, beforeId, hash: 'oX' });
    expect(await bigMapEntryInBlock(db(), NET, 4, K1, at(3))).toEqual({ value: { int: '2' } });
    expect(await bigMapEntryInBlock(db(), NET, 4, K1, at(8))).toEqual({ value: null });
    expect(await bigMapEntryInBlock(db(), NET, 4, K2, at(8))).toBeUndefined();
    expect(await bigMapEntryInBlock(db(), NET, 4, K1, at(2))).toBeUndefined();
    // map 6, copied from 4 by operation 3: its entries are 4's as they were before operation 3
    expect(await bigMapEntryInBlock(db(), NET, 6, K1, at(8))).toEqual({
      from: { ptr: 4, at: { level: 10, beforeId: 3, hash: 'oX' } },
    });
    expect(await bigMapEntryInBlock(db(), NET, 7, K1, at(8))).toEqual({ fresh: true });
    expect(await bigMapEntryInBlock(db(), NET, 6, K1, at(3))).toBeUndefined();

    const changes = await bigMapChangesOf(db(), NET, 3);
    expect(changes).toEqual({ diffs: [{ ptr: 4, key_hash: K1, value: null }], more: false, fresh: [6, 7] });
    const bounded = await bigMapChangesOf(db(), NET, 2, 0);
    expect(bounded).toMatchObject({ diffs: [], more: true });
  });

  it("reads a contract's used and newly paid storage bytes as the block left them before an operation", async () => {
    const KT2 = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';
    const sized = (size: number, paid: number) => ({
      destination: KT2,
      storage_size: size,
      paid_storage_size_diff: paid,
    });
    await db()
      .insertInto('operations')
      .values([
        op(101, 19, 'sA', 'applied', sized(900, 50)), // the level before: the node's figures, not these
        op(102, 20, 'sB', 'applied', sized(950, 20)),
        op(103, 20, 'sC', 'failed', sized(0, 0)), // failed: changed nothing
        op(104, 20, 'sD', 'backtracked', sized(990, 40)), // backtracked: its group sD only
        op(105, 20, 'sD', 'failed'),
        op(106, 20, 'sE', 'applied', sized(940, 0)), // a removal: used shrinks, paid stays
        op(107, 20, 'sF', 'applied', sized(1200, 250)), // after the operation
      ])
      .execute();
    const at = (beforeId: number, hash: string) => ({ level: 20, beforeId, hash });
    expect(await storageSpaceInBlock(db(), NET, KT2, at(107, 'sF'))).toEqual({ used: 940, paid: 20 });
    expect(await storageSpaceInBlock(db(), NET, KT2, at(105, 'sD'))).toEqual({ used: 990, paid: 60 });
    expect(await storageSpaceInBlock(db(), NET, KT2, at(102, 'sB'))).toEqual({ used: undefined, paid: 0 });
  });
});
