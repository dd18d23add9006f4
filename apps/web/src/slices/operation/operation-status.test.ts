import { describe, expect, it } from 'vitest';
import type { Operation } from '@michelscope/api-types';
import {
  canRepeat,
  gasPercent,
  headerStyle,
  needsLazyDiff,
  repeatUrl,
  statusColour,
  visibleErrors,
} from './operation-status';

const op = (fields: Partial<Operation>): Operation => ({
  content_index: 0,
  ticket_updates_count: 0,
  big_map_diffs_count: 0,
  timestamp: '2024-01-01T00:00:00Z',
  protocol: 'PtParisBxoLz5gzMmn3d9WBQNoPSZakgnkMC2VNuQ3KXfUtUQeZ',
  internal: false,
  id: 67,
  hash: 'ootets92MnoSsoYDuGTwDjdHfEvcRA688Qhj6iRVXRYoMmmG559',
  counter: 540,
  network: 'mainnet',
  kind: 'transaction',
  status: 'applied',
  destination: 'KT18sWFGnjvobw9BiHrm9bjpWr3AFAAVas9w',
  entrypoint: 'transfer',
  ...fields,
});

describe('operation statuses', () => {
  it('colours statuses as the spec says', () => {
    expect(
      ['applied', 'backtracked', 'failed', 'pending', 'lost', 'refused', 'branch_refused', 'weird'].map(
        statusColour,
      ),
    ).toEqual(['success', 'warning', 'error', 'secondary', 'grey', 'error', 'error', 'grey']);
  });

  it('maps header styles', () => {
    expect(
      ['applied', 'skipped', 'backtracked', 'pending', 'lost', 'failed', 'refused'].map(headerStyle),
    ).toEqual(['applied', 'backtracked', 'backtracked', 'mempool', 'mempool', 'failed', 'failed']);
  });
});

describe('repeating an operation', () => {
  it('is offered only for applied, hashed, non-mempool calls with an entrypoint', () => {
    expect(canRepeat(op({}))).toBe(true);
    expect(canRepeat(op({ status: 'failed' }))).toBe(false);
    expect(canRepeat(op({ mempool: true }))).toBe(false);
    expect(canRepeat(op({ hash: '' }))).toBe(false);
    expect(canRepeat(op({ entrypoint: undefined }))).toBe(false);
    expect(canRepeat(op({ destination: undefined }))).toBe(false);
  });

  it('builds the interact URL with hash and counter', () => {
    expect(repeatUrl(op({}))).toBe(
      '/mainnet/KT18sWFGnjvobw9BiHrm9bjpWr3AFAAVas9w/interact/transfer?hash=ootets92MnoSsoYDuGTwDjdHfEvcRA688Qhj6iRVXRYoMmmG559&counter=540',
    );
  });
});

describe('operation details', () => {
  it('loads the diff lazily only for applied operations with an id and no inline diff', () => {
    expect(needsLazyDiff(op({}))).toBe(true);
    expect(needsLazyDiff(op({ status: 'backtracked' }))).toBe(false);
    expect(needsLazyDiff(op({ id: undefined }))).toBe(false);
    expect(needsLazyDiff(op({ storage_diff: { prim: 'nat', type: 'nat', name: 'x', value: '1' } }))).toBe(
      false,
    );
  });

  it('hides runtime_error errors', () => {
    const errors = visibleErrors(
      op({
        errors: [
          { id: 'proto.018-Proxford.michelson_v1.runtime_error', kind: 'temporary' },
          { id: 'proto.018-Proxford.michelson_v1.script_rejected', kind: 'temporary' },
        ],
      }),
    );
    expect(errors.map((e) => e.id)).toEqual(['proto.018-Proxford.michelson_v1.script_rejected']);
  });

  it('shows consumed milligas as a percentage of the gas limit', () => {
    expect(gasPercent({ consumed_gas: 2_054_659, gas_limit: 2155 })).toBe(95);
    expect(gasPercent({ consumed_gas: 1000, gas_limit: 0 })).toBeNull();
  });
});
