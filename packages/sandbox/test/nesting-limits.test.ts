/**
 * Deeply nested Micheline in a request body is refused with a 400 node error before any recursive code
 * (typechecker, printers) runs; a depth real contracts use still works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => h?.close());

/** JSON text of `inner` wrapped in `depth` sequences (built as text: JSON.stringify itself overflows). */
const nestedSeq = (depth: number, inner: string) => '['.repeat(depth) + inner + ']'.repeat(depth);

async function runCode(depth: number) {
  const code = nestedSeq(
    depth,
    '{"prim":"CDR"},{"prim":"NIL","args":[{"prim":"operation"}]},{"prim":"PAIR"}',
  );
  const chainId = (await h.get('/chains/main/chain_id')).body as string;
  const payload =
    `{"script":[{"prim":"parameter","args":[{"prim":"unit"}]},{"prim":"storage","args":[{"prim":"int"}]},` +
    `{"prim":"code","args":[${code}]}],"storage":{"int":"7"},"input":{"prim":"Unit"},"amount":"0",` +
    `"chain_id":"${chainId}"}`;
  const r = await h.app.inject({
    method: 'POST',
    url: '/rpc/sandboxnet/chains/main/blocks/head/helpers/scripts/run_code',
    headers: { 'content-type': 'application/json' },
    payload,
  });
  return { status: r.statusCode, body: JSON.parse(r.body) as unknown };
}

describe('nesting limits of the sandbox RPC', () => {
  it('runs code nested 100 deep', async () => {
    const r = await runCode(100);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ storage: { int: '7' }, operations: [] });
  });

  it.each([3000, 5000, 10_000])('refuses code nested %i deep with a 400 node error', async (depth) => {
    const r = await runCode(depth);
    expect(r.status).toBe(400);
    expect(r.body).toEqual([
      { kind: 'permanent', id: 'rpc.invalid_body', msg: 'JSON nested deeper than 1000 levels' },
    ]);
    // the chain still answers
    expect((await h.get('/chains/main/blocks/head/hash')).status).toBe(200);
  });
});

describe('int literal limit of the sandbox RPC', () => {
  it('refuses a 1,000,000-digit int before typechecking, and runs a 1,000-digit one', async () => {
    const chainId = (await h.get('/chains/main/chain_id')).body as string;
    const run = (digits: number) =>
      h.post('/chains/main/blocks/head/helpers/scripts/run_code', {
        script: [
          { prim: 'parameter', args: [{ prim: 'unit' }] },
          { prim: 'storage', args: [{ prim: 'int' }] },
          {
            prim: 'code',
            args: [
              [
                { prim: 'DROP' },
                { prim: 'PUSH', args: [{ prim: 'int' }, { int: '9'.repeat(digits) }] },
                { prim: 'NIL', args: [{ prim: 'operation' }] },
                { prim: 'PAIR' },
              ],
            ],
          },
        ],
        storage: { int: '0' },
        input: { prim: 'Unit' },
        amount: '0',
        chain_id: chainId,
      });
    const huge = await run(1_000_000);
    expect(huge.status).toBe(400);
    expect(huge.body).toEqual([
      { kind: 'permanent', id: 'rpc.invalid_body', msg: 'int literal longer than 1000 digits' },
    ]);
    const ok = await run(1000);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ storage: { int: '9'.repeat(1000) } });
  });
});
