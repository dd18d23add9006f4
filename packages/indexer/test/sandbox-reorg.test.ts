/**
 * Reorg proof on the real sandbox chain: the seeded chain is indexed, then forked a few blocks below its
 * head (the sandbox's test-only `forkFrom`) and extended with other operations while the indexer keeps
 * following. The indexer must revert the abandoned blocks (their operations, contracts, big-map diffs,
 * tickets… gone) and apply the new branch, ending with the same rows (every table, see table-dump.ts)
 * as a clean index of the final chain.
 */
import { describeDb } from '@michelscope/db/testing';
import { BOOTSTRAP_ACCOUNTS, injectAs } from '@michelscope/sandbox';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Db } from '@michelscope/db';
import { startIndexer } from '../src';
import { waitFor } from './fake-node';
import { dumpTables, expectSameTables } from './table-dump';
import { seededNode } from './seeded-node';

type Account = (typeof BOOTSTRAP_ACCOUNTS)[number];
const [b1, b2, b3, b4] = BOOTSTRAP_ACCOUNTS as unknown as [Account, Account, Account, Account];
/** Blocks of the seeded chain abandoned by the fork, and blocks of the new branch (a longer one). */
const ABANDONED = 5;
const NEW_BRANCH = 8;

async function count(db: Db, network: string, table: 'blocks' | 'operations', hashes: string[]) {
  if (hashes.length === 0) return 0;
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}
    WHERE network = ${network} AND hash IN (${sql.join(hashes)})`.execute(db);
  return r.rows[0]!.n;
}

async function storedHash(db: Db, network: string, level: number): Promise<string | undefined> {
  const r = await sql<{
    hash: string;
  }>`SELECT hash FROM blocks WHERE network = ${network} AND level = ${level}`.execute(db);
  return r.rows[0]?.hash;
}

// PGlite and PostgreSQL: a reorg of the real chain through each backend's write and revert path.
describeDb('a fork of the sandbox chain', { backends: 'both' }, ({ db }) => {
  const node = seededNode({ prefix: 'ms-sandbox-reorg-', timeoutMs: 180_000 });

  it('reverts the abandoned blocks, applies the new branch, and ends equal to a clean index of the final chain', async () => {
    expect(Object.keys(node.contracts)).toContain('fa12');
    const logs: string[] = [];
    const indexer = startIndexer({
      db: db(),
      network: 'forked',
      rpcUrl: node.rpcUrl,
      startLevel: 1,
      pollIntervalMs: 50,
      log: (l) => logs.push(l),
    });
    const oldHead = node.sandbox.headLevel;
    const forkLevel = oldHead - ABANDONED;
    const abandonedBlocks: string[] = [];
    const abandonedOps: string[] = [];
    const newOps: string[] = [];
    try {
      await waitFor(() => indexer.status().level === oldHead, 120_000, 'the seeded head');
      // The abandoned blocks are indexed, with rows in many tables (calls, CREATE_CONTRACT, tickets…).
      for (let l = forkLevel + 1; l <= oldHead; l++) {
        const b = node.sandbox.block(l)!;
        abandonedBlocks.push(b.hash);
        abandonedOps.push(...b.operations[3]!.map((o) => o.hash));
      }
      expect(abandonedOps.length).toBeGreaterThan(10);
      expect(await count(db(), 'forked', 'operations', abandonedOps)).toBeGreaterThan(abandonedOps.length);

      const discarded = await node.sandbox.forkFrom(forkLevel);
      expect(discarded.map((b) => b.hash)).toEqual(abandonedBlocks);
      // The new branch, longer than the abandoned one, with other operations: a token transfer (big-map
      // update), a note (big-map key added), an origination with a big map, an event, tez, a smart rollup.
      const counterCode = node.sandbox.pendingState().contract(node.contracts.counter!)!;
      for (let i = 0; i < NEW_BRANCH; i++) {
        const send = async (from: Account, contents: Array<Record<string, unknown>>) =>
          newOps.push(await injectAs(node.sandbox, from, contents));
        if (i === 0) {
          await send(b1, [
            {
              kind: 'transaction',
              amount: '0',
              destination: node.contracts.fa12,
              parameters: {
                entrypoint: 'transfer',
                value: {
                  prim: 'Pair',
                  args: [{ string: b1.pkh }, { prim: 'Pair', args: [{ string: b4.pkh }, { int: '777' }] }],
                },
              },
            },
          ]);
          await send(b3, [
            {
              kind: 'transaction',
              amount: '0',
              destination: node.contracts.counter,
              parameters: {
                entrypoint: 'note',
                value: { prim: 'Pair', args: [{ string: 'fork' }, { int: '1' }] },
              },
            },
          ]);
        }
        if (i === 2)
          await send(b2, [
            {
              kind: 'origination',
              balance: '0',
              script: {
                code: counterCode.code,
                storage: {
                  prim: 'Pair',
                  args: [{ int: '9' }, [{ prim: 'Elt', args: [{ string: 'n' }, { int: '2' }] }]],
                },
              },
            },
          ]);
        if (i === 3)
          await send(b3, [
            {
              kind: 'transaction',
              amount: '0',
              destination: node.contracts.counter,
              parameters: { entrypoint: 'increment', value: { int: '5' } },
            },
          ]);
        if (i === 4) await send(b4, [{ kind: 'transaction', amount: '1234567', destination: b1.pkh }]);
        if (i === 5)
          await send(b2, [
            {
              kind: 'smart_rollup_originate',
              pvm_kind: 'wasm_2_0_0',
              kernel: '0061736d01000000',
              parameters_ty: { prim: 'nat' },
            },
          ]);
        await node.sandbox.bakeBlock();
      }
      expect(node.sandbox.headLevel).toBe(forkLevel + NEW_BRANCH);
      const head = node.sandbox.head;
      await waitFor(
        async () =>
          indexer.status().level === head.header.level &&
          (await storedHash(db(), 'forked', head.header.level)) === head.hash,
        120_000,
        'the new branch',
      );
      expect(indexer.status().lastError, logs.join('\n')).toBeUndefined();
    } finally {
      await indexer.stop();
    }
    expect(
      logs.some((l) => /reorg: reverted/.test(l)),
      logs.join('\n'),
    ).toBe(true);

    // Nothing of the abandoned branch is left; all of the new one is there, block by block.
    expect(await count(db(), 'forked', 'blocks', abandonedBlocks)).toBe(0);
    expect(await count(db(), 'forked', 'operations', abandonedOps)).toBe(0);
    expect(await count(db(), 'forked', 'operations', newOps)).toBeGreaterThanOrEqual(newOps.length);
    for (let l = 1; l <= node.sandbox.headLevel; l++)
      expect(await storedHash(db(), 'forked', l)).toBe(node.sandbox.block(l)!.hash);

    // Every table equals a clean index of the final chain.
    const clean = startIndexer({
      db: db(),
      network: 'clean',
      rpcUrl: node.rpcUrl,
      startLevel: 1,
      pollIntervalMs: 50,
      log: () => {},
    });
    try {
      await waitFor(() => clean.status().level === node.sandbox.headLevel, 120_000, 'the clean run');
      expect(clean.status().lastError).toBeUndefined();
    } finally {
      await clean.stop();
    }
    const expected = await dumpTables(db(), 'clean');
    expect(expected.smart_rollups!.length).toBe(2);
    expectSameTables(await dumpTables(db(), 'forked'), expected);
  }, 400_000);
});
