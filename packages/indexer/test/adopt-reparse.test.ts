/**
 * An address adopted after calls to it were indexed (issue 32): a network started at the node's head indexes
 * the blocks after its start without knowing the seeded FA1.2 (originated long before), so their calls to it
 * are parsed without its script. When the FA1.2 is then asked for, the adoption rewrites what forward parsing
 * derives from the script for those rows, so that they are as a forward index from genesis stores them: the
 * operation tags, the entrypoint a call named `default` resolves to, the readable texts of new ledger keys
 * (the big-map key search matches them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { requestAddress } from '@michelscope/db/address-requests';
import { describeDb } from '@michelscope/db/testing';
import { BOOTSTRAP_ACCOUNTS, Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import { InMemorySigner } from '@taquito/signer';
import { TezosToolkit } from '@taquito/taquito';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startIndexer } from '../src';
import { waitFor } from './fake-node';
import { openSeededSandbox } from '@michelscope/sandbox/testing';

/** Holders no seeded operation credited: new ledger keys written after the late network started. */
const NEW_HOLDERS = ['tz1burnburnburnburnburnburnburjAYjjX', 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU'];

describeDb('adoption of a contract called since the start', { backends: 'both' }, ({ db }) => {
  let sandbox: Sandbox;
  let app: FastifyInstance;
  let rpcUrl = '';
  let fa12 = '';
  const dir = mkdtempSync(path.join(tmpdir(), 'ms-adopt-reparse-'));

  beforeAll(async () => {
    sandbox = await openSeededSandbox({
      dataDir: dir,
      blockTimeMs: 3_600_000,
      log: (line) => {
        const m = /\bfa12=(KT1\w{33})/.exec(line);
        if (m) fa12 = m[1]!;
      },
    });
    app = Fastify({ forceCloseConnections: true });
    await app.register(sandboxRpcPlugin(sandbox));
    rpcUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const index = async (network: string, startLevel: number | 'head') => {
    const indexer = startIndexer({
      db: db(),
      network,
      rpcUrl,
      startLevel,
      pollIntervalMs: 50,
      historySource: false,
      log: () => {},
    });
    await waitFor(() => indexer.status().level === sandbox.headLevel, 120_000);
    return indexer;
  };
  const call = async (account: number, entrypoint: string, value: unknown) => {
    const tezos = new TezosToolkit(rpcUrl);
    tezos.setProvider({ signer: await InMemorySigner.fromSecretKey(BOOTSTRAP_ACCOUNTS[account]!.sk) });
    await tezos.contract.transfer({ to: fa12, amount: 0, parameter: { entrypoint, value: value as never } });
  };
  const pair = (...xs: unknown[]): unknown =>
    xs.length === 1 ? xs[0] : { prim: 'Pair', args: [xs[0], pair(...xs.slice(1))] };

  it('rewrites the tags, entrypoints and key texts of the calls stored before the adoption, as forward', async () => {
    expect(fa12).toMatch(/^KT1/);
    const [b1, b2] = [BOOTSTRAP_ACCOUNTS[0]!.pkh, BOOTSTRAP_ACCOUNTS[1]!.pkh];
    const late = await index('late', 'head');
    const start = sandbox.headLevel;
    try {
      // after the late network's start: a transfer to a new holder, and one named `default` (the FA1.2 has
      // no %default: the node applies the whole parameter, Right (Left …) is %transfer)
      await call(0, 'transfer', pair({ string: b1 }, { string: NEW_HOLDERS[0] }, { int: '7' }));
      await call(1, 'default', {
        prim: 'Right',
        args: [{ prim: 'Left', args: [pair({ string: b2 }, { string: NEW_HOLDERS[1] }, { int: '3' })] }],
      });
      await sandbox.bakeBlock();
      await waitFor(() => late.status().level === sandbox.headLevel, 30_000);
      await requestAddress(db(), 'late', fa12, 10);
      await waitFor(async () => {
        const r = await db()
          .selectFrom('address_requests')
          .select('state')
          .where('network', '=', 'late')
          .where('address', '=', fa12)
          .executeTakeFirst();
        return r?.state === 'adopted';
      }, 30_000);
    } finally {
      await late.stop();
    }
    // the same blocks indexed forward from genesis, the FA1.2 known from its origination
    await (await index('fwd', 1)).stop();

    const calls = async (network: string) =>
      (
        await sql<{
          level: number;
          hash: string;
          entrypoint: string;
          tags: number;
        }>`SELECT level, hash, entrypoint, tags
        FROM operations WHERE network = ${network} AND destination = ${fa12} AND level > ${start}
        ORDER BY level, hash`.execute(db())
      ).rows;
    const fwdCalls = await calls('fwd');
    expect(fwdCalls.map((c) => c.entrypoint)).toEqual(['transfer', 'transfer']);
    expect(fwdCalls.every((c) => c.tags !== 0)).toBe(true);
    expect(await calls('late')).toEqual(fwdCalls);

    // the ledger keys written since the start (the new holders' and the senders'), with the same texts
    const keys = async (network: string) =>
      (
        await sql<{
          key_hash: string;
          key_text: string | null;
        }>`SELECT s.key_hash, s.key_text FROM big_map_states s
        WHERE s.network = ${network} AND s.contract = ${fa12} AND s.key_hash IN (SELECT key_hash FROM big_map_diffs
          WHERE network = ${network} AND contract = ${fa12} AND level > ${start})
        ORDER BY s.key_hash`.execute(db())
      ).rows;
    const fwdKeys = await keys('fwd');
    expect(fwdKeys.map((k) => k.key_text)).toEqual(expect.arrayContaining(NEW_HOLDERS.map((h) => `"${h}"`)));
    expect(await keys('late')).toEqual(fwdKeys);
  }, 240_000);
});
