/**
 * A big map a what-if allocates (issue 33): the run gives it a temporary id (-1), which the chain never would;
 * the answer shows it as a new big map — in the storage diffs a created big map holding its keys, in the big-map
 * changes named by its field — and never as `-1`. Over the indexed demo sandbox, with a contract originated for
 * the test that replaces its big map by a new one on each call.
 */
import { describeDb } from '@michelscope/db/testing';
import { parseMichelsonExpression, parseMichelsonScript } from '@michelscope/michelson';
import { BOOTSTRAP_ACCOUNTS, injectAs } from '@michelscope/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openIndexedSandbox, SANDBOX_NET as NET, type IndexedSandbox } from './indexed-sandbox';

/** Counts its calls and keeps only the last note, in a big map made anew on each call. */
const RENEWER = `
parameter (pair string nat);
storage (pair (nat %calls) (big_map %fresh string nat));
code { UNPAIR; SWAP; CAR; PUSH nat 1; ADD; SWAP;
       UNPAIR; EMPTY_BIG_MAP string nat; SWAP; DIP { SWAP; SOME }; UPDATE;
       SWAP; PAIR; NIL operation; PAIR };`;

interface Node {
  name?: string;
  type?: string;
  value?: unknown;
  diff_type?: string;
  children?: Node[];
}
interface WhatIf {
  status: string;
  calls: Array<{ status: string; storage_diff?: Node | null }>;
  storage_diff: Node | null;
  big_maps: Array<{
    ptr: number;
    name: string | null;
    counts: { added: number; changed: number; removed: number };
    items: Array<{ key_string: string; change: string }>;
  }>;
}

const child = (n: Node | null | undefined, name: string) => n?.children?.find((c) => c.name === name);
/** Every big-map node of a tree whose value is a temporary (negative) id. */
const temporaryIds = (n: Node | null | undefined): unknown[] =>
  !n
    ? []
    : [
        ...(n.type === 'big_map' && typeof n.value === 'number' && n.value < 0 ? [n.value] : []),
        ...(n.children ?? []).flatMap(temporaryIds),
      ];

// PGlite only: a what-if over the indexed sandbox (its SQL is ordinary reads).
describeDb('what-if: a big map the bundle allocates', { backends: 'pglite' }, ({ db }) => {
  let env: IndexedSandbox;
  let renewer = '';

  beforeAll(async () => {
    env = await openIndexedSandbox(db());
    const code = parseMichelsonScript(RENEWER);
    const storage = parseMichelsonExpression('Pair 0 {}');
    const hash = await injectAs(env.sandbox, BOOTSTRAP_ACCOUNTS[0]!, [
      { kind: 'origination', balance: '0', script: { code, storage } },
    ]);
    const block = await env.sandbox.bakeBlock();
    const op = block.operations[3]!.find((o) => o.hash === hash)!;
    renewer = (op.contents[0] as { metadata: { operation_result: { originated_contracts: string[] } } })
      .metadata.operation_result.originated_contracts[0]!;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const r = await env.app.inject({ method: 'GET', url: `/v1/contract/${NET}/${renewer}` });
      if (r.statusCode === 200 && r.body.length > 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);
  afterAll(() => env?.close());

  it("shows the new big map with its keys, named by its field, never as '-1'", async () => {
    const note = (text: string, n: number) => ({
      name: 'default',
      value: { prim: 'Pair', args: [{ string: text }, { int: String(n) }] },
    });
    const res = await env.app.inject({
      method: 'POST',
      url: `/v1/contract/${NET}/${renewer}/entrypoints/what_if`,
      payload: { calls: [note('hello', 42), note('again', 7)] },
    });
    expect(res.statusCode, res.body.slice(0, 400)).toBe(200);
    const r = res.json<WhatIf>();
    expect(r.status).toBe('applied');

    // the bundle's diff: the field holds a created big map whose key is the last call's note
    const fresh = child(r.storage_diff, 'fresh');
    expect(fresh).toMatchObject({ type: 'big_map', diff_type: 'create' });
    expect(fresh?.value).toBeUndefined();
    expect(fresh?.children).toEqual([
      expect.objectContaining({ name: 'again', value: '7', diff_type: 'create' }),
    ]);
    expect(child(r.storage_diff, 'calls')).toMatchObject({ value: '2', diff_type: 'update' });
    // each call's diff too: the first call's new map holds 'hello'
    expect(child(r.calls[0]!.storage_diff, 'fresh')?.children).toEqual([
      expect.objectContaining({ name: 'hello', value: '42', diff_type: 'create' }),
    ]);
    for (const tree of [r.storage_diff, ...r.calls.map((c) => c.storage_diff)])
      expect(temporaryIds(tree)).toEqual([]);

    // the big-map changes: the new maps are named by their field (no chain id to give them)
    const created = r.big_maps.filter((m) => m.ptr < 0);
    expect(created.length).toBeGreaterThan(0);
    for (const m of created) expect(m.name).toBe('fresh');
    expect(created.flatMap((m) => m.items.map((i) => [i.key_string, i.change]))).toEqual(
      expect.arrayContaining([['again', 'added']]),
    );
  });
});
