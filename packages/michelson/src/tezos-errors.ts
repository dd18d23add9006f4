/**
 * Tezos error objects of operation results (bcd-api §6.13): parsing the node's `{kind, id, …}` objects,
 * looking up title/description by the id without its `proto.<n>-<hash>.` part, and formatting the
 * FAILWITH value and constants as Michelson text for the API's `errors` array.
 */
import { formatFailwithValue } from './bytes';
import { formatMichelson } from './format';
import { MichelsonDataError, toMicheline } from './micheline-core';
import type { Micheline } from './micheline-core';
import { TEZOS_ERROR_DESCRIPTIONS } from './tezos-error-table';
import type { TezosErrorDescription } from './tezos-error-table';

export type { TezosErrorDescription } from './tezos-error-table';

/** What follows the common fields, by the id (the reference's three detail types). */
export type TezosErrorDetails =
  | { type: 'DefaultError'; location?: number; with?: Micheline }
  | { type: 'BalanceTooLowError'; location?: number; with?: Micheline; balance: string; amount: string }
  | {
      type: 'InvalidSyntacticConstantError';
      wrong_expression: Micheline | null;
      /** Micheline in the old id's objects; plain text (e.g. "a positive 10-bit integer …") in the current one's. */
      expected_form: Micheline | string | null;
      wrongExpression: Micheline | null;
      expectedForm: Micheline | string | null;
    };

export interface TezosError {
  id: string;
  kind: string;
  title: string;
  descr: string;
  /** Free text some nodes (Tezlink) put in the error. */
  error_message?: string;
  details: TezosErrorDetails;
}

/** The error as the API returns it: common fields, then the details with Michelson values as text. */
export interface TezosErrorJson {
  id: string;
  kind: string;
  title: string;
  descr: string;
  error_message?: string;
  location?: number;
  with?: string;
  balance?: string;
  amount?: string;
  wrong_expression?: string;
  expected_form?: string;
}

/** Table key of an error id: the id without its first two dot-separated parts (`proto.005-PsBabyM1.`). */
export function tezosErrorKey(id: string): string {
  const parts = id.split('.');
  return parts.length > 1 ? parts.slice(2).join('.') : id;
}

/** Title and description of a (full or short) error id, when the table knows it. */
export function tezosErrorDescription(id: string): TezosErrorDescription | undefined {
  const key = tezosErrorKey(id);
  return Object.hasOwn(TEZOS_ERROR_DESCRIPTIONS, key)
    ? TEZOS_ERROR_DESCRIPTIONS[key]
    : Object.hasOwn(TEZOS_ERROR_DESCRIPTIONS, id)
      ? TEZOS_ERROR_DESCRIPTIONS[id]
      : undefined;
}

/** The reference's `Is`: the id contains `part`. */
export function isTezosError(e: { id: string }, part: string): boolean {
  return e.id.includes(part);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function optMicheline(o: Record<string, unknown>, key: string): Micheline | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  return toMicheline(v, `$.${key}`);
}

/** A constant's expected form: plain text (current nodes) or Micheline (the old id). */
function optForm(o: Record<string, unknown>, key: string): Micheline | string | undefined {
  const v = o[key];
  return typeof v === 'string' ? v : optMicheline(o, key);
}

/**
 * Ids of the syntactic-constant error: the old `invalidSyntacticConstantError` (the reference's) and the
 * current `michelson_v1.invalid_syntactic_constant` (whose expected form is text), both carrying the
 * wrong expression and the expected form.
 */
function isSyntacticConstantError(id: string): boolean {
  return (
    id.includes('invalidSyntacticConstantError') || id.includes('michelson_v1.invalid_syntactic_constant')
  );
}

function int64String(v: unknown, field: string): string {
  const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof s !== 'string' || !/^-?\d{1,19}$/.test(s))
    throw new MichelsonDataError(`error ${field} must be an integer string`);
  return String(BigInt(s));
}

