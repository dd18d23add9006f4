/**
 * An origination whose code has a count Octez refuses (`DROP 1024`): run_operation reports it failed, and
 * once injected it is included in a block, failed, with the earlier content of its batch backtracked;
 * both with Octez's trace: `ill_typed_contract` {ill_typed_code, type_map}, then
 * `invalid_syntactic_constant` {location, expected_form, wrong_expression}.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ACCOUNTS, injectAs } from '../src/index';
import { openHarness, type Harness } from './helpers';

const [b1, b2] = BOOTSTRAP_ACCOUNTS as [(typeof BOOTSTRAP_ACCOUNTS)[0], (typeof BOOTSTRAP_ACCOUNTS)[0]];

const CODE = [
  { prim: 'parameter', args: [{ prim: 'unit' }] },
  { prim: 'storage', args: [{ prim: 'unit' }] },
  {
    prim: 'code',
    args: [
      [
        { prim: 'DROP', args: [{ int: '1024' }] },
        { prim: 'UNIT' },
        { prim: 'NIL', args: [{ prim: 'operation' }] },
        { prim: 'PAIR' },
      ],
    ],
  },
];
const ORIGINATION = { kind: 'origination', balance: '0', script: { code: CODE, storage: { prim: 'Unit' } } };
const ERRORS = [
  {
    kind: 'permanent',
    id: 'proto.024-PtTALLiN.michelson_v1.ill_typed_contract',
    ill_typed_code: CODE,
    type_map: [],
  },
  {
    kind: 'permanent',
    id: 'proto.024-PtTALLiN.michelson_v1.invalid_syntactic_constant',
    location: 8,
    expected_form: 'a positive 10-bit integer (between 0 and 1023)',
    wrong_expression: { int: '1024' },
  },
];

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface Content {
  kind: string;
  metadata: { operation_result: { status: string; errors?: unknown[]; originated_contracts?: string[] } };
}

describe('origination with a refused count (invalid_syntactic_constant)', () => {
  it('run_operation: failed with the ill-typed contract then the constant', async () => {
    h = await openHarness();
    const branch = (await h.get('/chains/main/blocks/head/hash')).body as string;
    const r = await h.post('/chains/main/blocks/head/helpers/scripts/run_operation', {
      operation: {
        branch,
        contents: [
          {
            ...ORIGINATION,
            source: b1.pkh,
            fee: '10000',
            counter: '1',
            gas_limit: '100000',
            storage_limit: '10000',
          },
        ],
      },
    });
    expect(r.status).toBe(200);
    const result = (r.body as { contents: Content[] }).contents[0]!.metadata.operation_result;
    expect(result.status).toBe('failed');
    expect(result.errors).toEqual(ERRORS);
  });

  it('injected in a batch: included, the transfer before it backtracked, the origination failed', async () => {
    h = await openHarness();
    const hash = await injectAs(h.sandbox, b2, [
      { kind: 'transaction', amount: '1000000', destination: b1.pkh },
      ORIGINATION,
    ]);
    const block = await h.sandbox.bakeBlock();
    const op = block.operations[3]!.find((o) => o.hash === hash)!;
    const [transfer, origination] = op.contents as unknown as Content[];
    expect(transfer!.metadata.operation_result.status).toBe('backtracked');
    const result = origination!.metadata.operation_result;
    expect(result.status).toBe('failed');
    expect(result.originated_contracts).toBeUndefined();
    expect(result.errors).toEqual(ERRORS);
  });
});
