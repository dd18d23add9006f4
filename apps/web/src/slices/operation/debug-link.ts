/**
 * A debugger link of an operation group page (issue 20, capability 6): `#debug={operation id}.{step}.{tab}`
 * reopens the debugger of that operation (a call of the group, replayed at its level) at that step and tab. An
 * indexed operation is its own input, so the link carries no state: only where the debugger stood.
 */
import type { Operation } from '../../api/opg-types';
import type { DebugAt } from '../debugger/debug-target';

/** The largest step a link names (api-types SharedDebugPosition's bound). */
const STEP_MAX = 100_000_000;

export interface OperationDebugLink extends DebugAt {
  /** the operation's row id (Operation.id) */
  id: number;
}

/** The fragment (with its `#`) of a debugger position in an operation. */
export const debugFragment = (l: OperationDebugLink): string => `#debug=${l.id}.${l.step}.${l.tab}`;

/** Reads a page's fragment: null when it names no debugger, an error when it names one badly. */
export function readDebugFragment(hash: string): OperationDebugLink | { error: string } | null {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!h.startsWith('debug=')) return null;
  const m = /^debug=(\d{1,15})\.(\d{1,9})\.(step|profile)$/.exec(h);
  if (!m)
    return { error: 'the debugger position is damaged (expected #debug={operation}.{step}.{step|profile})' };
  const step = Number(m[2]);
  if (step > STEP_MAX) return { error: `the step is over ${STEP_MAX}` };
  return { id: Number(m[1]), step, tab: m[3] as DebugAt['tab'] };
}

/**
 * A contract call that ran (applied, failed, or backtracked: it ran, then it passed its storage limit or its group
 * failed after it, top-level or internal) and has a row id: the debugger replays it. A skipped one never ran.
 */
export const debuggable = (op: Operation) =>
  !!op.id &&
  op.kind === 'transaction' &&
  !!op.destination?.startsWith('KT1') &&
  (op.status === 'applied' || op.status === 'failed' || op.status === 'backtracked');
