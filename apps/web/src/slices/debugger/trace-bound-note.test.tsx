// @vitest-environment jsdom
/** The note above the debugger's trace: a recording cut at its budget (issue 34), or a trace past the step bound. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TraceBoundNote } from './TraceBoundNote';

afterEach(cleanup);

describe('TraceBoundNote', () => {
  it("shows the answer's message when the recording was cut", () => {
    const message =
      "The debugger stopped recording after 3,000,000 steps (2.0 s), its budget for one call: the trace shows those steps; the result and the gas are the whole call's, run without recording.";
    render(<TraceBoundNote cut={{ steps: 3_000_000, ms: 2000, message }} truncated steps={250_000} />);
    expect(screen.getByTestId('debugger-cut').textContent).toBe(message);
    expect(screen.getByRole('alert').textContent).not.toMatch(/more steps than the debugger records/);
  });

  it('says where a truncated trace stops, and nothing for a whole trace', () => {
    const { container } = render(<TraceBoundNote cut={undefined} truncated steps={250_000} />);
    expect(screen.getByRole('alert').textContent).toMatch(/stops at step 250,000/);
    cleanup();
    const whole = render(<TraceBoundNote cut={undefined} truncated={false} steps={12} />);
    expect(whole.container.textContent).toBe('');
    expect(container).toBeDefined();
  });
});
