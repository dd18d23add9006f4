/**
 * Where each debugger control goes in a recorded trace. A position is a step index (the instruction just run,
 * the stack after it, as trace_code lists them); a failed run has one more position, its FAILWITH (or the
 * instruction that failed), whose stack is the last step's.
 */
import type { DebugResult } from '@michelscope/api-types';

export const lastPosition = (d: DebugResult) =>
  Math.max(0, d.trace.steps - 1 + (d.status === 'failed' ? 1 : 0));

/** The instruction location at a position (the failing one past the last step). */
export function locationAt(d: DebugResult, p: number): number | undefined {
  return p < d.trace.steps ? d.trace.loc[p] : d.failure?.location;
}

/** The 0-based code row of a position's instruction. */
export function rowAt(d: DebugResult, p: number): number | undefined {
  const loc = locationAt(d, p);
  return loc === undefined ? undefined : d.spans[loc]?.[0];
}

const inside = (d: DebugResult, loc: number | undefined, block: number) =>
  loc !== undefined && loc > block && loc <= (d.blocks[block] ?? block);

/** Step over: run the next instruction with the whole of its block(s), and stop after it. */
export function stepOver(d: DebugResult, p: number): number {
  const last = lastPosition(d);
  const m = Math.min(p + 1, last);
  const loc = locationAt(d, m);
  if (loc === undefined || d.blocks[loc] === undefined) return m;
  let k = m + 1;
  while (k < d.trace.steps && inside(d, d.trace.loc[k], loc)) k++;
  return Math.min(k - 1, last);
}

/** Step out: finish the block around the current instruction and run the first one after it. */
export function stepOut(d: DebugResult, p: number): number {
  const last = lastPosition(d);
  const loc = locationAt(d, p);
  const block = loc === undefined ? undefined : d.enclosing[loc];
  if (block === undefined) return last;
  let k = p + 1;
  while (k < d.trace.steps && inside(d, d.trace.loc[k], block)) k++;
  return Math.min(k, last);
}

/** Run to a line: the next position whose instruction is on `row`, or undefined when none comes. */
export function runToRow(d: DebugResult, p: number, row: number): number | undefined {
  for (let k = p + 1; k <= lastPosition(d); k++) if (rowAt(d, k) === row) return k;
  return undefined;
}

/** The FAILWITH position of a failed run. */
export const failPosition = (d: DebugResult): number | undefined =>
  d.status === 'failed' ? lastPosition(d) : undefined;

/** Gas units (milligas / 1000), up to three decimals. */
export const gasUnitsText = (milligas: number) =>
  (milligas / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 });

/**
 * The gas of a failed run in one phrase, the same in the simulation result, the debugger and a replay: a failed
 * call's receipt records no gas (the node reports none), so the figure is what the interpreter ran before the
 * failure ('ran 20.028 gas before FAILWITH'), without the operation's fixed cost.
 */
export function failedGasText(kind: string | undefined, milligas: number): string {
  const what =
    kind === 'script_rejected'
      ? 'before FAILWITH'
      : kind === 'gas_exhausted'
        ? 'before running out of gas'
        : 'before it failed';
  return `ran ${gasUnitsText(milligas)} gas ${what}`;
}
