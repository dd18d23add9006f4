import { useEffect, useMemo, useState } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import LinearProgress from '@mui/material/LinearProgress';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { useCopy } from '../clipboard/useCopy';
import { jsonSteps, prettyJson } from './json-steps';

interface Props {
  open: boolean;
  onClose: () => void;
  title: string;
  /** The JSON to show; undefined while it loads. */
  value: unknown;
  loading?: boolean;
  error?: string | null;
}

const STEP_DELAY_MS = 16;

/** Full-screen raw JSON viewer; documents over 10,000 characters are rendered in steps ("Step N of M"). */
export function RawJsonDialog({ open, onClose, title, value, loading = false, error = null }: Props) {
  const copy = useCopy();
  // only while open: a closed dialog (the storage tab keeps two) must not lay out a large document on every render
  const steps = useMemo(() => (!open || value === undefined ? [] : jsonSteps(value)), [open, value]);
  const [shown, setShown] = useState({ steps, count: 1 });
  // A new document starts again at its first step.
  const count = shown.steps === steps ? shown.count : 1;

  useEffect(() => {
    if (!open || count >= steps.length) return;
    const timer = setTimeout(() => setShown({ steps, count: count + 1 }), STEP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [open, steps, count]);

  const titleId = 'raw-json-title';
  return (
    <Dialog fullScreen open={open} onClose={onClose} aria-labelledby={titleId}>
      <AppBar position="sticky" color="default" elevation={0}>
        <Toolbar sx={{ gap: 1 }}>
          <Typography id={titleId} variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            {title}
          </Typography>
          <Button disabled={value === undefined} onClick={() => void copy(prettyJson(value))}>
            Copy
          </Button>
          <Button onClick={onClose} variant="contained">
            Close
          </Button>
        </Toolbar>
      </AppBar>
      {loading ? <LinearProgress aria-label="Loading JSON" /> : null}
      {error ? (
        <Typography role="alert" color="error" sx={{ p: 2 }}>
          {error}
        </Typography>
      ) : null}
      {steps.length > 1 && count < steps.length ? (
        <Typography variant="caption" role="status" sx={{ px: 2, pt: 1 }}>
          Rendering: step {count} of {steps.length}
        </Typography>
      ) : null}
      <Box
        component="pre"
        data-testid="raw-json"
        sx={{
          m: 0,
          p: 2,
          fontFamily: 'monospace',
          fontSize: 13,
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
        }}
      >
        {steps.slice(0, count).join('')}
      </Box>
    </Dialog>
  );
}
