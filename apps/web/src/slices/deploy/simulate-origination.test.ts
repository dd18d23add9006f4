import { describe, expect, it } from 'vitest';
import { parseOriginationResult } from './simulate-origination';

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
});
