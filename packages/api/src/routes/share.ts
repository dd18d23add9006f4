/**
 * Shared simulations (issue 20, capability 6). A link carries a simulation's input compressed in its fragment;
 * one too long for a link is stored here: POST /v1/shares validates it (the SharedSimulation schema, at most
 * SHARE_MAX_BYTES of JSON, a configured network, nothing the store cannot hold as sent) and stores it under the
 * SHA-256 of its canonical JSON (keys sorted), so the same state always gets the same id and storing it again
 * changes nothing. GET /v1/shares/{id} gives it back. Nothing lists them (issue 34): the id, 132 bits of a hash
 * of the whole state, is the link's secret. The store is bounded by the bytes the database takes for the rows
 * (the least recently opened are deleted past it) and by a quota of stored bytes per client and hour.
 */
import { createHash } from 'node:crypto';
import {
  ErrorBody,
  SHARE_MAX_BYTES,
  ShareCreated,
  ShareId,
  SharedSimulation,
  StoredShare,
} from '@michelscope/api-types';
import { openShare, storeShare } from '@michelscope/db/shares';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { configure } from 'safe-stable-stringify';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { formatTime } from '../time';
import { requireNetwork } from '../validate';

const tags = ['share'];
/** Keys sorted: one state, one text, one id (whatever order a client wrote its keys in). */
const canonical = configure({ deterministic: true, bigint: false, circularValue: Error });
/** The default bound of all stored states together, in stored bytes (ApiOptions.sharesMaxBytes). */
export const SHARES_MAX_TOTAL_BYTES = 1024 ** 3;
/** The default quota of one client's new states, in stored bytes per clock hour (ApiOptions.sharesClientBytesPerHour). */
export const SHARES_CLIENT_BYTES_PER_HOUR = 8 * 1024 ** 2;

/** The id of a state: 22 base64url characters (132 bits) of the SHA-256 of its canonical JSON. */
export function shareId(json: string): string {
  return createHash('sha256').update(json).digest('base64url').slice(0, 22);
}

/** The contract and entrypoint (or view) a state is of; the deploy page has neither. */
function about(state: SharedSimulation): { address: string; entrypoint: string } {
  if (!('kind' in state)) return { address: state.address, entrypoint: state.entrypoint };
  if (state.kind === 'view') return { address: state.address, entrypoint: state.view.name };
  return { address: '', entrypoint: '' };
}

/** A NUL or a UTF-16 surrogate without its pair: JSON can say them, jsonb (and UTF-8 text) cannot hold them. */
// eslint-disable-next-line no-control-regex -- NUL is what it looks for
const UNSTORABLE_CHAR = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as it is, or undefined. */
function unstorableText(text: string): string | undefined {
  const m = UNSTORABLE_CHAR.exec(text);
  if (!m) return undefined;
  const code = m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return code === '0000' ? 'U+0000 (NUL)' : `a lone surrogate U+${code}`;
}

/** A field's path as the message names it: `data.mint.to`, `bigMaps[0]`, `data["a b"]`. */
const step = (path: string, key: string) =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;

/**
 * The first value of a parsed state that the store cannot hold as it was sent, as a message naming its field,
 * or undefined: a string or key holding NUL or a lone surrogate (jsonb refuses them), a number read as Infinity
 * (which JSON writes as null). Numbers read with other changes are found in the body's text (`changedNumber`).
 */
export function unstorable(v: unknown, path = ''): string | undefined {
  const at = path || 'the state';
  if (typeof v === 'string') {
    const why = unstorableText(v);
    return why && `${at}: a string holding ${why} cannot be stored`;
  }
  if (typeof v === 'number')
    return Number.isFinite(v)
      ? undefined
      : `${at}: a number out of range (read as ${v}); send it as a string`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const why = unstorable(v[i], `${path}[${i}]`);
      if (why) return why;
    }
    return undefined;
  }
  if (v && typeof v === 'object') {
    for (const [key, value] of Object.entries(v)) {
      const bad = unstorableText(key);
      if (bad) return `${at}: a key holding ${bad} cannot be stored`;
      const why = unstorable(value, step(path, key));
      if (why) return why;
    }
  }
  return undefined;
}

/** A JSON number's value as (sign, digits without leading or trailing zeros, exponent); zero is ('', '', 0). */
function decimal(literal: string): [string, string, number] | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!m) return undefined;
  const frac = m[3] ?? '';
  let digits = (m[2]! + frac).replace(/^0+/, '');
  let exp = Number(m[4] ?? 0) - frac.length;
  if (!digits) return ['', '', 0];
  const trailing = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trailing);
  exp += trailing;
  return [m[1]!, digits, exp];
}

