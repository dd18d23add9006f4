/**
 * The debugger's compact trace of one contract call (issue 20): every step of Octez's `trace_code` (location,
 * stack after the step, gas left), stored as per-step diffs of the stack against the previous step plus a
 * full checkpoint every {@link CHECKPOINT_EVERY} steps, with each distinct stack item written once. The server
 * records it (packages/api/src/debug); the web and the tests rebuild any step's stack from it.
 */
import type { Micheline } from './micheline-core';

/** A full stack is stored every this many steps, so that rebuilding any step applies at most as many diffs. */
export const CHECKPOINT_EVERY = 512;

/** One stack item: index of its type in `types`, and its value (Readable Micheline, as trace_code prints it). */
export type TraceItem = [type: number, value: Micheline];

export interface CompactTrace {
  /** Number of recorded steps. */
  steps: number;
  /** Location (pre-order node index in the script) of each step's instruction. */
  loc: number[];
  /** Milligas left after each step. */
  gas: number[];
  /** Milligas left when the first instruction started (after the script and its inputs were parsed). */
  gas_start: number;
  /** Distinct item types and items; stacks refer to items by index. */
  types: Micheline[];
  items: TraceItem[];
  /** Per step: how many items the step removed from the top of the previous stack, then the items it added. */
  pop: number[];
  push: number[][];
  /** Full stacks (item indexes, bottom first) after steps 0, CHECKPOINT_EVERY, 2·CHECKPOINT_EVERY, … */
  checkpoints: number[][];
  /** Items whose value was larger than the size bound are recorded as `{"prim":"…"}` and listed here. */
  elided: number[];
  /** The run went on past the step bound: steps after `steps` were not recorded. */
  truncated: boolean;
}

/** The stack after step `n` (0-based), as item indexes, bottom first. */
export function stackAt(t: CompactTrace, n: number): number[] {
  if (t.steps === 0 || n < 0) return [];
  const step = Math.min(n, t.steps - 1);
  const k = Math.floor(step / CHECKPOINT_EVERY);
  const stack = [...(t.checkpoints[k] ?? [])];
  for (let i = k * CHECKPOINT_EVERY + 1; i <= step; i++) {
    stack.length -= Math.min(stack.length, t.pop[i] ?? 0);
    for (const id of t.push[i] ?? []) stack.push(id);
  }
  return stack;
}

/** Milligas consumed by step `n` (what the step took off the gas left before it). */
export function gasOfStep(t: CompactTrace, n: number): number {
  const before = n === 0 ? t.gas_start : (t.gas[n - 1] ?? 0);
  return before - (t.gas[n] ?? 0);
}

/** The items of the stack after step `n` that the step added or changed (indexes into the stack, bottom first). */
export function changedAt(t: CompactTrace, n: number): Set<number> {
  const size = stackAt(t, n).length;
  const added = (t.push[n] ?? []).length;
  const out = new Set<number>();
  for (let i = size - added; i < size; i++) out.add(i);
  return out;
}

/** Builds a compact trace step by step: `add` each step's stack (item ids, bottom first) as it comes. */
export class TraceBuilder {
  readonly trace: CompactTrace;
  private prev: readonly number[] = [];

  constructor(gasStart: number) {
    this.trace = {
      steps: 0,
      loc: [],
      gas: [],
      gas_start: gasStart,
      types: [],
      items: [],
      pop: [],
      push: [],
      checkpoints: [],
      elided: [],
      truncated: false,
    };
  }

  add(location: number, gasLeft: number, stack: readonly number[]): void {
    const t = this.trace;
    const n = t.steps++;
    t.loc.push(location);
    t.gas.push(gasLeft);
    let common = 0;
    const max = Math.min(stack.length, this.prev.length);
    while (common < max && stack[common] === this.prev[common]) common++;
    t.pop.push(this.prev.length - common);
    t.push.push(stack.slice(common));
    if (n % CHECKPOINT_EVERY === 0) t.checkpoints.push([...stack]);
    this.prev = stack;
  }
}
