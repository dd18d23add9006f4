import { describe, expect, it } from 'vitest';
import type { Operation } from '../../api/opg-types';
import { storageExhaustion, storageExhaustionText } from './storage-exhaustion';
import { debuggable } from './debug-link';

const KT1 = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';
const TZ1 = 'tz1burnburnburnburnburnburnburjAYjjX';
const op = (o: Partial<Operation>) => ({ kind: 'transaction', status: 'backtracked', ...o }) as Operation;
const exhausted = [{ id: 'proto.024-PtTALLiN.storage_exhausted.operation', kind: 'temporary' }];

describe('storageExhaustion', () => {
  it('limit from the main operation, use = paid growth + 257 bytes per new account, what grew', () => {
    const s = storageExhaustion([
      op({ storage_limit: 100, destination: KT1, paid_storage_size_diff: 284, errors: exhausted }),
      op({ internal: true, destination: TZ1, allocated_destination_contract: true }),
      op({ internal: true, destination: KT1, paid_storage_size_diff: 16 }),
      op({ internal: true, status: 'skipped', destination: KT1, paid_storage_size_diff: 999 }),
    ]);
    expect(s).toEqual({
      limit: 100,
      used: 284 + 16 + 257,
      contracts: [{ address: KT1, paid_storage_size_diff: 300 }],
      allocations: 1,
    });
    expect(storageExhaustionText(s!)).toBe(
      `limit 100 bytes, used 557 bytes · grew: ${KT1} (+300 bytes) · 1 new contract(s) or account(s), 257 bytes each`,
    );
  });

  it('null for a call that did not run out of storage', () => {
    expect(storageExhaustion([op({ status: 'applied', storage_limit: 10, paid_storage_size_diff: 5 })])).toBe(
      null,
    );
    expect(
      storageExhaustion([
        op({ status: 'failed', errors: [{ id: 'proto.x.gas_exhausted.operation', kind: 'temporary' }] }),
      ]),
    ).toBe(null);
  });
});

describe('debuggable', () => {
  const call = (o: Partial<Operation>) => op({ id: 7, destination: KT1, ...o });
  it('a backtracked call ran (then its storage check or its group failed): it is debugged, internal ones too; a skipped one is not', () => {
    expect(debuggable(call({ status: 'backtracked', errors: exhausted }))).toBe(true);
    expect(debuggable(call({ status: 'backtracked' }))).toBe(true);
    expect(debuggable(call({ status: 'backtracked', internal: true }))).toBe(true);
    expect(debuggable(call({ status: 'skipped' }))).toBe(false);
    expect(debuggable(call({ status: 'applied' }))).toBe(true);
    expect(debuggable(call({ status: 'failed', destination: TZ1 }))).toBe(false);
  });
});
