/** Streamed exports (issue 21 part 3): the URL of an export and a reader that counts rows as they arrive. */
import { API_BASE } from '../../api/client';

export type ExportFormat = 'csv' | 'json';

/** The operations tab's active filters as the export's query (text search is not part of an export). */
export function operationsExportPath(
  network: string,
  address: string,
  format: ExportFormat,
  f: {
    statuses: readonly string[];
    entrypoints: readonly string[];
    range: { gte: number; lt: number } | null;
  },
): string {
  const q = new URLSearchParams({ format });
  if (f.statuses.length) q.set('status', f.statuses.join(','));
  if (f.entrypoints.length) q.set('entrypoint', f.entrypoints.join(','));
  if (f.range) {
    q.set('from', String(Math.max(0, Math.floor(f.range.gte))));
    q.set('to', String(Math.max(0, Math.floor(f.range.lt))));
  }
  return `${API_BASE}/contract/${encodeURIComponent(network)}/${encodeURIComponent(address)}/operations/export?${q.toString()}`;
}

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
 * Downloads an export, reporting the rows received as they arrive; resolves to the file (a Blob of the
 * chunks) and its name. Aborted by `signal`.
 */
export async function streamExport(
  url: string,
  format: ExportFormat,
  onRows: (rows: number) => void,
  signal: AbortSignal,
): Promise<{ blob: Blob; name: string; rows: number }> {
  const res = await fetch(url, { signal });
  if (!res.ok || !res.body) {
    let message = `${res.status} ${res.statusText}`;
    try {
      message = ((await res.json()) as { message?: string }).message ?? message;
    } catch {
      /* not JSON */
    }
    throw new Error(`Export failed: ${message}`);
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let newlines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    for (let i = 0; i < value.length; i++) if (value[i] === 10) newlines++;
    onRows(rowsSoFar(format, newlines, false));
  }
  const rows = rowsSoFar(format, newlines, true);
  onRows(rows);
  const type = format === 'csv' ? 'text/csv' : 'application/json';
  return {
    blob: new Blob(chunks as BlobPart[], { type }),
    name: attachmentName(res.headers.get('content-disposition'), `export.${format}`),
    rows,
  };
}
