import { describeDb } from '@michelscope/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeApi } from './helpers';
import { ALICE, BOB, NET, TOKEN, TWIN, keyHash, seedChain } from './seed';

interface Node {
  name?: string;
  value?: unknown;
  from?: unknown;
  diff_type?: string;
  children?: Node[];
}
const child = (n: Node, name: string) => n.children?.find((c) => c.name === name);

// PGlite only: API route logic over ordinary reads (prepared statements: db/test/prepared.test.ts).
describeDb('storage diff between two levels', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
  };
  const base = `/v1/contract/${NET}/${TOKEN}/storage/diff`;

  beforeAll(async () => {
    await seedChain(db());
    app = await makeApi(db());
  });
  afterAll(() => app.close());

  it('diffs the storage fields and counts the big-map keys added, changed and removed', async () => {
    // level 1: Pair ledger=0 total=10, ALICE → 10; level 2: total 13, ALICE → 7, BOB → 3; level 4: BOB removed
    const r = await get(`${base}?from=1&to=2`);
    expect(r.status).toBe(200);
    expect(r.body.from).toEqual({ level: 1, storage_level: 1 });
    expect(r.body.to).toEqual({ level: 2, storage_level: 2 });
    const total = child(r.body.storage as Node, 'total');
    expect(total).toMatchObject({ value: '13', from: '10', diff_type: 'update' });
    expect(child(r.body.storage as Node, 'ledger')?.diff_type).toBeUndefined();
    expect(r.body.big_maps).toEqual([
      { ptr: 0, name: 'ledger', counts: { added: 1, changed: 1, removed: 0 } },
    ]);

    const keys = await get(`${base}/big_map/0?from=1&to=2`);
    expect(keys.status).toBe(200);
    expect(keys.body.total).toBe(2);
    const items = keys.body.items as Array<{
      key_string: string;
      change: string;
      value: Node;
      key_hash: string;
    }>;
    const byKey = Object.fromEntries(items.map((i) => [i.key_string, i]));
    expect(byKey[ALICE]).toMatchObject({ change: 'changed', key_hash: keyHash(ALICE) });
    expect(byKey[ALICE]!.value).toMatchObject({ value: '7', from: '10', diff_type: 'update' });
    expect(byKey[BOB]).toMatchObject({ change: 'added', value: { value: '3', diff_type: 'create' } });
  });

  it('leaves out a key added and removed in between, and shows a removal with its old value', async () => {
    const wide = await get(`${base}?from=1&to=4`);
    expect(wide.body.big_maps).toEqual([
      { ptr: 0, name: 'ledger', counts: { added: 0, changed: 1, removed: 0 } },
    ]);
    const removed = await get(`${base}/big_map/0?from=2&to=4`);
    expect(removed.body.counts).toEqual({ added: 0, changed: 0, removed: 1 });
    expect(removed.body.items).toMatchObject([
      { key_string: BOB, change: 'removed', level: 4, value: { value: '3', diff_type: 'delete' } },
    ]);
    // the storage value is the same at 2 and 4: no field carries a diff
    const same = await get(`${base}?from=2&to=3`);
    expect(JSON.stringify(same.body.storage)).not.toContain('diff_type');
    expect(same.body.to).toEqual({ level: 3, storage_level: 2 });
  });

  it('before the origination every field and key is added; pages and class filters', async () => {
    const r = await get(`${base}?from=0&to=2`);
    expect(r.body.from).toEqual({ level: 0, storage_level: null });
    expect((r.body.storage as Node).diff_type).toBe('create');
    expect(r.body.big_maps).toEqual([
      { ptr: 0, name: 'ledger', counts: { added: 2, changed: 0, removed: 0 } },
    ]);
    const page1 = await get(`${base}/big_map/0?from=0&to=2&size=1`);
    const page2 = await get(`${base}/big_map/0?from=0&to=2&size=1&offset=1`);
    const seen = [page1, page2].map((p) => (p.body.items as Array<{ key_string: string }>)[0]!.key_string);
    expect(seen.sort()).toEqual([ALICE, BOB].sort());
    const past = await get(`${base}/big_map/0?from=0&to=2&size=1&offset=5`);
    expect(past.body).toMatchObject({ total: 2, items: [], counts: { added: 2, changed: 0, removed: 0 } });
    const changedOnly = await get(`${base}/big_map/0?from=1&to=2&change=changed`);
    expect(changedOnly.body.total).toBe(1);
    expect(changedOnly.body.items).toMatchObject([{ key_string: ALICE }]);
  });

  it('bad input: 400/404 with a message', async () => {
    expect(await get(`${base}?from=2&to=2`)).toEqual({
      status: 400,
      body: { message: 'from must be below to' },
    });
    expect((await get(`${base}?from=x&to=2`)).status).toBe(400);
    expect((await get(`${base}?to=2`)).status).toBe(400);
    expect(
      (await get(`/v1/contract/${NET}/KT1UnknownContractxxxxxxxxxxxxxxxxxx/storage/diff?from=1&to=2`)).status,
    ).toBe(404);
    // another contract's big map
    expect((await get(`/v1/contract/${NET}/${TWIN}/storage/diff/big_map/0?from=1&to=2`)).status).toBe(404);
    expect((await get(`${base}/big_map/0?from=1&to=2&change=moved`)).status).toBe(400);
    const early = await get(`${base}?from=0&to=0`);
    expect(early.status).toBe(400);
  });
});
