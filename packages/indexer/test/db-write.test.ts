import { describeDb } from '@michelscope/db/testing';
import {
  applyBlock,
  ChainConsistencyError,
  getBlockHash,
  getCurrentProtocol,
  getIndexerHead,
  revertBlock,
  type BlockRecord,
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
});
