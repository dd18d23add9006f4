import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { CopyButton } from '../../../shared/clipboard/CopyButton';
import { burnCapKeyAllowed, parseBurnCap } from './call-logic';

const pre = {
  fontFamily: 'monospace',
  fontSize: 13,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  m: 0,
} as const;

/**
 * The interact tab's dialogs: full width up to `width` pixels, titled by `title` (its id labels the
 * dialog), the content, then the actions (`actions` before the Close button).
 */
export function FramedDialog(props: {
  open: boolean;
  onClose: () => void;
  titleId: string;
  title: ReactNode;
  width: number;
  actions?: ReactNode;
  children: ReactNode;
}) {
  // on a phone the dialog takes the whole screen: its tables and trees need every pixel of width
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      aria-labelledby={props.titleId}
      fullWidth
      fullScreen={phone}
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
          // leading zeros are stripped as they are typed ('007.5' shows '7.5')
          onChange={(e) => setBurnCap(e.target.value.replace(/^0+(?=\d)/, ''))}
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
