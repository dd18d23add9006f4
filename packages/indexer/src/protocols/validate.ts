import { validateBlock, validateChain, validateProtocol, ValidationResult } from '@taquito/utils';

/** Node data that cannot be stored: a field is missing or malformed. Nothing is written for it. */
export class InvalidNodeDataError extends Error {
  override name = 'InvalidNodeDataError';
}

export type Obj = Record<string, unknown>;

export function asObject(value: unknown, what: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidNodeDataError(`${what}: expected an object, got ${describe(value)}`);
  }
  return value as Obj;
}

export function readLevel(obj: Obj, field: string, what: string): number {
  const v = obj[field];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > 2_147_483_647) {
    throw new InvalidNodeDataError(
      `${what}: ${field} must be a non-negative integer level, got ${describe(v)}`,
    );
  }
  return v;
}

function readChecked(
  obj: Obj,
  field: string,
  what: string,
  kind: string,
  check: (s: string) => ValidationResult,
): string {
  const v = obj[field];
  if (typeof v !== 'string')
    throw new InvalidNodeDataError(`${what}: ${field} is missing (expected a ${kind}), got ${describe(v)}`);
  if (check(v) !== ValidationResult.VALID)
    throw new InvalidNodeDataError(`${what}: ${field} is not a valid ${kind}: ${describe(v)}`);
  return v;
}

export const readBlockHash = (obj: Obj, field: string, what: string) =>
  readChecked(obj, field, what, 'block hash', validateBlock);
export const readProtocolHash = (obj: Obj, field: string, what: string) =>
  readChecked(obj, field, what, 'protocol hash', validateProtocol);
export const readChainId = (obj: Obj, field: string, what: string) =>
  readChecked(obj, field, what, 'chain id', validateChain);

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function readTimestamp(obj: Obj, field: string, what: string): Date {
  const v = obj[field];
  const date = typeof v === 'string' && RFC3339.test(v) ? new Date(v) : null;
  if (!date || Number.isNaN(date.getTime())) {
    throw new InvalidNodeDataError(`${what}: ${field} must be an RFC 3339 timestamp, got ${describe(v)}`);
  }
  return date;
}

/** A non-negative integer given as a number or a decimal string (Tezos encodes int64 as strings). */
export function readCount(obj: Obj, field: string, what: string): number {
  const v = obj[field];
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < 0)
    throw new InvalidNodeDataError(`${what}: ${field} must be a non-negative integer, got ${describe(v)}`);
  return n;
}

/** The value shown in an error message: short, and never the raw text of a huge object. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'an array' : `an ${typeof value}`;
}
