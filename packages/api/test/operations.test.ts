import { describeDb } from '@michelscope/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tagsMask } from '@michelscope/michelson';
import { makeApi } from './helpers';
import {
  ALICE,
  BOB,
  CONSTANT,
  NET,
  OPG2,
  OPG3,
  OPG4,
  PROTO,
  ROLLUP,
  TOKEN,
  TWIN,
  keyHash,
  seedChain,
} from './seed';

// PGlite only: API route logic over ordinary reads (prepared statements: db/test/prepared.test.ts).
describeDb('operation, big map and chain routes', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    return {
      status: res.statusCode,
      body: res.body ? (JSON.parse(res.body) as unknown) : undefined,
      raw: res.body,
    };
  };
  type Op = Record<string, unknown>;

  beforeAll(async () => {
    await seedChain(db());
    app = await makeApi(db());
  });
  afterAll(() => app.close());

  it('GET /opg/{hash}: operations with decoded parameters, payloads, omitted zero fields', async () => {
    const ops = (await get(`/v1/opg/${NET}/${OPG2}`)).body as Op[];
    expect(ops.map((o) => o.kind)).toEqual(['smart_rollup_originate', 'transaction', 'event', 'transaction']);
    const call = ops[1]!;
    expect(call).toMatchObject({
      level: 2,
      fee: 700,
      counter: 4,
      gas_limit: 2155,
      amount: 1000,
      content_index: 0,
      consumed_gas: 2054659,
      ticket_updates_count: 1,
      big_map_diffs_count: 2,
      timestamp: '2026-01-10T11:02:00Z',
      protocol: PROTO,
      hash: OPG2,
      network: NET,
      source: ALICE,
      destination: TOKEN,
      status: 'applied',
      entrypoint: 'transfer',
      internal: false,
    });
    expect(call).not.toHaveProperty('storage_limit');
    expect(call).not.toHaveProperty('burned');
    expect(call).not.toHaveProperty('storage_diff');
    expect(call.parameters).toEqual([
      {
        prim: 'pair',
        type: 'namedtuple',
        name: 'transfer',
        children: [
          { prim: 'address', type: 'address', name: '@address_3', value: BOB },
          { prim: 'nat', type: 'nat', name: '@nat_4', value: '3' },
        ],
      },
    ]);
    expect(ops[2]).toMatchObject({
      kind: 'event',
      tag: 'moved',
      internal: true,
      payload: [{ prim: 'nat', value: '3' }],
    });
    expect((await get(`/v1/opg/${NET}/${OPG2.replace(/x$/, 'y')}`)).body).toEqual([]);
    expect((await get(`/v1/opg/${NET}/nothash`)).status).toBe(400);
  });

  it('GET /opg/{hash}?with_storage_diff=true adds the storage diff with big-map keys', async () => {
    const ops = (await get(`/v1/opg/${NET}/${OPG2}?with_storage_diff=true`)).body as Op[];
    const diff = JSON.stringify(ops[1]!.storage_diff);
    expect(diff).toContain('"name":"total","from":"10","diff_type":"update","value":"13"');
    expect(diff).toContain(`"name":"${BOB}","diff_type":"create","value":"3"`);
    expect(diff).toContain(`"name":"${ALICE}","from":"10","diff_type":"update","value":"7"`);
  });

  it('GET /opg/{hash}/{counter} and /operation/{id}/diff, error_location, ticket_updates', async () => {
    const group = (await get(`/v1/opg/${NET}/${OPG2}/4`)).body as Op[];
    expect(group.map((o) => [o.kind, o.internal])).toEqual([
      ['transaction', false],
      ['event', true],
      ['transaction', true],
    ]);
    const removal = ((await get(`/v1/opg/${NET}/${OPG4}/7`)).body as Op[])[0]!;
    const diff = (await get(`/v1/operation/${NET}/${removal.id as number}/diff`)).body;
    expect(JSON.stringify(diff)).toContain(`"name":"${BOB}","diff_type":"delete"`);
    const failed = ((await get(`/v1/opg/${NET}/${OPG3}`)).body as Op[])[0]!;
    expect(failed.status).toBe('failed');
    expect((failed.errors as Op[])[0]).toMatchObject({
      id: 'proto.019-PtParisB.michelson_v1.script_rejected',
      title: 'Script failed',
      with: '"NO"',
      location: 19,
    });
    expect((await get(`/v1/operation/${NET}/${failed.id as number}/diff`)).body).toBeNull();
    const loc = await get(`/v1/operation/${NET}/${failed.id as number}/error_location`);
    expect(loc.status).toBe(200);
    expect(loc.body).toMatchObject({ failed_row: expect.any(Number), first_row: expect.any(Number) });
    expect((loc.body as { text: string }).text).toContain('FAILWITH');
    const noError = await get(`/v1/operation/${NET}/${removal.id as number}/error_location`);
    expect(noError).toMatchObject({ status: 400, body: { message: 'No reject script error in operation' } });
    const tu = (await get(`/v1/operation/${NET}/${group[0]!.id as number}/ticket_updates`)).body as Op[];
    expect(tu).toHaveLength(1);
    expect(tu[0]).toMatchObject({ address: BOB, amount: '5', operation_hash: OPG2 });
    expect((await get(`/v1/operation/${NET}/999999/diff`)).status).toBe(404);
    expect((await get(`/v1/operation/${NET}/0/diff`)).status).toBe(400);
  });

  it('big map routes: info, count, history, keys with filters, key history (204) and state', async () => {
    expect((await get(`/v1/bigmap/${NET}/0`)).body).toEqual({
      address: TOKEN,
      network: NET,
      ptr: 0,
      active_keys: 1,
      total_keys: 2,
      typedef: [{ name: '@big_map_1', type: 'big_map(address, nat)' }],
    });
    expect((await get(`/v1/bigmap/${NET}/0/count`)).body).toEqual({ count: 2 });
    expect((await get(`/v1/bigmap/${NET}/77/count`)).body).toEqual({ count: 0 });
    expect((await get(`/v1/bigmap/${NET}/77`)).status).toBe(404);
    const history = (await get(`/v1/bigmap/${NET}/0/history`)).body as { items: Op[] };
    expect(history.items.map((i) => i.action)).toEqual(['update', 'update', 'alloc']);
    const keys = (await get(`/v1/bigmap/${NET}/0/keys`)).body as Array<{ data: Op; count: number }>;
    // count as the reference stores it: 0 when a key is first written, +1 per later block writing it
    expect(keys.map((k) => [k.data.key_string, k.data.is_active, k.count])).toEqual([
      [BOB, false, 1],
      [ALICE, true, 1],
    ]);
    expect(keys[1]!.data).toMatchObject({
      key: { prim: 'address', value: ALICE },
      key_hash: keyHash(ALICE),
      level: 2,
    });
    expect(((await get(`/v1/bigmap/${NET}/0/keys?max_level=3`)).body as unknown[]).length).toBe(1);
    // keyset paging: the keys after the previous page's last key hash, alone or with a filter
    const after = async (q: string) =>
      ((await get(`/v1/bigmap/${NET}/0/keys?${q}`)).body as Array<{ data: Op }>).map(
        (k) => k.data.key_string,
      );
    expect(await after(`size=1&after=${keyHash(BOB)}`)).toEqual([ALICE]);
    expect(await after(`after=${keyHash(ALICE)}`)).toEqual([]);
    expect(await after(`active_only=true&after=${keyHash(BOB)}`)).toEqual([ALICE]);
    const noKey = 'exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC';
    const unknownKey = await get(`/v1/bigmap/${NET}/0/keys?after=${noKey}`);
    expect([unknownKey.status, unknownKey.body]).toEqual([
      400,
      { message: `after: big map 0 has no key ${noKey}` },
    ]);
    expect((await get(`/v1/bigmap/${NET}/0/keys?offset=1&after=${keyHash(BOB)}`)).body).toEqual({
      message: 'after cannot be combined with offset',
    });
    expect((await get(`/v1/bigmap/${NET}/0/keys?after=expr1`)).status).toBe(400);
    expect((await get(`/v1/bigmap/${NET}/0/keys?max_level=2&min_level=3`)).status).toBe(400);
    expect(
      ((await get(`/v1/bigmap/${NET}/0/keys?search=${BOB.slice(3, 12)}`)).body as unknown[]).length,
    ).toBe(1);
    const hist = (await get(`/v1/bigmap/${NET}/0/keys/${keyHash(BOB)}`)).body as {
      total: number;
      values: Op[];
    };
    expect(hist.total).toBe(2);
    expect(hist.values.map((v) => [v.level, v.value === null])).toEqual([
      [4, true],
      [2, false],
    ]);
    const none = await get(`/v1/bigmap/${NET}/1/keys/${keyHash(BOB)}`);
    expect(none.status).toBe(204);
    const state = (await get(`/v1/bigmap/${NET}/0/keys/${keyHash(BOB)}/state`)).body;
    expect(state).toMatchObject({
      key_string: BOB,
      removed: true,
      updates_count: 1, // the stored count (0 at the first write)
      last_update_level: 4,
      value: { prim: 'nat', value: '3' },
    });
    expect((await get(`/v1/bigmap/${NET}/1/keys/${keyHash(ALICE)}/state`)).status).toBe(404);
    expect((await get(`/v1/bigmap/${NET}/-1`)).status).toBe(400);
  });

  it('implicit operations, recently called, contracts count, helpers, constants and rollups', async () => {
    expect((await get(`/v1/implicit/${NET}/2`)).body).toEqual([]);
    const recent = (await get(`/v1/stats/${NET}/recently_called_contracts?size=1`)).body as Op[];
    expect(recent).toEqual([
      { id: expect.any(Number), address: TOKEN, last_action: '2026-01-10T11:04:00Z', operations_count: 5 },
    ]);
    expect((await get(`/v1/stats/${NET}/contracts_count`)).body).toBe(2);
    expect((await get(`/v1/stats/mainnet/contracts_count`)).status).toBe(404);
    const helper = await get(`/v1/helpers/contracts/${NET}?tags=SET_DELEGATE`);
    expect(helper.body).toMatchObject({ address: TWIN });
    expect((await get(`/v1/helpers/contracts/${NET}?tags=fa2`)).status).toBe(404);
    // a contract indexed after a miss is found at once: the miss was not cached (it was, for an hour)
    await db()
      .updateTable('contracts')
      .set({ tags: tagsMask(['fa2']) })
      .where('address', '=', TWIN)
      .execute();
    expect((await get(`/v1/helpers/contracts/${NET}?tags=fa2`)).body).toMatchObject({ address: TWIN });
    await db().updateTable('contracts').set({ tags: 2 }).where('address', '=', TWIN).execute();
    expect((await get(`/v1/helpers/contracts/${NET}?tags=bogus`)).status).toBe(400);
    expect((await get(`/v1/global_constants/${NET}`)).body).toEqual([
      { timestamp: '2026-01-10T11:01:00Z', level: 1, address: CONSTANT, links_count: 2 },
    ]);
    expect((await get(`/v1/global_constants/${NET}/${CONSTANT}`)).body).toMatchObject({
      value: { prim: 'nat' },
      code: 'nat',
    });
    const users = (await get(`/v1/global_constants/${NET}/${CONSTANT}/contracts`)).body as Op[];
    expect(users.map((c) => c.address)).toEqual([TWIN, TOKEN]);
    expect((await get(`/v1/smart_rollups/${NET}`)).body).toEqual([
      {
        id: expect.any(Number),
        level: 2,
        timestamp: '2026-01-10T11:02:00Z',
        size: 42,
        address: ROLLUP,
        genesis_commitment_hash: 'src1genesis',
        pvm_kind: 'wasm_2_0_0',
        kernel: '0061736d',
        type: [{ name: '@bytes_1', type: 'bytes' }],
      },
    ]);
    expect((await get(`/v1/smart_rollups/${NET}/${ROLLUP}`)).body).toMatchObject({ address: ROLLUP });
    expect((await get(`/v1/smart_rollups/${NET}/${ROLLUP.replace(/x$/, 'z')}`)).status).toBe(404);
  });
});
