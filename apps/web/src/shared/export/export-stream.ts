/**
 * Streamed exports (issue 21 part 3): reads an export's answer as it arrives, counting rows, and keeps it as
 * a Blob built in parts (the received bytes are handed to the browser's blob store every few megabytes, so
 * the page's own memory stays small whatever the length).
 */
import { ApiError } from '../../api/client';
import { openExport, type ExportFormat, type ExportRequest } from '../../api/export-requests';

export type { ExportFormat, ExportRequest };

/** Bytes gathered before they are moved into the Blob. */
const FLUSH_BYTES = 4 * 1024 * 1024;

/** Data rows in the text seen so far: CSV lines after the header; JSON lines between `[` and `]`. */
export function rowsSoFar(format: ExportFormat, newlines: number, done: boolean): number {
  if (format === 'csv') return Math.max(0, newlines - 1);
  return Math.max(0, done ? newlines - 2 : newlines - 1);
}

/** The file name of a `content-disposition: attachment; filename="…"` header, else `fallback`. */
export function attachmentName(header: string | null, fallback: string): string {
  const m = header ? /filename="([^"]{1,200})"/.exec(header) : null;
  return m ? m[1]!.replace(/[^\w.-]/g, '_') : fallback;
}

/**
 * Downloads an export, reporting the rows received as they arrive; resolves to the file (a Blob) and its
 * name. Aborted by `signal`.
 */
export async function streamExport(
  request: ExportRequest,
  format: ExportFormat,
  onRows: (rows: number) => void,
  signal: AbortSignal,
): Promise<{ blob: Blob; name: string; rows: number }> {
  let res;
  try {
    res = await openExport(request, signal);
  } catch (e) {
    if (e instanceof ApiError) throw new Error(`Export failed: ${e.message}`);
    throw e;
  }
  const type = format === 'csv' ? 'text/csv' : 'application/json';
  const reader = res.body.getReader();
  let blob = new Blob([], { type });
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let newlines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pending.push(value);
    pendingBytes += value.length;
    for (let i = 0; i < value.length; i++) if (value[i] === 10) newlines++;
    if (pendingBytes >= FLUSH_BYTES) {
      blob = new Blob([blob, ...(pending as BlobPart[])], { type });
      pending = [];
      pendingBytes = 0;
    }
    onRows(rowsSoFar(format, newlines, false));
  }
  const rows = rowsSoFar(format, newlines, true);
  onRows(rows);
  return {
    blob: new Blob([blob, ...(pending as BlobPart[])], { type }),
    name: attachmentName(res.headers.get('content-disposition'), `export.${format}`),
    rows,
  };
}