/** Whether a JSON number literal reads as a double of exactly its value (1e400, 1e-400, 2^53 + 1 do not). */
function readsExactly(literal: string): boolean {
  const read = Number(literal);
  if (!Number.isFinite(read)) return false;
  const a = decimal(literal);
  const b = decimal(String(read));
  return !!a && !!b && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

/**
 * The first number of a JSON text that a reader would change (out of range, past a double's digits: 1e400 is
 * Infinity, 1e-400 is 0, 123456789012345678901234567890 loses its last digits), as a message naming its field;
 * undefined when every number reads as it is written. `text` is valid JSON (already parsed).
 */
export function changedNumber(text: string): string | undefined {
  // the containers around the position: an object's current key, an array's current index
  const stack: { key?: string; index?: number; expectKey: boolean }[] = [];
  const path = () =>
    stack.reduce((p, f) => (f.index !== undefined ? `${p}[${f.index}]` : step(p, f.key ?? '')), '');
  const number = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const string = /"(?:[^"\\]|\\.)*"/y;
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    const top = stack[stack.length - 1];
    if (c === '"') {
      string.lastIndex = i;
      const m = string.exec(text)!;
      if (top?.expectKey) {
        top.key = JSON.parse(m[0]) as string;
        top.expectKey = false;
      }
      i += m[0].length;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      number.lastIndex = i;
      const literal = number.exec(text)![0];
      if (!readsExactly(literal)) {
        const at = path() || 'the state';
        return `${at}: the number ${literal.length > 40 ? literal.slice(0, 40) + '…' : literal} cannot be read as it is written (a double holds about 16 digits, up to 1.8e308); send it as a string`;
      }
      i += literal.length;
    } else {
      if (c === '{') stack.push({ expectKey: true });
      else if (c === '[') stack.push({ index: 0, expectKey: false });
      else if (c === '}' || c === ']') stack.pop();
      else if (c === ',' && top) {
        if (top.index !== undefined) top.index++;
        else top.expectKey = true;
      }
      i++;
    }
  }
  return undefined;
}

/** The text of each POST /v1/shares body, kept by the route's JSON reader for `changedNumber`. */
const bodyText = new WeakMap<object, string>();

export const shareRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  // this plugin's JSON reader (encapsulated: other routes keep theirs) is Fastify's own, keeping the text
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    bodyText.set(request, text);
    void json(request, text, done);
  });
  app.post(
    '/shares',
    {
      // a little over the state's bound, so that a huge body is refused before it is parsed
      bodyLimit: SHARE_MAX_BYTES * 2,
      schema: {
        summary: 'Store a simulation to share (a link too long for its fragment)',
        description:
          `Validates the state (the SharedSimulation schema; at most ${SHARE_MAX_BYTES} bytes of JSON, else ` +
          '413; a NUL or a lone surrogate in a string or key, or a number a double cannot hold as written — ' +
          '1e400, 123456789012345678901234567890 — is a 400 naming the field: send such a number as a string) and ' +
          'stores it under a content-addressed id: the SHA-256 of its JSON with sorted keys, so the same state ' +
          'always answers the same id and storing it again changes nothing. Nothing lists stored states: the id is ' +
          "the link's secret. All of them together are bounded by the bytes the database stores for them (1 GiB by " +
          'default): past it the least recently opened are deleted (a state larger than the whole store gets 507). ' +
          'A client (its address, as the rate limit sees it) may store 8 MiB of new states an hour by default, ' +
          'then gets 429 with `retry-after` (a known state costs nothing). The web opens ' +
          'a call at `/{network}/{address}/interact/{entrypoint}#share={id}`, a view at ' +
          '`/{network}/{address}/views/{name}#share={id}`, the deploy page at `/deploy#share={id}`.',
        tags,
        body: SharedSimulation,
        response: { 200: ShareCreated, 400: ErrorBody, 413: ErrorBody, 429: ErrorBody, 507: ErrorBody },
      },
    },
    async (request, reply) => {
      const state = request.body;
      requireNetwork(ctx, state.network);
      const text = bodyText.get(request);
      const why = unstorable(state) ?? (text === undefined ? undefined : changedNumber(text));
      if (why) throw new HttpError(400, why);
      const json = canonical(state);
      if (typeof json !== 'string') throw new HttpError(400, 'the state is not JSON');
      const bytes = Buffer.byteLength(json);
      if (bytes > SHARE_MAX_BYTES)
        throw new HttpError(413, `the state takes ${bytes} bytes, more than ${SHARE_MAX_BYTES}`);
      const result = await storeShare(
        ctx.db,
        { id: shareId(json), network: state.network, ...about(state), bytes, json },
        {
          maxTotalBytes: ctx.options.sharesMaxBytes ?? SHARES_MAX_TOTAL_BYTES,
          client: request.ip,
          clientBytesPerHour: ctx.options.sharesClientBytesPerHour ?? SHARES_CLIENT_BYTES_PER_HOUR,
        },
      );
      if (result.kind === 'too-large')
        throw new HttpError(
          507,
          `the store of shared simulations holds ${result.maxTotalBytes} bytes, and this state takes ` +
            `${result.storedBytes} there: a shorter simulation fits in the link itself`,
        );
      if (result.kind === 'quota') {
        void reply.header('retry-after', String(result.retryAfterSeconds));
        throw new HttpError(
          429,
          `this client stored ${result.usedBytes} bytes of shared simulations this hour; this one takes ` +
            `${result.storedBytes} more than its quota allows: retry in ${result.retryAfterSeconds} s`,
        );
      }
      const { row } = result;
      return { id: row.id, created_at: formatTime(row.created_at), bytes: row.bytes };
    },
  );

  app.get(
    '/shares/:id',
    {
      schema: {
        summary: 'A stored simulation',
        description: 'The state stored by POST /v1/shares under this id (404 when none is).',
        tags,
        params: Type.Object({ id: ShareId }),
        response: { 200: StoredShare, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const row = await openShare(ctx.db, request.params.id);
      if (!row) throw new HttpError(404, `no stored simulation ${request.params.id}`);
      return {
        id: request.params.id,
        created_at: formatTime(row.created_at),
        state: row.state as SharedSimulation,
      };
    },
  );
};
