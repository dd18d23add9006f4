/**
 * Fork with "Current" (issue 33): `GET …/storage/schema?fill_type=current` fills the storage's big maps with their
 * current (active) keys, at most 100 per big map, and says how many of how many, over the indexed demo sandbox,
 * whose counter keeps notes in a big map.
 */
import { describeDb } from '@michelscope/db/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openIndexedSandbox, SANDBOX_NET as NET, type IndexedSandbox } from './indexed-sandbox';

// PGlite only: reads of the key states, the same SQL on both backends.
describeDb('fork: current storage with its big maps', { backends: 'pglite' }, ({ db }) => {
  let env: IndexedSandbox;
  const get = async <T>(url: string) => {
    const res = await env.app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json<T>() };
  };

  beforeAll(async () => {
    env = await openIndexedSandbox(db());
  }, 90_000);
  afterAll(() => env?.close());

  it('fills the notes big map with its active keys and counts them', async () => {
    const counter = env.contracts.counter!;
    const storage = await get<Array<{ children: Array<{ name: string; value?: number }> }>>(
      `/v1/contract/${NET}/${counter}/storage`,
    );
    const ptr = storage.body[0]!.children.find((c) => c.name === 'notes')!.value!;
    const active = await get<unknown[]>(`/v1/bigmap/${NET}/${ptr}/keys?size=10&active_only=true`);
    expect(active.body.length).toBeGreaterThan(0);

    const schema = await get<{
      default_model: Record<string, unknown>;
      big_maps_filled?: Array<{ ptr: number; filled: number; total: number }>;
    }>(`/v1/contract/${NET}/${counter}/storage/schema?fill_type=current`);
    expect(schema.status).toBe(200);
    const notes = Object.entries(schema.body.default_model).find(([k]) => k.startsWith('notes'))?.[1];
    expect(Array.isArray(notes)).toBe(true);
    expect((notes as unknown[]).length).toBe(active.body.length);
    expect(schema.body.big_maps_filled).toEqual([
      { ptr, filled: active.body.length, total: active.body.length },
    ]);
  });
});
