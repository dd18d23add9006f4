import { describeDb } from '@michelscope/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeApi } from './helpers';
import {
  ALICE,
  BOB,
  CONSTANT,
  NET,
  OPG2,
  PROTO as PROTO_HASH,
  ROLLUP,
  SCRIPT_HASH,
  TOKEN,
  TWIN,
  seedChain,
} from './seed';

// PGlite only: API route logic over ordinary reads (prepared statements: db/test/prepared.test.ts).
describeDb('contract and account routes', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    return {
      status: res.statusCode,
      body: res.body ? (JSON.parse(res.body) as unknown) : undefined,
      raw: res.body,
    };
  };

  beforeAll(async () => {
    await seedChain(db());
    app = await makeApi(db());
  });
  afterAll(() => app.close());

  it('GET /contract: fields, tags as names, same_count across networks, 204 when unknown', async () => {
    const r = await get(`/v1/contract/${NET}/${TOKEN}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      network: NET,
      address: TOKEN,
      level: 1,
      timestamp: '2026-01-10T11:01:00Z',
      hash: SCRIPT_HASH,
      tags: ['SET_DELEGATE'],
      entrypoints: ['transfer', 'remove'],
      fail_strings: ['NO'],
      manager: ALICE,
      last_action: '2026-01-10T11:04:00Z',
      same_count: 1,
    });
    expect(r.body).not.toHaveProperty('hardcoded');
    expect(r.body).not.toHaveProperty('delegate');
    const noStats = await get(`/v1/contract/${NET}/${TOKEN}?stats=false`);
    expect(noStats.body).not.toHaveProperty('same_count');
    const unknown = await get(`/v1/contract/${NET}/KT1UnknownContractxxxxxxxxxxxxxxxxxx`);
    expect(unknown.status).toBe(204);
    expect(unknown.raw).toBe('');
    expect((await get(`/v1/contract/${NET}/nope`)).status).toBe(404);
    const badNet = await get(`/v1/contract/nowhere/${TOKEN}`);
    expect(badNet.status).toBe(400);
    expect(badNet.body).toEqual({ message: 'unknown network: nowhere' });
  });

  it('GET /contract/…/code renders the whole script as Michelson', async () => {
    const r = await get(`/v1/contract/${NET}/${TOKEN}/code`);
    expect(r.status).toBe(200);
    const text = r.body as string;
    expect(text).toMatch(/^parameter \(or \(pair %transfer address nat\) \(address %remove\)\);/);
    expect(text).toContain('FAILWITH');
    expect(text).toContain('view "get_total" unit nat');
    expect((await get(`/v1/contract/${NET}/${TOKEN}/code?protocol=PtUnknown`)).status).toBe(400);
  });

  it('GET /contract/…/storage, raw, rich and schema use the latest stored storage', async () => {
    const tree = await get(`/v1/contract/${NET}/${TOKEN}/storage`);
    expect(tree.body).toEqual([
      {
        prim: 'pair',
        type: 'namedtuple',
        name: '@pair_1',
        children: [
          { prim: 'big_map', type: 'big_map', name: 'ledger', value: 0 },
          { prim: 'nat', type: 'nat', name: 'total', value: '13' },
        ],
      },
    ]);
    expect((await get(`/v1/contract/${NET}/${TOKEN}/storage/raw`)).body).toBe('Pair 0 13');
    const atLevel1 = await get(`/v1/contract/${NET}/${TOKEN}/storage/raw?level=1`);
    expect(atLevel1.body).toBe('Pair 0 10');
    const rich = await get(`/v1/contract/${NET}/${TOKEN}/storage/rich`);
    expect(JSON.stringify(rich.body)).toContain(`{"prim":"Elt","args":[{"string":"${ALICE}"},{"int":"7"}]}`);
    expect(JSON.stringify(rich.body)).not.toContain(BOB);
    const schema = await get(`/v1/contract/${NET}/${TOKEN}/storage/schema?fill_type=current`);
    expect(schema.body).toMatchObject({ name: 'default', default_model: { total: '13' } });
    const initial = await get(`/v1/contract/${NET}/${TOKEN}/storage/schema?fill_type=initial`);
    expect(initial.body).toMatchObject({
      default_model: { total: '10', ledger: [{ '@address_3': ALICE, '@nat_4': '10' }] },
    });
    expect((await get(`/v1/contract/${NET}/${TOKEN}/storage/schema?fill_type=bogus`)).status).toBe(400);
  });

  it('GET /contract/…/storage/levels lists the levels whose storage differs from the level before', async () => {
    // origination at 1 (Pair 0 10), 13 at 2, a failed call at 3, the same storage again at 4
    const r = await get(`/v1/contract/${NET}/${TOKEN}/storage/levels`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { level: 2, timestamp: '2026-01-10T11:02:00Z' },
      { level: 1, timestamp: '2026-01-10T11:01:00Z' },
    ]);
    expect((await get(`/v1/contract/${NET}/${TOKEN}/storage/levels?size=1`)).body).toEqual([
      { level: 2, timestamp: '2026-01-10T11:02:00Z' },
    ]);
    expect((await get(`/v1/contract/${NET}/${TOKEN}/storage/levels?before_level=2`)).body).toEqual([
      { level: 1, timestamp: '2026-01-10T11:01:00Z' },
    ]);
    expect((await get(`/v1/contract/${NET}/${TWIN}/storage/levels`)).body).toEqual([
      { level: 1, timestamp: '2026-01-10T11:01:00Z' },
    ]);
    const unknown = await get(`/v1/contract/${NET}/KT1UnknownContractxxxxxxxxxxxxxxxxxx/storage/levels`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'not found' });
    expect((await get(`/v1/contract/${NET}/${TOKEN}/storage/levels?size=101`)).status).toBe(400);
    expect((await get(`/v1/contract/${NET}/${TOKEN}/storage/levels?before_level=x`)).status).toBe(400);
  });

  it('GET /contract/…/entrypoints and entrypoints/schema with the latest call', async () => {
    const eps = (await get(`/v1/contract/${NET}/${TOKEN}/entrypoints`)).body as Array<{
      name: string;
      schema: unknown;
    }>;
    expect(eps.map((e) => e.name)).toEqual(['transfer', 'remove']);
    expect(eps[0]!.schema).toMatchObject({ type: 'object' });
    const latest = await get(
      `/v1/contract/${NET}/${TOKEN}/entrypoints/schema?entrypoint=transfer&fill_type=latest`,
    );
    expect(latest.status).toBe(200);
    expect(JSON.stringify((latest.body as { default_model: unknown }).default_model)).toContain(BOB);
    const none = await get(
      `/v1/contract/${NET}/${TWIN}/entrypoints/schema?entrypoint=transfer&fill_type=latest`,
    );
    expect(none.status).toBe(404);
    expect((await get(`/v1/contract/${NET}/${TOKEN}/entrypoints/schema`)).status).toBe(400);
  });

  it('GET /contract/…/views/schema lists on-chain views only', async () => {
    const views = (await get(`/v1/contract/${NET}/${TOKEN}/views/schema`)).body as Array<
      Record<string, unknown>
    >;
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({ name: 'get_total', kind: 'on-chain', implementation: 0 });
    expect((await get(`/v1/contract/${NET}/${TOKEN}/views/schema?kind=off-chain`)).body).toEqual([]);
  });

  it('GET /contract/…/opg groups by (hash, counter) with flow, internals, total_cost and keyset paging', async () => {
    const page = (await get(`/v1/contract/${NET}/${TOKEN}/opg?size=2`)).body as Array<
      Record<string, unknown>
    >;
    expect(page).toHaveLength(2);
    expect(page[0]).toMatchObject({
      kind: 'transaction',
      entrypoint: 'remove',
      status: 'applied',
      level: 4,
      internals: 0,
    });
    expect(page[1]).toMatchObject({ status: 'failed', level: 3 });
    const next = (await get(`/v1/contract/${NET}/${TOKEN}/opg?size=2&last_id=${page[1]!.last_id as number}`))
      .body as Array<Record<string, unknown>>;
    expect(next[0]).toMatchObject({
      hash: OPG2,
      counter: 4,
      internals: 2,
      total_cost: 700,
      flow: 1000 + 0 - 400,
      entrypoint: 'transfer',
    });
    expect(next[1]).toMatchObject({ kind: 'origination', level: 1, flow: 5000000, total_cost: 1500 });
    expect((await get(`/v1/contract/${NET}/${TOKEN}/opg?size=11`)).status).toBe(400);
    expect((await get(`/v1/contract/${NET}/tz1UnknownAccountxxxxxxxxxxxxxxxxxxx/opg`)).status).toBe(404);
  });

  it('same contracts, migrations, events, tickets, ticket updates, global constants', async () => {
    const same = (await get(`/v1/contract/${NET}/${TOKEN}/same`)).body as {
      count: number;
      contracts: Array<Record<string, unknown>>;
    };
    expect(same.count).toBe(1);
    expect(same.contracts[0]).toMatchObject({ address: TWIN, network: NET, same_count: 1 });
    expect((await get(`/v1/contract/${NET}/${TOKEN}/migrations`)).body).toEqual([]);
    const events = (await get(`/v1/contract/${NET}/${TOKEN}/events`)).body as Array<Record<string, unknown>>;
    expect(events).toEqual([
      {
        hash: OPG2,
        status: 'applied',
        timestamp: '2026-01-10T11:02:00Z',
        level: 2,
        tag: 'moved',
        payload: [{ prim: 'nat', type: 'nat', name: '@nat_1', value: '3' }],
      },
    ]);
    const tickets = (await get(`/v1/contract/${NET}/${TOKEN}/tickets`)).body;
    expect(tickets).toEqual([
      {
        ticketer: TOKEN,
        content_type: [{ name: '@string_1', type: 'string' }],
        content: { prim: 'string', type: 'string', name: '@string_1', value: 'gold' },
        updates_count: 1,
        first_level: 2,
      },
    ]);
    const updates = (await get(`/v1/contract/${NET}/${TOKEN}/ticket_updates`)).body as Array<
      Record<string, unknown>
    >;
    expect(updates[0]).toMatchObject({
      ticketer: TOKEN,
      address: BOB,
      amount: '5',
      operation_hash: OPG2,
      level: 2,
    });
    expect((await get(`/v1/contract/${NET}/${TOKEN}/ticket_updates?account=${ALICE}`)).body).toEqual([]);
    const consts = (await get(`/v1/contract/${NET}/${TOKEN}/global_constants`)).body;
    expect(consts).toEqual([
      { timestamp: '2026-01-10T11:01:00Z', level: 1, address: CONSTANT, value: { prim: 'nat' } },
    ]);
  });

  it('GET /account: counters, type, balance 0 when the node is unreachable; ticket balances', async () => {
    const acc = await get(`/v1/account/${NET}/${BOB}`);
    expect(acc.body).toEqual({
      address: BOB,
      balance: 0,
      operations_count: 3,
      migrations_count: 0,
      events_count: 0,
      ticket_updates_count: 1,
      last_action: '2026-01-10T11:03:00Z',
      account_type: 'account',
    });
    expect((await get(`/v1/account/${NET}/${ROLLUP}`)).body).toMatchObject({ account_type: 'smart_rollup' });
    expect((await get(`/v1/account/${NET}/tz1UnknownAccountxxxxxxxxxxxxxxxxxxx`)).status).toBe(404);
    expect((await get(`/v1/account/${NET}/hello`)).status).toBe(400);
    const balances = (await get(`/v1/account/${NET}/${BOB}/ticket_balances`)).body as Array<
      Record<string, unknown>
    >;
    expect(balances[0]).toMatchObject({ ticketer: TOKEN, amount: '5' });
  });

  // last: it adds an older protocol and migrations to the seeded chain
  it('GET /contract/…/code?protocol= shows the code an update migration after that protocol replaced', async () => {
    const OLD = 'PtOLDoLDoLDoLDoLDoLDoLDoLDoLDoLDoLDoLDoLDoLDoLDoLDoL';
    const OLDER = 'PtOLDERoLDoLDoLDoLDoLDoLDoLDoLDoLDoLDoLDoLDoLDoLDoL';
    const proto = (hash: string, start_level: number) => ({
      network: NET,
      hash,
      start_level,
      end_level: start_level,
      chain_id: 'NetXsandbox',
      cost_per_byte: 250,
      hard_gas_limit_per_operation: 1040000,
      hard_storage_limit_per_operation: 60000,
      time_between_blocks: 1,
      constants: {},
    });
    await db()
      .insertInto('protocols')
      .values([proto(OLDER, 0), proto(OLD, 0)])
      .execute();
    const old = await db()
      .insertInto('scripts')
      .values({
        network: NET,
        hash: 'old-script',
        level: 0,
        code: JSON.stringify([
          { prim: 'CDR' },
          { prim: 'NIL', args: [{ prim: 'operation' }] },
          { prim: 'PAIR' },
        ]),
        parameter: JSON.stringify({ prim: 'unit' }),
        storage: JSON.stringify({ prim: 'nat' }),
        views: '[]',
        entrypoints: [],
        fail_strings: [],
        annotations: [],
        hardcoded: [],
        constants: [],
        tags: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const protoId = async (hash: string) =>
      (
        await db()
          .selectFrom('protocols')
          .select('id')
          .where('network', '=', NET)
          .where('hash', '=', hash)
          .executeTakeFirstOrThrow()
      ).id;
    const migration = async (level: number, prev: string, prev_script_id: number | null) =>
      db()
        .insertInto('migrations')
        .values({
          network: NET,
          level,
          timestamp: '2026-01-10T11:01:00Z',
          protocol_id: await protoId(prev === OLDER ? OLD : PROTO_HASH),
          prev_protocol_id: await protoId(prev),
          kind: 'update',
          contract: TOKEN,
          prev_script_id,
        })
        .execute();
    await migration(1, OLD, Number(old.id));
    const code = async (protocol: string) => get(`/v1/contract/${NET}/${TOKEN}/code?protocol=${protocol}`);
    const before = await code(OLD);
    expect(before.status).toBe(200);
    expect(before.body).toBe('parameter unit; storage nat; code { CDR ; NIL operation ; PAIR }');
    // under the current protocol (no migration after it started) and without a protocol: the current code
    expect((await code(PROTO_HASH)).body).toMatch(/^parameter \(or \(pair %transfer address nat\)/);
    expect((await get(`/v1/contract/${NET}/${TOKEN}/code`)).body).toMatch(/^parameter \(or/);
    // an update migration written before its script was kept: a 404 that says so, not another version's code
    await migration(0, OLDER, null);
    await db().updateTable('protocols').set({ start_level: -1 }).where('hash', '=', OLDER).execute();
    const lost = await code(OLDER);
    expect(lost.status).toBe(404);
    expect(lost.body).toEqual({
      message: 'the code before the migration at level 0 was not kept (indexed before it was stored)',
    });
  });
});
