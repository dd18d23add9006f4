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

/** A transaction whose text fields (entrypoint, parameters, storage, error id) hold `text`. */
const operation = (n: number, text: string): OperationRow => ({
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
  entrypoint: text,
  tag: null,
  tags: 0,
  parameters: { entrypoint: 'default', value: { string: text } },
  storage: { prim: 'Pair', args: [{ string: text }, { bytes: '00' }] },
  payload: null,
  payload_type: null,
  errors: [{ kind: 'temporary', id: text }],
  big_map_diffs_count: 1,
  ticket_updates_count: 0,
});

// PGlite and PostgreSQL: the write path (COPY escaping, deferred statements) and two concurrent writers.
describeDb('db write API', { backends: 'both' }, ({ db }) => {
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
    const op = (n: number) => operation(n, odd);
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
  it('queues metadata for writes to metadata and token_metadata big maps, copies of them included', async () => {
    const net = 'w5';
    const hex = (t: string) => Buffer.from(t, 'utf8').toString('hex');
    const tokenInfo = (link: string) => ({
      prim: 'Pair',
      args: [
        { int: '0' },
        [
          { prim: 'Elt', args: [{ string: '' }, { bytes: hex(link) }] },
          { prim: 'Elt', args: [{ string: 'name' }, { bytes: hex('Wombat') }] },
        ],
      ],
    });
    const bigMap = (ptr: number, contract: string, name: string | null) => ({
      op: 0,
      ptr,
      contract,
      key_type: { prim: 'string' },
      value_type: { prim: 'bytes' },
      name,
    });
    const diff = (ptr: number, contract: string, key: unknown, value: unknown) => ({
      op: 0,
      ptr,
      contract,
      key,
      key_hash: `expru${ptr}:${JSON.stringify(key)}`,
      value,
    });
    await applyBlock(db(), net, block(1), protocol(SEOUL, 1));
    // level 2: KT1a's three big maps; only its metadata and token_metadata writes are queued
    await applyBlock(db(), net, block(2), undefined, {
      ...emptyBlockData(),
      operations: [operation(2, 'default')],
      bigMaps: [
        bigMap(10, 'KT1a', 'metadata'),
        bigMap(11, 'KT1a', 'token_metadata'),
        bigMap(12, 'KT1a', 'ledger'),
      ],
      bigMapDiffs: [
        diff(10, 'KT1a', { string: '' }, { bytes: hex('tezos-storage:first') }),
        diff(10, 'KT1a', { string: '' }, { bytes: hex('tezos-storage:here') }),
        diff(11, 'KT1a', { int: '0' }, tokenInfo('ipfs://token-zero')),
        diff(12, 'KT1a', { string: '' }, { bytes: hex('not metadata') }),
      ],
    });
    // level 3: KT1b copies KT1a's token_metadata (its keys are copied by the server), and writes nothing else
    await applyBlock(db(), net, block(3), undefined, {
      ...emptyBlockData(),
      operations: [operation(3, 'default')],
      bigMaps: [{ ...bigMap(13, 'KT1b', null), key_type: null, value_type: null }],
      bigMapActions: [{ op: 0, action: 'copy', source_ptr: 11, destination_ptr: 13, address: 'KT1b' }],
    });
    // level 4: only the ledger is written: nothing is queued again
    await db().updateTable('contract_metadata').set({ status: 3 }).where('network', '=', net).execute();
    await applyBlock(db(), net, block(4), undefined, {
      ...emptyBlockData(),
      operations: [operation(4, 'default')],
      bigMapDiffs: [diff(12, 'KT1a', { string: 'x' }, { bytes: '00' })],
    });
    const contracts = await db()
      .selectFrom('contract_metadata')
      .select(['address', 'link', 'status', 'level'])
      .where('network', '=', net)
      .execute();
    expect(contracts).toEqual([{ address: 'KT1a', link: 'tezos-storage:here', status: 3, level: 2 }]);
    const tokens = await db()
      .selectFrom('token_metadata')
      .select(['contract', 'token_id', 'link', 'status', 'level', 'token_info'])
      .where('network', '=', net)
      .orderBy('contract')
      .execute();
    expect(tokens.map((t) => ({ ...t, token_id: String(t.token_id) }))).toEqual(
      ['KT1a', 'KT1b'].map((contract, i) => ({
        contract,
        token_id: '0',
        link: 'ipfs://token-zero',
        status: 1,
        level: 2 + i,
        token_info: { '': hex('ipfs://token-zero'), name: hex('Wombat') },
      })),
    );
  });
});
