import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, resourceRoute } from '../../app/testing/mock-fetch';
import { parseOriginationResult, simulateOrigination } from './simulate-origination';

afterEach(() => vi.unstubAllGlobals());

const constants = { costPerByte: 250, originationSize: 257 };

describe('origination simulation', () => {
  it('reads gas, storage and the burn (paid bytes plus the origination size) of an applied run', () => {
    const body = {
      contents: [
        {
          kind: 'origination',
          gas_limit: '1040000',
          storage_limit: '60000',
          metadata: {
            operation_result: {
              status: 'applied',
              consumed_milligas: '578254',
              storage_size: '41',
              paid_storage_size_diff: '41',
              originated_contracts: ['KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn'],
            },
          },
        },
      ],
    };
    expect(parseOriginationResult(body, constants)).toEqual({
      status: 'applied',
      consumedGas: 578.254,
      gasLimit: 1_040_000,
      storageLimit: 60_000,
      storageSize: 41,
      paidStorageSizeDiff: 41,
      burned: (41 + 257) * 250,
      originated: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
      errors: [],
    });
  });

  it('keeps the error ids of a failed run and burns nothing', () => {
    const body = {
      contents: [
        {
          metadata: {
            operation_result: {
              status: 'failed',
              errors: [{ id: 'proto.michelson_v1.ill_typed_data', with: { int: '1' } }, 'junk'],
            },
          },
        },
      ],
    };
    const r = parseOriginationResult(body, constants);
    expect(r.status).toBe('failed');
    expect(r.burned).toBe(0);
    expect(r.errors).toEqual(['proto.michelson_v1.ill_typed_data: {"int":"1"}']);
    expect(parseOriginationResult(null, constants).status).toBe('unknown');
  });

  it("runs at a link's level: that block's header, counter, constants and simulate_operation; says where and when", async () => {
    const network = 'sandboxnet';
    const source = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
    const answer = {
      contents: [
        {
          kind: 'origination',
          gas_limit: '1040000',
          storage_limit: '60000',
          metadata: {
            operation_result: { status: 'applied', consumed_milligas: '1000', storage_size: '41' },
          },
        },
      ],
    };
    const mock = mockFetch([
      resourceRoute(
        'headHeader',
        { network, block: 40 },
        { hash: 'BLxAt40', level: 40, timestamp: '2026-11-27T03:00:00Z' },
      ),
      resourceRoute(
        'headHeader',
        { network },
        { hash: 'BLxHead', level: 52, timestamp: '2026-11-27T03:06:00Z' },
      ),
      resourceRoute('chainId', { network }, 'NetXdQprcVkpaWU'),
      resourceRoute('counter', { network, address: source, block: 40 }, '7'),
      resourceRoute(
        'networkConstants',
        { network, block: 40 },
        { cost_per_byte: '250', origination_size: 257 },
      ),
      resourceRoute('simulateOperation', { network, block: 40 }, answer),
    ]);
    const code = [{ prim: 'parameter', args: [{ prim: 'unit' }] }];
    const r = await simulateOrigination({
      network,
      source,
      code,
      storage: { int: '1' },
      balance: '0',
      level: 40,
    });
    expect(r.status).toBe('applied');
    expect(r.at).toEqual({ level: 40, head_level: 52, changed_since: false });
    expect(r.time).toBe('2026-11-27T03:00:00Z');
    const [sim] = mock.callsTo(
      `POST /rpc/${network}/chains/main/blocks/40/helpers/scripts/simulate_operation`,
    );
    const op = (sim?.body as { operation: { branch: string; contents: { counter: string }[] } }).operation;
    expect(op.branch).toBe('BLxAt40');
    expect(op.contents[0]!.counter).toBe('8');

    // at the head: the head's header says both
    mockFetch([
      resourceRoute(
        'headHeader',
        { network },
        { hash: 'BLxHead', level: 52, timestamp: '2026-11-27T03:06:00Z' },
      ),
      resourceRoute('chainId', { network }, 'NetXdQprcVkpaWU'),
      resourceRoute('counter', { network, address: source }, '9'),
      resourceRoute('networkConstants', { network, block: 'head' }, {}),
      resourceRoute('simulateOperation', { network }, answer),
    ]);
    const h = await simulateOrigination({ network, source, code, storage: { int: '1' }, balance: '0' });
    expect(h.at).toEqual({ level: 52, head_level: 52, changed_since: false });
    expect(h.time).toBe('2026-11-27T03:06:00Z');
  });
});
