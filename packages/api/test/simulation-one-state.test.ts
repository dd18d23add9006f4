/**
 * A node simulation while the indexer lags the node (issue 33): the node runs a call at ITS head, so the level
 * the result names, the storage it diffs from ('from') and the run ('to') are that one block's state, not the
 * indexed head's storage next to a run at the node's head. Over the indexed demo sandbox, whose indexer is
 * stopped while the counter is incremented on the node.
 */
import { describeDb } from '@michelscope/db/testing';
import { BOOTSTRAP_ACCOUNTS, injectAs } from '@michelscope/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openIndexedSandbox, SANDBOX_NET as NET, type IndexedSandbox } from './indexed-sandbox';

interface Node {
  name?: string;
  value?: unknown;
  from?: unknown;
  diff_type?: string;
  children?: Node[];
}
const find = (n: Node | undefined, name: string): Node | undefined =>
  !n ? undefined : n.name === name ? n : (n.children ?? []).map((c) => find(c, name)).find(Boolean);

// PGlite only: a node simulation over the indexed sandbox (ordinary reads).
describeDb('node simulation: one state while the indexer lags', { backends: 'pglite' }, ({ db }) => {
  let env: IndexedSandbox;
  let indexedLevel = 0;
  let indexedCounter = 0;

  beforeAll(async () => {
    env = await openIndexedSandbox(db());
    const counter = env.contracts.counter!;
    const storage = await env.app.inject({ method: 'GET', url: `/v1/contract/${NET}/${counter}/storage` });
    const root = storage.json<Node[]>()[0];
    indexedCounter = Number(find(root, 'counter')?.value);
    await env.stopIndexer();
    indexedLevel = env.sandbox.headLevel;
    // the node moves on without the indexer: the counter goes up by 5, two more blocks
    await injectAs(env.sandbox, BOOTSTRAP_ACCOUNTS[0]!, [
      {
        kind: 'transaction',
        amount: '0',
        destination: counter,
        parameters: { entrypoint: 'increment', value: { int: '5' } },
      },
    ]);
    await env.sandbox.bakeBlock();
    await env.sandbox.bakeBlock();
  }, 120_000);
  afterAll(() => env?.close());

  it("names the node's block and diffs from the storage the node ran with", async () => {
    const counter = env.contracts.counter!;
    expect(Number.isFinite(indexedCounter)).toBe(true);
    expect(env.sandbox.headLevel).toBe(indexedLevel + 2);
    const r = await env.app.inject({
      method: 'POST',
      url: `/v1/contract/${NET}/${counter}/entrypoints/run_operation`,
      payload: { name: 'increment', data: { increment: 1 }, source: BOOTSTRAP_ACCOUNTS[1]!.pkh },
    });
    expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
    const main = r.json<Array<{ level?: number; status: string; storage_diff?: Node }>>()[0]!;
    expect(main.status).toBe('applied');
    // the level shown is the block the node ran on, not the indexed head
    expect(main.level).toBe(env.sandbox.headLevel);
    const c = find(main.storage_diff, 'counter');
    expect(c, JSON.stringify(main.storage_diff)).toBeDefined();
    // 'from' is the storage at that block (5 more than the index has), 'to' one more
    expect(Number(c!.from)).toBe(indexedCounter + 5);
    expect(Number(c!.value)).toBe(indexedCounter + 6);
  });
});
