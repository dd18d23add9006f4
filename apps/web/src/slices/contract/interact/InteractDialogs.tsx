import { useMemo, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { parseMiguelList } from '../../../api/contract-parse';
import type { SimulatedOperation } from '../../../api/workspace-api';
import { MiguelTree } from '../../../shared/micheline/MiguelTree';
import { CopyButton } from '../../../shared/clipboard/CopyButton';
import { burnCapKeyAllowed, mutezToTez, parseBurnCap, simulationTotals } from './call-logic';

const pre = {
  fontFamily: 'monospace',
  fontSize: 13,
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
  m: 0,
} as const;

/**
 * The interact tab's dialogs: full width up to `width` pixels, titled by `title` (its id labels the
 * dialog), the content, then the actions (`actions` before the Close button).
 */
function FramedDialog(props: {
  open: boolean;
  onClose: () => void;
  titleId: string;
  title: ReactNode;
  width: number;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      aria-labelledby={props.titleId}
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: props.width } } }}
    >
      <DialogTitle id={props.titleId}>{props.title}</DialogTitle>
      <DialogContent>{props.children}</DialogContent>
      <DialogActions>
        {props.actions}
        <Button onClick={props.onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/** A text dialog (Michelson viewer) of width 800. */
export function TextDialog(props: { open: boolean; title: string; text: string; onClose: () => void }) {
  return (
    <FramedDialog
      open={props.open}
      onClose={props.onClose}
      titleId="text-dialog-title"
      title={props.title}
      width={800}
      actions={<CopyButton text={props.text} label="Copy" />}
    >
      <Box component="pre" sx={pre}>
        {props.text}
      </Box>
    </FramedDialog>
  );
}

/** Command line dialog (width 800): the tezos-client instruction with burn cap and dry run. */
export function CommandLineDialog(props: {
  open: boolean;
  onClose: () => void;
  build: (burnCap: string, dryRun: boolean) => string;
}) {
  const [burnCap, setBurnCap] = useState('');
  const [dryRun, setDryRun] = useState(false);
  const parsed = parseBurnCap(burnCap);
  const error = 'error' in parsed ? parsed.error : null;
  const text = error ? '' : props.build('value' in parsed ? parsed.value : '', dryRun);
  return (
    <FramedDialog
      open={props.open}
      onClose={props.onClose}
      titleId="cli-title"
      title="Command line"
      width={800}
      actions={<CopyButton text={text} label="Copy" />}
    >
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', my: 1 }}>
        <TextField
          size="small"
          label="Burn cap"
          value={burnCap}
          error={error !== null}
          helperText={error ?? ' '}
          onKeyDown={(e) => {
            if (!burnCapKeyAllowed(e.key)) e.preventDefault();
          }}
          onChange={(e) => setBurnCap(e.target.value)}
        />
        <FormControlLabel
          control={<Checkbox checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} />}
          label="Dry run"
        />
      </Box>
      <Box component="pre" aria-label="tezos-client instruction" sx={pre}>
        {text}
      </Box>
    </FramedDialog>
  );
}

/** Simulation result (width 1200): each operation with status, gas and burned, then the summed totals. */
export function SimulationDialog(props: {
  open: boolean;
  onClose: () => void;
  ops: SimulatedOperation[];
  network: string;
}) {
  const totals = simulationTotals(props.ops);
  const diff = useMemo(() => parseMiguelList(props.ops[0]?.storage_diff ?? null), [props.ops]);
  return (
    <FramedDialog
      open={props.open}
      onClose={props.onClose}
      titleId="simulation-title"
      title="Simulation result"
      width={1200}
    >
      <Typography variant="body2" sx={{ mb: 1 }}>
        Consumed gas: {totals.gas.toLocaleString('en-US')} · Burned: {mutezToTez(totals.burned)} ꜩ
      </Typography>
      <Table size="small" aria-label="Simulated operations">
        <TableHead>
          <TableRow>
            <TableCell>Kind</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Destination</TableCell>
            <TableCell>Entrypoint</TableCell>
            <TableCell align="right">Gas</TableCell>
            <TableCell align="right">Burned</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.ops.map((op, i) => (
            <TableRow key={i}>
              <TableCell>{op.internal ? `internal ${op.kind}` : op.kind}</TableCell>
              <TableCell>{op.status}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{op.destination ?? ''}</TableCell>
              <TableCell>{op.entrypoint ?? ''}</TableCell>
              <TableCell align="right">{(op.consumed_gas / 1000).toLocaleString('en-US')}</TableCell>
              <TableCell align="right">{op.burned}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {props.ops.some((o) => o.errors.length > 0) ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          <Box component="pre" sx={pre}>
            {JSON.stringify(
              props.ops.flatMap((o) => o.errors),
              null,
              2,
            )}
          </Box>
        </Alert>
      ) : null}
      {diff.length > 0 ? (
        <Box component="section" aria-label="Storage diff" sx={{ mt: 2 }}>
          <Typography variant="overline" component="h3">
            Storage diff
          </Typography>
          <MiguelTree roots={diff} label="Storage diff" network={props.network} diffMode open="changed" />
        </Box>
      ) : null}
    </FramedDialog>
  );
}
