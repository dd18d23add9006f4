/**
 * A contract called in a backfilled block whose origination is not stored (issue 32). The backfill parses a
 * block with the scripts of the contracts it calls (read from the node), but only an origination stores a
 * contract: the seeded swap, called in a block of the FA1.2's history and originated in a block that is not,
 * must be a 'ghost' account (as forward indexing marks a contract it does not hold, which the API adopts when
 * asked for), not a 'contract' without a contract row (which the API answered 'not found' for ever). Once its
 * origination block is backfilled too, it is a contract as a forward index has it.
 */
import { describeDb } from '@michelscope/db/testing';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { startIndexer } from '../src';
import { waitFor } from './fake-node';
import { backfillerOf, seededNode } from './seeded-node';

describeDb('a contract called in a backfilled block', { backends: 'both' }, ({ db }) => {
  const node = seededNode({ prefix: 'ms-backfill-ghosts-', timeoutMs: 240_000 });

  const index = async (network: string, startLevel: number | 'head') => {
    const indexer = startIndexer({
      db: db(),
      network,
      rpcUrl: node.rpcUrl,
      startLevel,
      pollIntervalMs: 50,
      historySource: false,
      log: () => {},
    });
    await waitFor(() => indexer.status().level === node.sandbox.headLevel, 120_000);
    await indexer.stop();
  };
  const account = async (network: string, address: string) =>
    (
      await sql<{
        type: string;
        contract: string | null;
      }>`SELECT a.type, c.address AS contract FROM accounts a
      LEFT JOIN contracts c ON c.network = a.network AND c.address = a.address
      WHERE a.network = ${network} AND a.address = ${address}`.execute(db())
    ).rows[0];

  it('is a ghost until its origination is stored, then a contract as forward', async () => {
    const swap = node.contracts.swap!;
    expect(swap).toMatch(/^KT1/);
    await index('fwd', 1);
    await index('bf', 'head');
    const levels = async (kind: string) =>
      (
        await sql<{
          level: number;
        }>`SELECT DISTINCT level FROM operations WHERE network = 'fwd' AND kind = ${kind}
        AND destination = ${swap} ORDER BY level`.execute(db())
      ).rows.map((r) => r.level);
    const [originated] = await levels('origination');
    const called = (await levels('transaction')).filter((l) => l !== originated);
    expect(originated).toBeGreaterThan(0);
    expect(called.length).toBeGreaterThan(0);

    const backfill = backfillerOf(db(), 'bf', node.rpcUrl);
    // a block calling the swap, not its origination: the swap is not held
    expect(await backfill.storeLevels([called[0]!])).toBe(1);
    expect(await account('bf', swap)).toEqual({ type: 'ghost', contract: null });
    // its origination stored too: a contract, as the forward index has it
    expect(await backfill.storeLevels([originated!])).toBe(1);
    expect(await account('bf', swap)).toEqual({ type: 'contract', contract: swap });
    expect(await account('bf', swap)).toEqual(await account('fwd', swap));
  }, 240_000);
});
