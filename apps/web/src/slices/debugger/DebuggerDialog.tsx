/**
 * The Michelson debugger (issue 20): one recorded call (POST …/entrypoints/debug), stepped through with the
 * instruction highlighted in the script, the stack after the step (typed, decoded, changed items marked), the
 * gas left and the gas of the step; controls and their keys; the call's internal operations, each debuggable in
 * turn; a failed call says why. Code and stack are virtualised: a 100,000-step trace opens and steps at once.
 * A run pinned to a level (a share link rerun as it was) says which level, as its result does (SimulatedAt).
 * A verified contract's source map puts its source line next to the instruction (issue 38).
 * Loaded lazily (its own chunk) from the simulation result.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { debugQuery, type DebugAt, type DebugTarget } from './debug-target';
import { contractSourceQuery } from '../../api/verify-api';
import { FramedDialog } from '../contract/interact/InteractDialogs';
import { DebugView } from './DebugView';

export type { DebugTarget } from './debug-target';

export default function DebuggerDialog(props: {
  open: boolean;
  onClose: () => void;
  target: DebugTarget;
  /** where to open (a share link's position) */
  initial?: DebugAt | undefined;
  /** the share link of the simulation at a position ('Copy link'; the called contract only) */
  copyLink?: ((at: DebugAt) => Promise<string>) | undefined;
}) {
  // internal operations are debugged in turn: the calls opened, the first being the simulated one
  const [path, setPath] = useState<DebugTarget[]>([props.target]);
  const target = path[path.length - 1]!;
  const q = useQuery(debugQuery(target));
  // the contract's verified source, for the source line of each step (issue 38): one request (404: null), not
  // for an undeployed script
  const source = useQuery({
    ...contractSourceQuery(target.network, target.address),
    enabled: !target.script && target.address.startsWith('KT1'),
  });
  return (
    <FramedDialog
      open={props.open}
      onClose={props.onClose}
      titleId="debugger-title"
      title={`Debugger · ${target.view ? `view ${target.request.name}` : target.request.name}`}
      width={1440}
    >
      {path.length > 1 ? (
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
          <Button size="small" onClick={() => setPath(path.slice(0, -1))}>
            Back to the caller
          </Button>
          <Typography variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
            internal call of {target.address}
          </Typography>
        </Stack>
      ) : null}
      {q.isPending ? (
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center' }}>
          <CircularProgress size={18} aria-label="Recording the call" />
          <Typography>Recording the call…</Typography>
        </Stack>
      ) : q.isError ? (
        <Alert severity="error">{q.error.message}</Alert>
      ) : (
        <DebugView
          key={JSON.stringify(target)}
          d={q.data}
          network={target.network}
          source={source.data}
          onDebugInternal={(t) => setPath([...path, t])}
          {...(path.length === 1 ? { initial: props.initial, copyLink: props.copyLink } : {})}
        />
      )}
    </FramedDialog>
  );
}
