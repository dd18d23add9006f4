import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatNumber } from '../format/format';
import { streamExport, type ExportFormat } from './export-stream';

/**
 * 'Export' (CSV / JSON) of a table: the API streams the rows; the page shows how many have arrived, can cancel,
 * and saves the file when the last one is in.
 */
export function ExportButton({ url, what }: { url: (format: ExportFormat) => string; what: string }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [state, setState] = useState<
    | { phase: 'idle' }
    | { phase: 'running'; rows: number }
    | { phase: 'done'; rows: number }
    | { phase: 'error'; message: string }
  >({ phase: 'idle' });
  const abort = useRef<AbortController | null>(null);

  const start = (format: ExportFormat) => {
    setAnchor(null);
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    setState({ phase: 'running', rows: 0 });
    streamExport(url(format), format, (rows) => setState({ phase: 'running', rows }), ctl.signal).then(
      ({ blob, name, rows }) => {
        const href = URL.createObjectURL(blob);
        const a = document.createElement('a');
        a.href = href;
        a.download = name;
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(href), 10_000);
        setState({ phase: 'done', rows });
      },
      (e: unknown) => {
        if (ctl.signal.aborted) setState({ phase: 'idle' });
        else setState({ phase: 'error', message: e instanceof Error ? e.message : String(e) });
      },
    );
  };

  return (
    <Stack sx={{ gap: 0.5, minWidth: 0 }}>
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center' }}>
        <Button
          variant="outlined"
          onClick={(e) => setAnchor(e.currentTarget)}
          disabled={state.phase === 'running'}
          aria-haspopup="menu"
        >
          Export
        </Button>
        {state.phase === 'running' ? (
          <Button size="small" onClick={() => abort.current?.abort()}>
            Cancel
          </Button>
        ) : null}
      </Stack>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => start('csv')}>{`Export ${what} as CSV`}</MenuItem>
        <MenuItem onClick={() => start('json')}>{`Export ${what} as JSON`}</MenuItem>
      </Menu>
      {state.phase === 'running' ? (
        <Stack role="status" aria-label="Export progress" sx={{ gap: 0.5 }}>
          <LinearProgress aria-label="Exporting" />
          <Typography variant="caption">Exporting… {formatNumber(state.rows)} rows</Typography>
        </Stack>
      ) : state.phase === 'done' ? (
        <Typography role="status" aria-label="Export progress" variant="caption">
          Exported {formatNumber(state.rows)} rows
        </Typography>
      ) : state.phase === 'error' ? (
        <Alert severity="error">{state.message}</Alert>
      ) : null}
    </Stack>
  );
}
