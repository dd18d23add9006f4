import { describeDb } from '@michelscope/db/testing';
import {
  applyBlock,
  applyBlocks,
  ChainConsistencyError,
  emptyBlockData,
  getBlockHash,
  getCurrentProtocol,
  getIndexerHead,
  revertBlock,
  type BlockData,
  type BlockRecord,
  type OperationRow,
  type ProtocolRecord,
} from '@michelscope/db/write';
import { expect, it } from 'vitest';
import { blockHash, SEOUL, TALLINN } from './fake-node';

const block = (level: number, protocol = SEOUL, branch = 'a'): BlockRecord => ({
  level,
  hash: blockHash(`${branch}:${level}`),
  predecessor: blockHash(`${level === 1 ? 'genesis' : branch}:${level - 1}`),
  timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, level)),
  chainId: 'NetXdQprcVkpaWU',
  protocol,
});
const protocol = (hash: string, startLevel: number): ProtocolRecord => ({
  hash,
  chainId: 'NetXdQprcVkpaWU',
  startLevel,
  costPerByte: 250,
  hardGasLimitPerOperation: 1040000,
  hardStorageLimitPerOperation: 60000,
  timeBetweenBlocks: 8,
  constants: { cost_per_byte: '250' },
});

describeDb('db write API', ({ db }) => {
  it('stores blocks on top of the head only, and writes nothing for a block that does not extend it', async () => {
    const net = 'w1';
    await applyBlock(db(), net, block(1), protocol(SEOUL, 1));
    await applyBlock(db(), net, block(2));
    // Wrong level, then wrong predecessor: rejected, nothing written.
    await expect(applyBlock(db(), net, block(4))).rejects.toThrow(ChainConsistencyError);
    await expect(applyBlock(db(), net, { ...block(3), predecessor: blockHash('other:2') })).rejects.toThrow(
      /does not extend the stored head/,
    );
    // A new protocol without its record is refused (and rolls back the whole block).
    await expect(applyBlock(db(), net, block(3, TALLINN))).rejects.toThrow(/no protocol record was given/);
    expect(await getIndexerHead(db(), net)).toMatchObject({ level: 2, hash: block(2).hash });
    expect(await getBlockHash(db(), net, 3)).toBeNull();
    expect((await getCurrentProtocol(db(), net))?.hash).toBe(SEOUL);
  });

  it('reverts the head block, the protocol it opened, and moves indexer_state back', async () => {
    const net = 'w2';
    await applyBlock(db(), net, block(1), protocol(SEOUL, 1));
    await applyBlock(db(), net, block(2));
    await applyBlock(db(), net, block(3, TALLINN), protocol(TALLINN, 3));
    const rows = await db()
      .selectFrom('protocols')
      .select(['hash', 'end_level'])
      .where('network', '=', net)
      .orderBy('start_level')
      .execute();
    expect(rows).toEqual([
      { hash: SEOUL, end_level: 2 },
      { hash: TALLINN, end_level: null },
    ]);

    await expect(revertBlock(db(), net, 2)).rejects.toThrow(/stored head is level 3/);
    expect(await revertBlock(db(), net, 3)).toMatchObject({ level: 2, hash: block(2).hash });
    expect(await getCurrentProtocol(db(), net)).toMatchObject({ hash: SEOUL, startLevel: 1 });
    expect(await db().selectFrom('protocols').select('hash').where('network', '=', net).execute()).toEqual([
      { hash: SEOUL },
    ]);
    expect(await getIndexerHead(db(), net)).toMatchObject({ level: 2 });

    await revertBlock(db(), net, 2);
    expect(await revertBlock(db(), net, 1)).toBeNull();
    expect(await getIndexerHead(db(), net)).toBeNull();
    expect(await getCurrentProtocol(db(), net)).toBeNull();
    // Other networks are untouched.
    expect(await getIndexerHead(db(), 'w1')).toMatchObject({ level: 2 });
  });

  it('serialises two writers of the same network: exactly one of two competing blocks is stored', async () => {
    const net = 'w3';
    await applyBlock(db(), net, block(1), protocol(SEOUL, 1));
    const results = await Promise.allSettled([
      applyBlock(db(), net, block(2, SEOUL, 'a')),
      applyBlock(db(), net, block(2, SEOUL, 'a')),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => r.reason)).toEqual([
      expect.any(ChainConsistencyError),
    ]);
    expect(await db().selectFrom('blocks').select('level').where('network', '=', net).execute()).toHaveLength(
      2,
    );
  });

  it('stores text and Micheline with backslashes, tabs, line breaks, quotes and non-ASCII as given', async () => {
    // On PostgreSQL operations and big-map diffs go through COPY's text format, which escapes these.
    const net = 'w4';
    const odd = 'a\\b\tc\nd\re "q" \\N \\. é ✓ 🙂';
    const op = (n: number): OperationRow => ({
      hash: `oo${n}`,
      counter: n,
      content_index: 0,
      nonce: null,
      internal: false,
      kind: 'transaction',
      status: 'applied',
      source: 'tz1source',
      destination: 'KT1destination',
      initiator: null,
      delegate: null,
      fee: 1,
      gas_limit: 2,
      storage_limit: 3,
      amount: '12345678901234567890',
      consumed_gas: 4,
      storage_size: 5,
      paid_storage_size_diff: 6,
      burned: 7,
      allocated_destination_contract_burned: 0,
      allocated_destination_contract: n === 2,
      entrypoint: odd,
      tag: null,
      tags: 0,
      parameters: { entrypoint: 'default', value: { string: odd } },
      storage: { prim: 'Pair', args: [{ string: odd }, { bytes: '00' }] },
      payload: null,
      payload_type: null,
      errors: [{ kind: 'temporary', id: odd }],
      big_map_diffs_count: 1,
      ticket_updates_count: 0,
    });
    const data = (n: number): BlockData => ({
      ...emptyBlockData(),
      operations: [op(n)],
      bigMapDiffs: [
        {
          op: 0,
          ptr: 7,
          contract: 'KT1destination',
          key: { string: odd },
          key_hash: `expru${n}`,
          value: null,
        },
        {
          op: 0,
          ptr: 7,
          contract: 'KT1destination',
          key: { int: '1' },
          key_hash: 'expruint',
          value: { string: odd },
        },
      ],
    });
    await applyBlock(db(), net, block(1), protocol(SEOUL, 1));
    // block 2 alone, 3 and 4 in one batch
    await applyBlock(db(), net, block(2), undefined, data(2));
    await applyBlocks(db(), net, [
      { block: block(3), data: data(3) },
      { block: block(4), data: data(4) },
    ]);
    const ops = await db()
      .selectFrom('operations')
      .select([
        'level',
        'hash',
        'entrypoint',
        'amount',
        'allocated_destination_contract',
        'parameters',
        'storage',
        'errors',
      ])
      .where('network', '=', net)
      .orderBy('id')
      .execute();
    expect(ops.map((o) => ({ ...o, amount: String(o.amount) }))).toEqual(
      [2, 3, 4].map((n) => ({
        level: n,
        hash: `oo${n}`,
        entrypoint: odd,
        amount: '12345678901234567890',
        allocated_destination_contract: n === 2,
        parameters: op(n).parameters,
        storage: op(n).storage,
        errors: op(n).errors,
      })),
    );
    const diffs = await db()
      .selectFrom('big_map_diffs')
      .select(['level', 'key', 'key_hash', 'value'])
      .where('network', '=', net)
      .orderBy('id')
      .execute();
    expect(diffs).toEqual(
      [2, 3, 4].flatMap((n) => [
        { level: n, key: { string: odd }, key_hash: `expru${n}`, value: null },
        { level: n, key: { int: '1' }, key_hash: 'expruint', value: { string: odd } },
      ]),
    );
    const states = await db()
      .selectFrom('big_map_states')
      .select(['key_hash', 'value', 'removed'])
      .where('network', '=', net)
      .orderBy('key_hash')
      .execute();
    expect(states).toEqual([
      { key_hash: 'expru2', value: null, removed: true },
      { key_hash: 'expru3', value: null, removed: true },
      { key_hash: 'expru4', value: null, removed: true },
      { key_hash: 'expruint', value: { string: odd }, removed: false },
    ]);
  });
});
