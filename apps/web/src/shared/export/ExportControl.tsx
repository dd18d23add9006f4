import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { formatNumber } from '../format/format';
import { ExportShell, ExportTrigger, progressText, type ExportButtonProps } from './export-parts';
import { streamExport, type ExportFormat } from './export-stream';
import { saveBlob } from '../download/save-file';

type State =
  | { phase: 'idle' }
  | { phase: 'running'; rows: number }
  | { phase: 'done'; rows: number }
  | { phase: 'cancelled'; rows: number }
  | { phase: 'error'; message: string };

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

/**
 * ExportButton once its trigger has been clicked (loaded then): the CSV / JSON menu, open from the start,
 * the stream with its progress, Cancel and the file.
 */
export default function ExportControl({ request, what, total }: ExportButtonProps) {
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
  // mounted by the trigger's first click: the menu opens at once, the focus on its button (the one clicked)
  useEffect(() => {
    exportRef.current?.focus();
    setAnchor(exportRef.current);
  }, []);
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
        saveBlob(blob, name);
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
    <ExportShell
      what={what}
      status={statusText(state, total)}
      trigger={
        <ExportTrigger
          ref={exportRef}
          what={what}
          open={anchor !== null}
          disabled={running}
          onClick={(e) => setAnchor(e.currentTarget)}
        />
      }
      cancel={
        running ? (
          <Button ref={cancelRef} size="small" onClick={() => abort.current?.abort()}>
            Cancel export
          </Button>
        ) : null
      }
    >
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
    </ExportShell>
  );
}
