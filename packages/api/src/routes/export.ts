/**
 * Exports (issue 21 part 3): a table as CSV or JSON, streamed from the database in batches (keyset paging),
 * so an export of any length holds one batch in memory. Amounts come in mutez and in tez.
 */
import { Readable } from 'node:stream';
import { ErrorBody } from '@michelscope/api-types';
import { accountOperationsAll, getAccount, type ExportOperationRow } from '@michelscope/db/read';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { formatTime } from '../time';
import { ADDRESS_RE, AddressParams, requireAddress, requireNetwork } from '../validate';

const STATUSES = [
  'applied',
  'failed',
  'backtracked',
  'skipped',
  'pending',
  'lost',
  'refused',
  'branch_refused',
];
/** Rows read per statement. */
const BATCH = 1000;

/** Mutez (a decimal integer text) as tez with six decimals: `1234567` → `1.234567`. */
export function mutezToTez(mutez: string): string {
  if (!/^-?\d+$/.test(mutez)) return '';
  const negative = mutez.startsWith('-');
  const digits = (negative ? mutez.slice(1) : mutez).padStart(7, '0');
  const whole = digits.slice(0, -6).replace(/^0+(?=\d)/, '');
  return `${negative ? '-' : ''}${whole}.${digits.slice(-6)}`;
}

/** The exported columns, in order, with what each holds (documented in the OpenAPI description). */
export const OPERATION_COLUMNS: ReadonlyArray<
  [string, string, (r: ExportOperationRow) => string | number | boolean | null]
> = [
  ['id', 'operation id in this explorer (stable, grows with the level)', (r) => r.id],
  ['level', 'block level', (r) => r.level],
  ['timestamp', 'block time (UTC, RFC 3339)', (r) => formatTime(r.timestamp)],
  ['hash', 'operation group hash (empty for implicit operations)', (r) => r.hash],
  ['counter', 'counter of the manager operation', (r) => r.counter],
  ['content_index', 'index of the content in its group', (r) => r.content_index],
  ['internal', 'true for an internal operation', (r) => r.internal],
  ['kind', 'transaction, origination, delegation, event, …', (r) => r.kind],
  ['status', 'applied, failed, backtracked or skipped', (r) => r.status],
  ['source', 'source address', (r) => r.source],
  ['destination', 'destination address', (r) => r.destination],
  ['entrypoint', 'called entrypoint', (r) => r.entrypoint],
  ['amount_mutez', 'amount sent, mutez', (r) => r.amount],
  ['amount_tez', 'amount sent, tez (6 decimals)', (r) => mutezToTez(r.amount)],
  ['fee_mutez', 'fee, mutez', (r) => r.fee],
  ['fee_tez', 'fee, tez', (r) => mutezToTez(r.fee)],
  ['burned_mutez', 'storage burn, mutez', (r) => r.burned],
  ['burned_tez', 'storage burn, tez', (r) => mutezToTez(r.burned)],
  ['consumed_milligas', 'consumed gas, milligas', (r) => r.consumed_gas],
  ['storage_size', 'storage size after the operation, bytes', (r) => r.storage_size],
  ['paid_storage_size_diff', 'paid storage growth, bytes', (r) => r.paid_storage_size_diff],
];

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a text starting with = + - @
 * (which a spreadsheet would run as a formula: chain strings are untrusted) gets a leading apostrophe.
 */
export function csvField(v: string | number | boolean | null): string {
  if (v === null) return '';
  if (typeof v !== 'string') return String(v);
  const safe = /^[=+\-@\t\r]/.test(v) && !/^-?\d+(\.\d+)?$/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const list = (v: string | undefined) =>
  v === undefined || v === ''
    ? []
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

export const exportRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get(
    '/contract/:network/:address/operations/export',
    {
      schema: {
        summary: "Export an account's operations as CSV or JSON (streamed)",
        description:
          'Every operation of the account (as source or destination), newest first, with the operations ' +
          "tab's filters: `status` and `entrypoint` (comma-separated lists), `from` / `to` (block time, ms " +
          'since the epoch, [from, to)). Streamed in batches of 1,000 rows read by keyset paging: an export of ' +
          'any length holds one batch in memory. `format=csv` (default; a header row, RFC 4180 quoting, texts ' +
          'starting with = + - @ prefixed with an apostrophe) or `json` (an array of objects). The answer is ' +
          'an attachment. Columns: ' +
          OPERATION_COLUMNS.map(([name, what]) => `\`${name}\` (${what})`).join(', ') +
          '. Not in the reference.',
        tags: ['contract'],
        params: AddressParams,
        querystring: Type.Object({
          format: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('json')])),
          status: Type.Optional(Type.String({ maxLength: 200 })),
          entrypoint: Type.Optional(Type.String({ maxLength: 5000 })),
          from: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 })),
          to: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 })),
        }),
        response: {
          200: Type.String({ description: 'CSV text or a JSON array, streamed' }),
          400: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, ADDRESS_RE, 'address', 404);
      const q = request.query;
      const statuses = list(q.status);
      const bad = statuses.find((s) => !STATUSES.includes(s));
      if (bad !== undefined) throw new HttpError(400, `unknown status: ${bad.slice(0, 40)}`);
      const entrypoints = list(q.entrypoint);
      if (entrypoints.length > 100 || entrypoints.some((e) => e.length > 255))
        throw new HttpError(400, 'at most 100 entrypoints of at most 255 characters');
      if (!(await getAccount(ctx.db, network, address))) throw new HttpError(404, 'not found');
      const format = q.format ?? 'csv';
      const filters = { statuses, entrypoints, from: q.from ?? null, to: q.to ?? null };
      const rows = accountOperationsAll(ctx.db, network, address, filters, BATCH);
      async function* csv() {
        yield OPERATION_COLUMNS.map(([name]) => name).join(',') + '\r\n';
        for await (const batch of rows)
          yield batch
            .map((r) => OPERATION_COLUMNS.map(([, , get]) => csvField(get(r))).join(',') + '\r\n')
            .join('');
      }
      async function* json() {
        yield '[';
        let first = true;
        for await (const batch of rows) {
          let chunk = '';
          for (const r of batch) {
            const o: Record<string, unknown> = {};
            for (const [name, , get] of OPERATION_COLUMNS) o[name] = get(r);
            chunk += (first ? '\n' : ',\n') + JSON.stringify(o);
            first = false;
          }
          yield chunk;
        }
        yield '\n]\n';
      }
      const stamp = new Date().toISOString().slice(0, 10);
      return (
        reply
          .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="${address}-operations-${stamp}.${format}"`)
          .header('cache-control', 'no-store')
          // a stream is sent as it is (Fastify skips the serialiser); the 200 schema documents its text
          .send(Readable.from(format === 'csv' ? csv() : json()) as unknown as string)
      );
    },
  );
};
