import { describe, expect, it } from 'vitest';
import { TraceBuilder } from '@michelscope/michelson';
import type { DebugResult } from '@michelscope/api-types';
import { failPosition, failedGasText, lastPosition, runToRow, stepOut, stepOver } from './debugger-logic';

/**
 * A recording of `code { DUP ; DIP { DROP ; PUSH nat 1 } ; ADD ; … }` as the server writes it: locations 10
 * (DUP), 11 (DIP, a block of 12..15: DROP 13, PUSH 14), 16 (ADD), 17 (FAILWITH); one row per instruction.
 */
function recording(locs: number[], failed: boolean): DebugResult {
  const b = new TraceBuilder(1000);
  locs.forEach((l, i) => b.add(l, 1000 - (i + 1) * 10, [i]));
  const spans: Record<string, [number, number, number]> = {
    10: [0, 0, 3],
    11: [1, 0, 3],
    13: [2, 0, 4],
    14: [3, 0, 4],
    16: [4, 0, 3],
    17: [5, 0, 8],
  };
  return {
    code: 'DUP\nDIP\nDROP\nPUSH\nADD\nFAILWITH',
    spans,
    blocks: { 11: 15 },
    enclosing: { 13: 11, 14: 11 },
    trace: b.trace,
    profile: { total_milligas: 0, fixed_milligas: 0, lines: [], frames: [] },
    status: failed ? 'failed' : 'applied',
    consumed_milligas: 0,
    gas_limit: 1000,
    operations: [],
    ...(failed ? { failure: { kind: 'script_rejected', message: '', location: 17 } } : {}),
    inputs: {
      self: 'KT1',
      entrypoint: 'default',
      parameter: { prim: 'Unit' },
      storage: { int: '0' },
      amount: '0',
      balance: '0',
      now: '0',
      level: '1',
      chain_id: 'NetXdQprcVkpaWU',
    },
  };
}

describe('debugger navigation', () => {
  const d = recording([10, 11, 13, 14, 16], true);
  it('steps over a block to its last step, and out of it to the first step after it', () => {
    expect(stepOver(d, 0)).toBe(3); // DIP and its DROP, PUSH
    expect(stepOver(d, 3)).toBe(4); // ADD: no block
    expect(stepOut(d, 2)).toBe(4); // from DROP inside DIP to ADD
    expect(stepOut(d, 0)).toBe(lastPosition(d)); // top level: the end
  });
  it('a failed run has its FAILWITH as the last position; run to a row finds the next step on it', () => {
    expect(lastPosition(d)).toBe(5);
    expect(failPosition(d)).toBe(5);
    expect(runToRow(d, 0, 5)).toBe(5);
    expect(runToRow(d, 0, 3)).toBe(3);
    expect(runToRow(d, 3, 3)).toBeUndefined();
    expect(failPosition(recording([10], false))).toBeUndefined();
  });
});

describe('failedGasText', () => {
  it('one phrase for the gas a failed run ran (issue 33)', () => {
    expect(failedGasText('script_rejected', 20_028)).toBe('ran 20.028 gas before FAILWITH');
    expect(failedGasText('gas_exhausted', 1_040_000_000)).toBe('ran 1,040,000 gas before running out of gas');
    expect(failedGasText('overflow', 252_753)).toBe('ran 252.753 gas before it failed');
  });
});