/** One node error object → TezosError. Throws MichelsonDataError on a malformed object. */
export function parseTezosError(raw: unknown): TezosError {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new MichelsonDataError('an error must be an object');
  const o = raw as Record<string, unknown>;
  const id = str(o.id) ?? '';
  const kind = str(o.kind) ?? '';
  const known = tezosErrorDescription(id);
  // An id outside Octez's table (e.g. the embedded node's `sandbox.time_limit_exceeded`) keeps the node's
  // own sentence (`msg`) when it sent one.
  const title = known?.title ?? (str(o.title) || str(o.msg)?.slice(0, 500) || id);
  const descr = known?.descr ?? (str(o.descr) || kind);
  let details: TezosErrorDetails;
  const location =
    typeof o.location === 'number' && Number.isInteger(o.location) && o.location !== 0
      ? o.location
      : undefined;
  const withValue = optMicheline(o, 'with');
  const base = {
    ...(location !== undefined && { location }),
    ...(withValue !== undefined && { with: withValue }),
  };
  if (id.includes('contract.balance_too_low')) {
    details = {
      type: 'BalanceTooLowError',
      ...base,
      balance: int64String(o.balance ?? '0', 'balance'),
      amount: int64String(o.amount ?? '0', 'amount'),
    };
  } else if (isSyntacticConstantError(id)) {
    details = {
      type: 'InvalidSyntacticConstantError',
      wrong_expression: optMicheline(o, 'wrong_expression') ?? null,
      expected_form: optForm(o, 'expected_form') ?? null,
      wrongExpression: optMicheline(o, 'wrongExpression') ?? null,
      expectedForm: optForm(o, 'expectedForm') ?? null,
    };
  } else details = { type: 'DefaultError', ...base };
  const msg = str(o.error_message);
  return { id, kind, title, descr, ...(msg !== undefined && { error_message: msg }), details };
}

/** JSON of an errors column: JSON text, its bytes, or PostgreSQL's bytea text (`\\x` + hex). */
function errorsColumnJson(raw: string | Uint8Array): unknown {
  const s = typeof raw === 'string' ? raw : new TextDecoder().decode(raw);
  let text = s;
  if (/^\\x([0-9a-fA-F]{2})*$/.test(s)) {
    const bytes = new Uint8Array((s.length - 2) / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(s.slice(2 + 2 * i, 4 + 2 * i), 16);
    text = new TextDecoder().decode(bytes);
  }
  return JSON.parse(text) as unknown;
}

/**
 * The errors of an operation: an array of node error objects, its JSON text, or the database column's
 * bytea text (`\x` + hex of the JSON). Throws MichelsonDataError when it is none of these.
 */
export function parseTezosErrors(raw: unknown): TezosError[] {
  let v = raw;
  if (typeof v === 'string' || v instanceof Uint8Array) {
    try {
      v = errorsColumnJson(v);
    } catch {
      throw new MichelsonDataError('errors are not valid JSON');
    }
  }
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) throw new MichelsonDataError('errors must be an array');
  return v.map(parseTezosError);
}

/**
 * The API form of an error: `with` as inline Michelson (PACKed bytes unpacked first), constants of
 * the syntactic-constant error (old and current id) as multi-line Michelson, a textual expected form as is. (The reference prints the expected form in
 * place of the wrong expression when both are given; we print each in its own field.)
 */
export function formatTezosError(e: TezosError): TezosErrorJson {
  const out: TezosErrorJson = { id: e.id, kind: e.kind, title: e.title, descr: e.descr };
  if (e.error_message !== undefined) out.error_message = e.error_message;
  const d = e.details;
  if (d.type === 'InvalidSyntacticConstantError') {
    const wrong = d.wrongExpression ?? d.wrong_expression;
    const expected = d.expectedForm ?? d.expected_form;
    if (wrong !== null) out.wrong_expression = formatMichelson(wrong);
    if (expected !== null)
      out.expected_form = typeof expected === 'string' ? expected : formatMichelson(expected);
    return out;
  }
  if (d.location !== undefined) out.location = d.location;
  if (d.with !== undefined) out.with = formatFailwithValue(d.with);
  if (d.type === 'BalanceTooLowError') {
    out.balance = d.balance;
    out.amount = d.amount;
  }
  return out;
}

/**
 * The `errors` array of an operation in API responses. Never throws: an entry that cannot be parsed keeps
 * its id and kind (title = its `msg`, else its id; descr = kind), and input that is not an error list gives
 * undefined.
 */
export function formatTezosErrors(raw: unknown, limit = 100): TezosErrorJson[] | undefined {
  let list: unknown = raw;
  if (typeof raw === 'string' || raw instanceof Uint8Array) {
    try {
      list = errorsColumnJson(raw);
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(list) || list.length === 0) return undefined;
  return list.slice(0, limit).map((item) => {
    try {
      return formatTezosError(parseTezosError(item));
    } catch {
      const o = (item !== null && typeof item === 'object' ? item : {}) as Record<string, unknown>;
      const id = str(o.id) ?? 'unknown';
      const kind = str(o.kind) ?? 'temporary';
      const known = tezosErrorDescription(id);
      return {
        id,
        kind,
        title: known?.title ?? str(o.msg)?.slice(0, 500) ?? id,
        descr: known?.descr ?? kind,
      };
    }
  });
}
