/**
 * The one export mechanism (issue 21 part 3): a table's rows, read in batches by keyset paging, written as CSV
 * or JSON text and sent as a stream that is pulled by the client: a batch is read only when the previous one
 * has been handed to the socket (back-pressure), so an export of any length holds about one batch.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';

export type ExportFormat = 'csv' | 'json';

/**
 * A cell: text, number, boolean, null, or a JSON value (Micheline, metadata): nested in a JSON export, its JSON
 * text in a CSV one.
 */
export type Cell = unknown;

/** One exported column: its name (CSV header, JSON key), what it holds (documented), how to read it. */
export interface Column<R> {
  name: string;
  description: string;
  get: (r: R) => Cell;
}

/**
 * `tableColumns<Row>()(schema, getters)`: the columns of an export row schema (api-types), in its order, each with its schema description and the
 * getter of `get` (the compiler checks there is one per column, of the column's type).
 */
export const tableColumns =
  <R>() =>
  <S extends TObject>(
    schema: S,
    get: { [K in keyof Static<S>]-?: (r: R) => Static<S>[K] },
  ): ReadonlyArray<Column<R>> =>
    Object.entries(schema.properties).map(([name, s]) => ({
      name,
      description: String((s as { description?: string }).description ?? ''),
      get: (get as Record<string, (r: R) => Cell>)[name]!,
    }));

/** Mutez (a decimal integer text) as tez with six decimals, exactly: `1234567` → `1.234567`. */
export function mutezToTez(mutez: string | number | bigint | null | undefined): string {
  const text = mutez === null || mutez === undefined ? '' : String(mutez);
  if (!/^-?\d+$/.test(text)) return '';
  const negative = text.startsWith('-');
  const digits = (negative ? text.slice(1) : text).padStart(7, '0');
  const whole = digits.slice(0, -6).replace(/^0+(?=\d)/, '');
  return `${negative ? '-' : ''}${whole}.${digits.slice(-6)}`;
}

/** What a spreadsheet may read as a formula (csvField). */
const FORMULA = /^(?:[\t\r]|[ \t\r\n]*[=+\-@])/;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a text starting with = + - @ tab
 * or carriage return, or with white space (space, tab, CR, LF) before one of = + - @ (a spreadsheet trims it and
 * runs the rest as a formula: chain strings are untrusted), gets a leading apostrophe, unless it is a plain
 * number.
 */
export function csvField(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') v = JSON.stringify(v);
  if (typeof v !== 'string') return String(v);
  const safe = FORMULA.test(v) && !/^-?\d+(\.\d+)?$/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The CSV header line. */
export const csvHeader = <R>(cols: ReadonlyArray<Column<R>>) => cols.map((c) => c.name).join(',') + '\r\n';

/** One batch as CSV lines (one string: the parts are joined once, not concatenated one by one). */
export function csvLines<R>(cols: ReadonlyArray<Column<R>>, batch: readonly R[]): string {
  const lines = new Array<string>(batch.length);
  for (let i = 0; i < batch.length; i++) {
    const r = batch[i]!;
    lines[i] = cols.map((c) => csvField(c.get(r))).join(',');
  }
  return lines.join('\r\n') + '\r\n';
}

/** One batch as JSON array items, one per line, each line starting with `,` unless it is the first row. */
export function jsonLines<R>(cols: ReadonlyArray<Column<R>>, batch: readonly R[], first: boolean): string {
  const lines = new Array<string>(batch.length);
  for (let i = 0; i < batch.length; i++) {
    const r = batch[i]!;
    const o: Record<string, Cell> = {};
    for (const c of cols) o[c.name] = c.get(r) ?? null;
    lines[i] = (first && i === 0 ? '\n' : ',\n') + JSON.stringify(o);
  }
  return lines.join('');
}

/**
 * The export's text, chunk by chunk: the CSV header or `[`, one chunk per batch, the end. The batches are
 * pulled one at a time, so the reader of this generator sets the pace.
 */
export async function* exportChunks<R>(
  format: ExportFormat,
  cols: ReadonlyArray<Column<R>>,
  batches: AsyncIterable<readonly R[]>,
): AsyncGenerator<string> {
  if (format === 'csv') {
    yield csvHeader(cols);
    for await (const batch of batches) if (batch.length) yield csvLines(cols, batch);
    return;
  }
  yield '[';
  let first = true;
  for await (const batch of batches) {
    if (!batch.length) continue;
    yield jsonLines(cols, batch, first);
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

/**
 * The export as a byte stream holding at most one chunk (one batch of text) ahead of the socket: Readable.from
 * pulls the next batch only when the HTTP response has taken the previous one. Destroyed (client gone), it
 * returns the generator, which ends the batch reader.
 */
export function exportStream<R>(
  format: ExportFormat,
  cols: ReadonlyArray<Column<R>>,
  batches: AsyncIterable<readonly R[]>,
): Readable {
  const chunks = exportChunks(format, cols, batches);
  return Readable.from(
    (async function* () {
      for await (const text of chunks) yield Buffer.from(text, 'utf8');
    })(),
    { objectMode: false, highWaterMark: 64 * 1024 },
  );
}

/** A safe attachment file name: letters, digits, `.`, `_` and `-`. */
export const fileName = (parts: ReadonlyArray<string | number>, format: ExportFormat) =>
  `${parts
    .map((p) => String(p).replace(/[^\w.-]+/g, '_'))
    .filter(Boolean)
    .join('-')
    .slice(0, 150)}-${new Date().toISOString().slice(0, 10)}.${format}`;

/** Sends an export: content type, attachment name, no caching, the stream. */
export function sendExport<R>(
  reply: FastifyReply,
  o: {
    format: ExportFormat;
    name: ReadonlyArray<string | number>;
    columns: ReadonlyArray<Column<R>>;
    batches: AsyncIterable<readonly R[]>;
  },
) {
  return (
    reply
      .type(o.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName(o.name, o.format)}"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      // a stream is sent as it is (Fastify skips the serialiser); the 200 schema documents its rows
      .send(exportStream(o.format, o.columns, o.batches))
  );
}

/** The `format` parameter of every export route. */
export const FormatParam = Type.Optional(
  Type.Union([Type.Literal('csv'), Type.Literal('json')], {
    description: 'csv (default) or json',
  }),
);

/** The 200 answer of an export route: in JSON an array of the rows; in CSV the same columns. */
export const exportBody = (row: TObject, headers?: Record<string, TSchema>) =>
  Type.Array(row, {
    description:
      'format=json: a JSON array of these rows (streamed); format=csv: a header row naming the same columns, ' +
      'then one line per row',
    ...(headers ? { headers } : {}),
  });

/**
 * The OpenAPI description of an export: what it exports, its filters, the shared format rules, and each
 * column with what it holds.
 */
export function exportDescription<R>(what: string, cols: ReadonlyArray<Column<R>>): string {
  return (
    `${what} Streamed: read in batches by keyset paging and written as the client reads, so an export of any ` +
    'length holds about one batch in memory. `format=csv` (default; a header row, RFC 4180 quoting, CRLF line ' +
    'ends, a text starting with = + - @ gets a leading apostrophe so that a spreadsheet does not run it, JSON ' +
    'values as their JSON text) or `json` (an array of objects, one per line). An attachment. Columns: ' +
    cols.map((c) => `\`${c.name}\` (${c.description})`).join(', ') +
    '. Not in the reference.'
  );
}
