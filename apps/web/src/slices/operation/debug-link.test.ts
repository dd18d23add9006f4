import { describe, expect, it } from 'vitest';
import { debugFragment, readDebugFragment } from './debug-link';

describe('operation debugger links', () => {
  it('round-trips a debugger position through the fragment', () => {
    const at = { id: 4021, step: 17, tab: 'profile' as const };
    expect(debugFragment(at)).toBe('#debug=4021.17.profile');
    expect(readDebugFragment(debugFragment(at))).toEqual(at);
    expect(readDebugFragment('debug=1.0.step')).toEqual({ id: 1, step: 0, tab: 'step' });
  });

  it('reads nothing from other fragments, and says why a damaged one cannot be opened', () => {
    expect(readDebugFragment('')).toBeNull();
    expect(readDebugFragment('#s=abc')).toBeNull();
    for (const bad of [
      '#debug=',
      '#debug=1.2',
      '#debug=1.2.flame',
      '#debug=-1.2.step',
      '#debug=1.2.step.extra',
      '#debug=1e3.2.step',
      `#debug=${'9'.repeat(16)}.1.step`,
      '#debug=1.<script>.step',
    ])
      expect(readDebugFragment(bad), bad).toEqual({ error: expect.stringMatching(/damaged/) as string });
    expect(readDebugFragment('#debug=1.999999999.step')).toEqual({ error: 'the step is over 100000000' });
  });
});
