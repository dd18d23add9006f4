/**
 * The gas profile of one recorded call (issue 20, capability 4): the gas of every step, aggregated per source
 * line and per code block (the `code` section or a view, each branch of IF…, the body of a loop, DIP or
 * LAMBDA), plus what the call costs outside its instructions (parsing the script and its inputs, what follows
 * the last instruction, the fixed cost of the operation), so that the total equals the node's consumed gas.
 * Pure: it runs in the debug worker with the recording.
 */
import type { Micheline, NodeSpan } from '@michelscope/michelson';

export interface ProfileLine {
  /** 0-based row in the formatted code */
  row: number;
  milligas: number;
  steps: number;
}

export interface ProfileFrame {
  /** index of the enclosing frame in `frames` (-1 for the root: the whole operation) */
  parent: number;
  label: string;
  kind: 'operation' | 'overhead' | 'section' | 'block';
  /** the block instruction (or section) location, and its 0-based row */
  location?: number;
  row?: number;
  /** gas of the frame and everything in it */
  milligas: number;
  /** gas of the steps directly in the frame (not in a nested block) */
  self_milligas: number;
  steps: number;
}

export interface GasProfile {
  /** what the node's receipt counts: the call's consumed gas plus the fixed cost of the operation */
  total_milligas: number;
  fixed_milligas: number;
  lines: ProfileLine[];
  /** the blocks that ran, parents before children (pre-order) */
  frames: ProfileFrame[];
}

const BRANCHES: Record<string, [string, string]> = {
  IF: ['then', 'else'],
  IF_LEFT: ['left', 'right'],
  IF_NONE: ['none', 'some'],
  IF_CONS: ['cons', 'nil'],
};

interface StaticFrame {
  parent: number;
  label: string;
  kind: ProfileFrame['kind'];
  location?: number;
  /** the parameter type this branch receives, when it is an entrypoint dispatch */
  orType?: Micheline | undefined;
}

const annotOf = (t: Micheline | undefined): string | undefined => {
  if (!t || Array.isArray(t) || !('prim' in t)) return undefined;
  return t.annots?.find((a) => a.startsWith('%'));
};
const isOr = (t: Micheline | undefined): t is Micheline & { prim: 'or'; args: Micheline[] } =>
  !!t && !Array.isArray(t) && 'prim' in t && t.prim === 'or' && (t.args?.length ?? 0) === 2;

/**
 * Each location's frame (index into the returned frames). Frames: 0 the operation, 1 the code section, then
 * views and blocks. An IF_LEFT at the top of `code`, or at the top of a branch of such an IF_LEFT, dispatches
 * the parameter: its branches are named after the parameter's `or` fields (the entrypoints).
 */
function staticFrames(script: Micheline[]): { frames: StaticFrame[]; frameOf: Map<number, number> } {
  const frames: StaticFrame[] = [{ parent: -1, label: 'operation', kind: 'operation' }];
  const frameOf = new Map<number, number>();
  const parameter = script.find((s) => !Array.isArray(s) && 'prim' in s && s.prim === 'parameter') as
    { args?: Micheline[] } | undefined;
  let next = 0;
  const walk = (e: Micheline, frame: number, top: boolean): void => {
    const here = next++;
    frameOf.set(here, frame);
    if (Array.isArray(e)) {
      for (const x of e) walk(x, frame, top);
      return;
    }
    if (!('prim' in e)) return;
    const args = e.args ?? [];
    if (frame === -1) {
      // a section of the script
      if (e.prim === 'code') {
        const f = frames.push({
          parent: 0,
          label: 'code',
          kind: 'section',
          location: here,
          orType: parameter?.args?.[0],
        });
        for (const a of args) walk(a, f - 1, true);
      } else if (e.prim === 'view') {
        const name = args[0] && !Array.isArray(args[0]) && 'string' in args[0] ? args[0].string : '?';
        const f = frames.push({ parent: 0, label: `view "${name}"`, kind: 'section', location: here });
        for (const a of args) walk(a, f - 1, false);
      } else for (const a of args) walk(a, -1, false);
      return;
    }
    const isBlock = /^[A-Z]/.test(e.prim) && args.some((a) => Array.isArray(a));
    if (!isBlock) {
      for (const a of args) walk(a, frame, false);
      return;
    }
    const seqs = args.filter((a) => Array.isArray(a)).length;
    // the first IF_LEFT at the top of a dispatching frame dispatches (once)
    const dispatch = e.prim === 'IF_LEFT' && top ? frames[frame]?.orType : undefined;
    if (dispatch !== undefined) frames[frame]!.orType = undefined;
    let k = 0;
    for (const a of args) {
      if (!Array.isArray(a)) {
        walk(a, frame, false);
        continue;
      }
      const branch = seqs === 2 ? (BRANCHES[e.prim]?.[k] ?? `#${k + 1}`) : 'body';
      const orType = isOr(dispatch) ? dispatch.args[k] : undefined;
      const entry = annotOf(orType);
      const f = frames.push({
        parent: frame,
        label: entry ? `${entry} (${e.prim} ${branch})` : `${e.prim} ${branch}`,
        kind: 'block',
        location: here,
        orType,
      });
      k++;
      walk(a, f - 1, true);
    }
  };
  walk(script, -1, false);
  return { frames, frameOf };
}

