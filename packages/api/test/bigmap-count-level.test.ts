/**
 * A big map's key count at an old level (issue 33): the storage tab at level N asks
 * `GET /v1/bigmap/{network}/{ptr}/count?level=N` for the keys the big map had at the end of block N (written at
 * or before it, removed ones included, as the count without `level` counts them now), over the indexed demo
 * sandbox, whose counter writes and forgets notes round after round.
 */
import { describeDb } from '@michelscope/db/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openIndexedSandbox, SANDBOX_NET as NET, type IndexedSandbox } from './indexed-sandbox';

interface Key {
  data: { key_hash: string; level: number; is_active: boolean };
}

// PGlite only: one read of the key updates, the same SQL on both backends.
describeDb('big-map key count at a level', { backends: 'pglite' }, ({ db }) => {
  let env: IndexedSandbox;
  const get = async <T>(url: string) => {
    const res = await env.app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json<T>() };
  };

  beforeAll(async () => {
    env = await openIndexedSandbox(db());
  }, 90_000);
  afterAll(() => env?.close());

  it("counts the keys written by the end of the level, not today's", async () => {
    const counter = env.contracts.counter!;
    const storage = await get<Array<{ children: Array<{ name: string; value?: number }> }>>(
      `/v1/contract/${NET}/${counter}/storage`,
    );
    const ptr = storage.body[0]!.children.find((c) => c.name === 'notes')!.value!;
    expect(typeof ptr).toBe('number');

    // when each key was first written: the oldest update of its history
    const keys: Key[] = [];
    for (let offset = 0; ; offset += 10) {
      const page = await get<Key[]>(`/v1/bigmap/${NET}/${ptr}/keys?size=10&offset=${offset}`);
      keys.push(...page.body);
      if (page.body.length < 10) break;
    }
    const firstWritten: number[] = [];
    for (const k of keys) {
      const levels: number[] = [];
      for (let offset = 0; ; offset += 10) {
        const h = await get<{ values?: Array<{ level: number }> }>(
          `/v1/bigmap/${NET}/${ptr}/keys/${k.data.key_hash}?size=10&offset=${offset}`,
        );
        levels.push(...(h.body.values ?? []).map((v) => v.level));
        if ((h.body.values ?? []).length < 10) break;
      }
      firstWritten.push(Math.min(...levels));
    }
    const now = (await get<{ count: number }>(`/v1/bigmap/${NET}/${ptr}/count`)).body.count;
    expect(now).toBe(keys.length);
    const levels = [...new Set(firstWritten)].sort((a, b) => a - b);
    expect(levels.length).toBeGreaterThan(2);

    const at = async (level: number) => {
      const r = await get<{ count: number; partial?: boolean }>(
        `/v1/bigmap/${NET}/${ptr}/count?level=${level}`,
      );
      expect(r.status).toBe(200);
      expect(r.body.partial).toBeUndefined();
      return r.body.count;
    };
    // before the first key, at each level a key was first written, and one level before it
    expect(await at(levels[0]! - 1)).toBe(0);
    for (const level of levels) {
      expect(await at(level), `level ${level}`).toBe(firstWritten.filter((l) => l <= level).length);
      expect(await at(level - 1), `level ${level - 1}`).toBe(firstWritten.filter((l) => l < level).length);
    }
    // an early level has fewer keys than today; the head has today's
    expect(await at(levels[1]!)).toBeLessThan(now);
    const head = (await get<{ level: number }>(`/v1/head/${NET}`)).body.level;
    expect(await at(head)).toBe(now);
    // the count without a level keeps its answer; a bad level is a 400
    expect((await get(`/v1/bigmap/${NET}/${ptr}/count`)).body).toEqual({ count: now });
    expect((await get(`/v1/bigmap/${NET}/${ptr}/count?level=x`)).status).toBe(400);
    expect((await get(`/v1/bigmap/${NET}/${ptr}/count?level=-1`)).status).toBe(400);
  });
});
