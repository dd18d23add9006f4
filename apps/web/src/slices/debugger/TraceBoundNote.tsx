/** Where a debugger trace stops: a recording cut at its budget, or past the steps the debugger records. */
import Alert from '@mui/material/Alert';
import type { DebugResult } from '@michelscope/api-types';

/**
 * Where the trace stops: a recording cut at its budget (issue 34: the answer's `cut` message), else a trace
 * past the steps the debugger records.
 */
export function TraceBoundNote(props: { cut: DebugResult['cut']; truncated: boolean; steps: number }) {
  if (props.cut)
    return (
      <Alert severity="warning" sx={{ mb: 1 }} data-testid="debugger-cut">
        {props.cut.message}
      </Alert>
    );
  if (!props.truncated) return null;
  return (
    <Alert severity="warning" sx={{ mb: 1 }}>
      The call ran more steps than the debugger records; the trace stops at step{' '}
      {props.steps.toLocaleString('en-US')}.
    </Alert>
  );
}