/** Every step's gas, summed per instruction location as the run goes (all steps, past the recording bound too). */
export class LocationGas {
  readonly byLocation = new Map<number, { milligas: number; steps: number }>();
  /** gas left before the first step and after the last */
  gasStart: number | undefined;
  gasEnd: number | undefined;

  /** A step's gas is what it took off the gas left after the previous step (as the trace's figures read). */
  add(location: number, gasBefore: number, gasLeft: number): void {
    this.gasStart ??= gasBefore;
    const before = this.gasEnd ?? this.gasStart;
    this.gasEnd = gasLeft;
    let g = this.byLocation.get(location);
    if (!g) this.byLocation.set(location, (g = { milligas: 0, steps: 0 }));
    g.milligas += before - gasLeft;
    g.steps++;
  }
}

/**
 * The profile of a recording. `failure`: a failed run, whose failing instruction gets the gas after the
 * last recorded step; `fixed`: the operation's fixed cost in milligas (what the receipt adds to the script's).
 */
export function gasProfile(
  script: Micheline[],
  run: LocationGas,
  spanOf: (location: number) => NodeSpan | undefined,
  consumed: number,
  gasLimit: number,
  fixed: number,
  failure?: { location?: number | undefined },
): GasProfile {
  const { frames: st, frameOf } = staticFrames(script);
  const self = new Array<number>(st.length).fill(0);
  const steps = new Array<number>(st.length).fill(0);
  const lines = new Map<number, ProfileLine>();
  // steps whose location is not in the script (code of a lambda value, say) go to an extra frame
  let outside = -1;
  const charge = (loc: number | undefined, milligas: number, count: number) => {
    let f = loc === undefined ? undefined : frameOf.get(loc);
    if (f === undefined || f < 1) {
      if (outside < 0) {
        outside = st.push({ parent: 0, label: 'code outside the script', kind: 'section' }) - 1;
        self.push(0);
        steps.push(0);
      }
      f = outside;
    }
    self[f]! += milligas;
    steps[f]! += count;
    const row = loc === undefined ? undefined : spanOf(loc)?.[0];
    if (row !== undefined) {
      let l = lines.get(row);
      if (!l) lines.set(row, (l = { row, milligas: 0, steps: 0 }));
      l.milligas += milligas;
      l.steps += count;
    }
  };
  for (const [loc, g] of run.byLocation) charge(loc, g.milligas, g.steps);
  const before = run.gasEnd ?? gasLimit;
  const parsing = gasLimit - (run.gasStart ?? gasLimit);
  const after = consumed - (gasLimit - before);
  const overheads: ProfileFrame[] = [];
  const overhead = (label: string, milligas: number) =>
    overheads.push({ parent: 0, label, kind: 'overhead', milligas, self_milligas: milligas, steps: 0 });
  if (fixed) overhead('fixed cost of the operation', fixed);
  overhead('parsing the script, storage and parameter', parsing);
  if (failure?.location !== undefined) charge(failure.location, after, 0);
  else if (failure) overhead('the failure', after);
  else overhead('after the code: storage and operations', after);

  // inclusive gas, then keep the frames that ran (pre-order: parents come first)
  const total = self.slice();
  for (let i = st.length - 1; i > 0; i--) total[st[i]!.parent]! += total[i]!;
  const allSteps = steps.slice();
  for (let i = st.length - 1; i > 0; i--) allSteps[st[i]!.parent]! += allSteps[i]!;
  const index = new Map<number, number>();
  const frames: ProfileFrame[] = [];
  const totalMilligas = consumed + fixed;
  frames.push({
    parent: -1,
    label: 'operation',
    kind: 'operation',
    milligas: totalMilligas,
    self_milligas: 0,
    steps: allSteps[0]!,
  });
  index.set(0, 0);
  frames.push(...overheads);
  for (let i = 1; i < st.length; i++) {
    const s = st[i]!;
    if (allSteps[i] === 0 && total[i] === 0) continue;
    const parent = index.get(s.parent);
    if (parent === undefined) continue;
    index.set(i, frames.length);
    const row = s.location === undefined ? undefined : spanOf(s.location)?.[0];
    frames.push({
      parent,
      label: s.label,
      kind: s.kind,
      ...(s.location !== undefined ? { location: s.location } : {}),
      ...(row !== undefined ? { row } : {}),
      milligas: total[i]!,
      self_milligas: self[i]!,
      steps: allSteps[i]!,
    });
  }
  return {
    total_milligas: totalMilligas,
    fixed_milligas: fixed,
    lines: [...lines.values()].sort((a, b) => a.row - b.row),
    frames,
  };
}
