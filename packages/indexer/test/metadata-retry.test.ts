/**
 * Failed metadata rows (status 2) are not abandoned: the resolver tries them again after a long back-off
 * that grows with each failure, and a link that works again resolves the row. Also: a resolver polling in
 * the background for a long time does not pile listeners on its stop signal (Node's
 * MaxListenersExceededWarning in the server log).
 */
import { createHash } from 'node:crypto';
import { describeDb } from '@michelscope/db/testing';
import { b58Encode, PrefixV2 } from '@taquito/utils';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMetadataResolver, type MetadataResolverOptions } from '../src';
import { waitFor } from './fake-node';
import {
  contractRow,
  metadataBigMap,
  MetadataServer,
  NET,
  queueContract,
  seedContract,
} from './metadata-seed';

let n = 0;
const kt1 = () =>
  b58Encode(createHash('sha256').update(`retry${n++}`).digest().subarray(0, 20), PrefixV2.ContractHash);

// PGlite only: the resolver's retry scheduling; its writes on PostgreSQL run in sandbox.test.ts.
describeDb('metadata resolver: retries of failed rows', { backends: 'pglite' }, ({ db }) => {
  const server = new MetadataServer();
  beforeAll(() => server.start());
  afterAll(() => server.close());

  const resolver = (extra: Partial<MetadataResolverOptions> = {}) =>
    startMetadataResolver({
      db: db(),
      network: NET,
      log: () => {},
      allowInsecure: true,
      background: false,
      maxRetries: 1,
      failedRetry: { initialMs: 60_000, maxMs: 200_000 },
      ...extra,
    });
  /** "Time passes": the row is made due now instead of waiting (the delays are asserted on next_attempt_at). */
  const makeDue = (a: string) =>
    sql`UPDATE contract_metadata SET next_attempt_at = now() WHERE network = ${NET} AND address = ${a}`.execute(
      db(),
    );

  it('tries a failed row again after the failed-row back-off, doubling it, and resolves it once the link works', async () => {
    const a = kt1();
    await seedContract(db(), a, { bigMaps: [metadataBigMap({})] });
    const link = server.serve(`/gone-${a}.json`, 'x', { status: 500 });
    await queueContract(db(), a, link);
    const r = resolver();

    const t0 = Date.now();
    expect(await r.runOnce()).toBe(1);
    const failed = await contractRow(db(), a);
    expect(failed).toMatchObject({
      status: 2,
      retry_count: 1,
      error: expect.stringMatching(/HTTP 500/) as unknown,
    });
    expect(failed.next_attempt_at.getTime()).toBeGreaterThanOrEqual(t0 + 60_000 - 50);
    expect(failed.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now() + 60_000 + 50);
    expect(await r.runOnce()).toBe(0); // not due yet

    // Due: tried again, fails again, stays failed and waits twice as long.
    await makeDue(a);
    const t1 = Date.now();
    expect(await r.runOnce()).toBe(1);
    const again = await contractRow(db(), a);
    expect(again).toMatchObject({ status: 2, retry_count: 2 });
    expect(again.next_attempt_at.getTime()).toBeGreaterThanOrEqual(t1 + 120_000 - 50);
    expect(again.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now() + 120_000 + 50);

    // The host serves the document again: the next retry resolves the row.
    server.serve(`/gone-${a}.json`, { name: 'Back online' });
    await makeDue(a);
    expect(await r.runOnce()).toBe(1);
    expect(await contractRow(db(), a)).toMatchObject({ status: 3, name: 'Back online', error: null });
    expect(r.stats()).toMatchObject({ resolved: 1, failed: 1, retried: 1 });
  });

  it('retries failed rows only after pending ones, within the batch size', async () => {
    const failedOne = kt1();
    await seedContract(db(), failedOne, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), failedOne, server.serve(`/down-${failedOne}.json`, 'x', { status: 500 }));
    await resolver().runOnce();
    expect((await contractRow(db(), failedOne)).status).toBe(2);
    await makeDue(failedOne);
    const pending = kt1();
    await seedContract(db(), pending, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), pending, server.serve(`/ok-${pending}.json`, { name: 'Pending first' }));

    // One row per round: the pending row goes first, the failed one in the next round.
    const r = resolver({ batchSize: 1 });
    await r.runOnce();
    expect(await contractRow(db(), pending)).toMatchObject({ status: 3, name: 'Pending first' });
    expect(await contractRow(db(), failedOne)).toMatchObject({ status: 2, retry_count: 1 });
    await r.runOnce();
    expect(await contractRow(db(), failedOne)).toMatchObject({ status: 2, retry_count: 2 });
  });

  it('never tries a failed row again with failedRetry: false', async () => {
    const a = kt1();
    await seedContract(db(), a, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), a, server.serve(`/never-${a}.json`, 'x', { status: 500 }));
    const r = resolver({ failedRetry: false });
    await r.runOnce();
    expect(await contractRow(db(), a)).toMatchObject({ status: 2, retry_count: 1 });
    const never = await sql<{ never: boolean }>`SELECT next_attempt_at = 'infinity'::timestamptz AS never
      FROM contract_metadata WHERE network = ${NET} AND address = ${a}`.execute(db());
    expect(never.rows[0]!.never).toBe(true);
  });

  it('polls in the background without adding listeners to its stop signal', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      let queries = 0;
      const counted = db().withPlugin({
        transformQuery: (args) => {
          queries++;
          return args.node;
        },
        transformResult: (args) => Promise.resolve(args.result),
      });
      const r = startMetadataResolver({ db: counted, network: 'idle-net', log: () => {}, pollIntervalMs: 1 });
      // More idle polls (4 queries each) than the default limit of 10 listeners per signal.
      await waitFor(() => queries >= 4 * 15, 60_000, '15 polls');
      await r.stop();
      await new Promise((res) => setImmediate(res));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });
});
