import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { formatNumber } from '../format/format';
import { streamExport, type ExportFormat, type ExportRequest } from './export-stream';

type State =
  | { phase: 'idle' }
  | { phase: 'running'; rows: number }
  | { phase: 'done'; rows: number }
  | { phase: 'cancelled'; rows: number }
  | { phase: 'error'; message: string };

/** "1,234 rows" or "1,234 of 5,000 rows" when the total is known. */
export function progressText(rows: number, total: number | undefined): string {
  return total !== undefined && total >= rows
    ? `${formatNumber(rows)} of ${formatNumber(total)} rows`
    : `${formatNumber(rows)} rows`;
}

/** The status line (a live region that is always there, empty when there is nothing to say). */
function statusText(state: State, total: number | undefined): string {
  switch (state.phase) {
    case 'running':
      return `Exporting… ${progressText(state.rows, total)}`;
    case 'done':
      return `Exported ${formatNumber(state.rows)} rows`;
    case 'cancelled':
      return `Export cancelled after ${formatNumber(state.rows)} rows`;
    default:
      return '';
  }
}

/** Saves a Blob as a file (a temporary object URL on a download link). */
function save(blob: Blob, name: string) {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * 'Export' (CSV / JSON menu) of a table, the one export control of the app: the API streams the rows; the
 * page shows how many have arrived (of the total when the list knows it), can cancel, and saves the file when
 * the last one is in. `request` gives the export's request (the list's filters) for a format (api/resources
 * EXPORTS); `what` names the rows ("operations", "keys").
 */
export function ExportButton({
  request,
  what,
  total,
}: {
  request: (format: ExportFormat) => ExportRequest;
  what: string;
  total?: number | undefined;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [state, setState] = useState<State>({ phase: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const exportRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const running = state.phase === 'running';
  const wasRunning = useRef(false);

  // keyboard: the focus goes to Cancel while the export runs, back to Export when it ends
  useEffect(() => {
    if (running) cancelRef.current?.focus();
    else if (wasRunning.current) exportRef.current?.focus();
    wasRunning.current = running;
  }, [running]);
  // leaving the page stops the download
  useEffect(() => () => abort.current?.abort(), []);

  const start = (format: ExportFormat) => {
    setAnchor(null);
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    let last = 0;
    setState({ phase: 'running', rows: 0 });
    streamExport(
      request(format),
      format,
      (rows) => {
        last = rows;
        setState({ phase: 'running', rows });
      },
      ctl.signal,
    ).then(
      ({ blob, name, rows }) => {
        save(blob, name);
        setState({ phase: 'done', rows });
      },
      (e: unknown) => {
        if (ctl.signal.aborted) setState({ phase: 'cancelled', rows: last });
        else setState({ phase: 'error', message: e instanceof Error ? e.message : String(e) });
      },
    );
  };

  const determinate = running && total !== undefined && total > 0 && total >= state.rows;
  return (
    <Stack sx={{ gap: 0.5, minWidth: 0 }}>
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Button
          ref={exportRef}
          variant="outlined"
          size="small"
          startIcon={<FileDownloadIcon />}
          onClick={(e) => setAnchor(e.currentTarget)}
          disabled={running}
          aria-haspopup="menu"
          aria-expanded={anchor !== null}
          aria-label={`Export ${what}`}
        >
          Export
        </Button>
        {running ? (
          <Button ref={cancelRef} size="small" onClick={() => abort.current?.abort()}>
            Cancel export
          </Button>
        ) : null}
        <Typography role="status" aria-label={`Export progress of ${what}`} variant="caption">
          {statusText(state, total)}
        </Typography>
      </Stack>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => start('csv')}>{`Export ${what} as CSV`}</MenuItem>
        <MenuItem onClick={() => start('json')}>{`Export ${what} as JSON`}</MenuItem>
      </Menu>
      {running ? (
        <LinearProgress
          aria-label={`Exporting ${what}`}
          {...(determinate
            ? { variant: 'determinate' as const, value: Math.min(100, (100 * state.rows) / total) }
            : {})}
        />
      ) : null}
      {state.phase === 'error' ? <Alert severity="error">{state.message}</Alert> : null}
    </Stack>
  );
}
