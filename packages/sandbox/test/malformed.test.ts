import { afterEach, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ACCOUNTS } from '../src/index';
import { openHarness, type Harness } from './helpers';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const bodies: unknown[] = [
  null,
  42,
  'text',
  [],
  {},
  { operation: null },
  { operation: { branch: 'nope', contents: [] } },
  {
    operation: {
      branch: 'BLvxCa7Wimg4JCJMR62EvCrBWhzALEJRbDWHhcYtmyAL1y4ikry',
      contents: [{ kind: 'transaction' }],
    },
  },
  [{ branch: 'x', contents: 'y', signature: 5 }],
  [
    {
      branch: 'BLvxCa7Wimg4JCJMR62EvCrBWhzALEJRbDWHhcYtmyAL1y4ikry',
      contents: [
        {
          kind: 'reveal',
          source: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx',
          fee: '0',
          counter: '1',
          gas_limit: '1',
          storage_limit: '0',
          public_key: BOOTSTRAP_ACCOUNTS[0]!.pk,
        },
      ],
      signature: 'sigNope',
    },
  ],
];
const routes = [
  '/chains/main/blocks/head/helpers/scripts/simulate_operation',
  '/chains/main/blocks/head/helpers/scripts/run_operation',
  '/chains/main/blocks/head/helpers/preapply/operations',
  '/chains/main/blocks/head/helpers/forge/operations',
  '/injection/operation',
];

describe('malformed input', () => {
  it('answers every malformed POST with a node error body and no internal error', async () => {
    h = await openHarness();
    for (const route of routes) {
      for (const body of bodies) {
        const r = await h.post(route, body);
        const summary = { route, body: JSON.stringify(body).slice(0, 60), status: r.status };
        expect(r.status, JSON.stringify(summary)).toBeGreaterThanOrEqual(400);
        expect(Array.isArray(r.body), JSON.stringify(summary)).toBe(true);
        expect(r.body[0].id, JSON.stringify(summary)).not.toBe('sandbox.internal_error');
      }
    }
    expect((await h.get('/chains/main/blocks/head/hash')).status).toBe(200);
  });

  it('answers malformed script-helper and contract requests with node errors, never an internal error', async () => {
    h = await openHarness();
    const scripts = [
      'run_code',
      'trace_code',
      'run_script_view',
      'run_view',
      'pack_data',
      'typecheck_code',
      'entrypoints',
    ];
    const weird: unknown[] = [
      null,
      42,
      'x',
      [],
      {},
      { script: 'nope', storage: 1, input: [], amount: 'lots', chain_id: 'NetXb4iQop6QC3n' },
      {
        script: [{ prim: 'parameter', args: [{ prim: 'int' }] }],
        storage: { int: '1' },
        input: { int: '1' },
        amount: '0',
      },
      {
        contract: 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5',
        view: 'v',
        input: { prim: 'Unit' },
        entrypoint: 'e',
      },
      { contract: 'tz1nope', view: 5, input: null },
      { data: { string: 'a' }, type: { prim: 'int' } },
      { data: { int: '1' }, type: { prim: 'no_such_type' } },
      { program: [{ prim: 'code', args: [[{ prim: 'DROP' }]] }] },
      { program: 'garbage' },
      { script: [{ prim: 'storage', args: [{ prim: 'unit' }] }] },
      { unparsing_mode: 'Fancy', key: { string: 'a' }, type: { prim: 'string' } },
    ];
    const base = '/chains/main/blocks/head';
    const routes = [
      ...scripts.map((r) => `${base}/helpers/scripts/${r}`),
      `${base}/context/contracts/KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5/big_map_get`,
      `${base}/context/contracts/KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5/storage/normalized`,
      `${base}/context/contracts/tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx/script/normalized`,
      `${base}/context/big_maps/0/exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC/normalized`,
      `${base}/context/big_maps/nope/exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC/normalized`,
    ];
    for (const route of routes) {
      for (const body of weird) {
        const r = await h.post(route, body);
        const summary = JSON.stringify({ route, body: JSON.stringify(body).slice(0, 60), status: r.status });
        expect(r.status, summary).toBeGreaterThanOrEqual(400);
        expect(Array.isArray(r.body), summary).toBe(true);
        expect(r.body[0].id, summary).not.toBe('sandbox.internal_error');
      }
    }
    for (const path of [
      '/context/big_maps/1',
      '/context/big_maps/x/y',
      '/context/contracts/KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5/entrypoints',
      '/context/global_constants/nope',
      '/context/contracts/KT1nope/storage',
    ]) {
      const r = await h.get(`${base}${path}`);
      expect([400, 404], path).toContain(r.status);
      expect(r.body[0].id).not.toBe('sandbox.internal_error');
    }
  });

  it('simulates an origination with an empty script as a failed operation, like the node', async () => {
    h = await openHarness();
    const op = {
      branch: (await h.get('/chains/main/blocks/head/hash')).body,
      contents: [
        {
          kind: 'origination',
          source: BOOTSTRAP_ACCOUNTS[0]!.pkh,
          fee: '0',
          counter: '1',
          gas_limit: '10000',
          storage_limit: '1000',
          balance: '0',
          script: { code: [], storage: { int: '0' } },
        },
      ],
    };
    const r = await h.post('/chains/main/blocks/head/helpers/scripts/simulate_operation', {
      operation: op,
      chain_id: (await h.get('/chains/main/chain_id')).body,
    });
    expect(r.status).toBe(200);
    const result = r.body.contents[0].metadata.operation_result;
    expect(result.status).toBe('failed');
    expect(result.errors[0].id).toMatch(/^proto\.024-PtTALLiN\.michelson_v1\./);
  });

  it('simulates a transfer without changing the state', async () => {
    h = await openHarness();
    const [b1, b2] = BOOTSTRAP_ACCOUNTS;
    const branch = (await h.get('/chains/main/blocks/head/hash')).body;
    const op = {
      branch,
      contents: [
        {
          kind: 'transaction',
          source: b1!.pkh,
          fee: '0',
          counter: '1',
          gas_limit: '1040000',
          storage_limit: '60000',
          amount: '5',
          destination: b2!.pkh,
        },
      ],
    };
    const r = await h.post('/chains/main/blocks/head/helpers/scripts/simulate_operation', {
      operation: {
        ...op,
        signature:
          'sigUHx32f9wesZ1n2BWpixXz4AQaZggEtchaQNHYGRCoWNAXx45WGW2ua3apUUUAGMLPwAU41QoaFCzVSL61VaessLg4YbbP',
      },
      chain_id: (await h.get('/chains/main/chain_id')).body,
    });
    expect(r.status).toBe(200);
    expect(r.body.contents[0].metadata.operation_result).toMatchObject({
      status: 'applied',
      consumed_milligas: '100000',
    });
    expect(r.body.contents[0].metadata.operation_result.balance_updates[0].origin).toBe('simulation');
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${b1!.pkh}/counter`)).body).toBe('0');
    const forged = await h.post('/chains/main/blocks/head/helpers/forge/operations', op);
    expect(forged.body).toMatch(/^[0-9a-f]+$/);
  });
});
