/**
 * The original BCD client's statistics tabs over the indexed demo sandbox (issue 33): each request is the one
 * its `views/network/StatsTab.vue` and `views/contract/StatsTab.vue` send to `StatsAPI` (one base per network,
 * `/stats/{network}`), verbatim, and each answer is read as that client reads it — a summary's body goes
 * through `parseInt(response, 10)`, a histogram's points through `parseInt(x.value, 10)` — and checked against
 * the indexed operations.
 */
import { describeDb } from '@michelscope/db/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openIndexedSandbox, SANDBOX_NET as NET, type IndexedSandbox } from './indexed-sandbox';

/** axios with `responseType: 'json'`: the parsed body, whatever its shape. */
type Body = unknown;

// PGlite only: the client's request shapes over ordinary reads (the stats SQL runs on both in services.test.ts).
describeDb('the BCD client statistics tabs over the indexed sandbox', { backends: 'pglite' }, ({ db }) => {
  let env: IndexedSandbox;
  const base = `/stats/${NET}`;
  /** `StatsAPI.summary` / `histogram`: GET with the params axios puts in the query string. */
  const get = async (path: string, params: Record<string, string | number>) => {
    const query = new URLSearchParams(
      Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const res = await env.app.inject({ method: 'GET', url: `${base}${path}${query ? `?${query}` : ''}` });
    return { status: res.statusCode, body: res.json<Body>() };
  };
  /** What the client keeps of a summary: `parseInt(response, 10)` (a JSON object reads NaN, shown as 0). */
  const summary = async (table: string, method: string, params: Record<string, string | number>) => {
    const r = await get(`/v1/summary/${table}/${method}`, params);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return parseInt(r.body as string, 10);
  };
  const histogram = async (table: string, method: string, params: Record<string, string | number>) => {
    const r = await get(`/v1/histogram/${table}/${method}/month`, params);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body as Array<{ ts: number; value: string }>).map((x) => [x.ts * 1000, parseInt(x.value, 10)]);
  };
  /** One figure of the indexed operations of the sandbox. */
  const figure = async (select: string, where: string) => {
    const r = await sql<{ n: string }>`SELECT (${sql.raw(select)})::text AS n FROM operations
      WHERE network = ${NET} AND ${sql.raw(where)}`.execute(db());
    return Number(r.rows[0]!.n);
  };

  beforeAll(async () => {
    env = await openIndexedSandbox(db());
  }, 90_000);
  afterAll(() => env?.close());

  it('the network tab: its four headline totals are the numbers, not 0', async () => {
    // getGeneralStats, in its order
    const calls = await summary('transactions', 'count', { 'Entrypoint.isnotnull': '', Status: 1 });
    const deployments = await summary('originations', 'count', { Status: 1 });
    const paid = await summary('paid_storage_size_diff', 'sum', { field: 'Value' });
    const gas = await summary('consumed_gas', 'sum', { field: 'Used' });
    expect(calls).toBe(
      await figure('count(*)', `kind = 'transaction' AND status = 'applied' AND entrypoint IS NOT NULL`),
    );
    expect(deployments).toBe(
      await figure('count(*)', `kind IN ('origination', 'origination_new') AND status = 'applied'`),
    );
    expect(paid).toBe(await figure('sum(paid_storage_size_diff)', 'true'));
    // milligas as bcdhub stores them (the client divides by 10^6 itself)
    expect(gas).toBe(await figure('sum(consumed_gas)', 'true'));
    for (const n of [calls, deployments, paid, gas]) expect(n).toBeGreaterThan(0);
    // the charts' points add up to the totals
    const points = await histogram('transactions', 'count', { 'Entrypoint.isnotnull': '', Status: 1 });
    expect(points.reduce((s, p) => s + p[1]!, 0)).toBe(calls);
  });

  it('the contract tab: calls, unique users (distinct Sender), consumed gas and burned', async () => {
    const address = env.contracts.counter!;
    const calls = await summary('transactions', 'count', {
      'Entrypoint.isnotnull': '',
      Target: address,
      Status: 1,
    });
    const target = `destination = '${address}' AND status = 'applied' AND kind = 'transaction'`;
    expect(calls).toBe(await figure('count(*)', `${target} AND entrypoint IS NOT NULL`));
    expect(calls).toBeGreaterThan(1);

    // getUniqueUsersTotal and getUniqueUsers: the `distinct` function (a 400 before issue 33)
    const users = await summary('transactions', 'distinct', { field: 'Sender', Target: address, Status: 1 });
    expect(users).toBe(await figure('count(DISTINCT source)', target));
    expect(users).toBeGreaterThan(0);
    expect(users).toBeLessThanOrEqual(calls);
    const perMonth = await histogram('transactions', 'distinct', {
      field: 'Sender',
      Target: address,
      Status: 1,
    });
    expect(perMonth.length).toBeGreaterThan(0);
    for (const [, n] of perMonth) expect(n).toBeGreaterThan(0);
    expect(Math.max(...perMonth.map((p) => p[1]!))).toBeLessThanOrEqual(users);

    const gas = await summary('consumed_gas', 'sum', { field: 'Used', Target: address });
    expect(gas).toBe(await figure('sum(consumed_gas)', `destination = '${address}'`));
    expect(gas / calls).toBeGreaterThan(1000); // milligas: more than 1 gas a call

    // getBurnedTotal: the table is `balance_update`
    const burned = await get('/v1/summary/balance_update/sum', {
      field: 'Update',
      Kind: 2,
      Counterparty: address,
    });
    expect(burned.status, JSON.stringify(burned.body)).toBe(200);
    expect(Number.isFinite(Math.abs(parseInt(burned.body as string, 10) / 10 ** 6))).toBe(true);
    expect(
      (await histogram('balance_update', 'sum', { field: 'Update', Kind: 2, Counterparty: address })).length,
    ).toBeGreaterThanOrEqual(0);
  });

  it('a bad function or field is still a 400 that says which', async () => {
    const fn = await get('/v1/summary/transactions/median', {});
    expect(fn).toEqual({ status: 400, body: { message: 'unknown function: median' } });
    const field = await get('/v1/summary/transactions/distinct', { field: 'Nobody' });
    expect(field).toEqual({ status: 400, body: { message: 'unknown field: Nobody' } });
    const none = await get('/v1/summary/transactions/distinct', {});
    expect(none.status).toBe(400);
    expect((none.body as { message: string }).message).toMatch(/field=Sender/);
  });
});
