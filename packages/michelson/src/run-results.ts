/**
 * Pure pieces of turning node results into API operations (bcd-api §6.2, §6.5): event payloads as Miguel
 * and the internal operations of a `run_code` result, read defensively from untrusted JSON.
 */
import { toMicheline } from './micheline-core';
import type { Micheline } from './micheline-core';
import { toMiguel } from './miguel';
import type { MiguelNode } from './miguel';

const isEmpty = (v: unknown): boolean =>
  v === null || v === undefined || v === '' || (v instanceof Uint8Array && v.length === 0);

/**
 * Miguel of an event payload typed by its `payload_type`; undefined when the event has no payload (an
 * `EMIT` of `unit` may carry none): the response then omits `payload`. Throws MichelsonDataError when the
 * payload does not match its type.
 */
export function eventPayloadMiguel(payloadType: unknown, payload: unknown): MiguelNode[] | undefined {
  if (isEmpty(payload) || isEmpty(payloadType)) return undefined;
  return toMiguel(toMicheline(payloadType), toMicheline(payload));
}

/** An internal operation of a `run_code` result, with the defaults the API applies. */
export interface RunCodeOperation {
  kind: string;
  source?: string;
  /** Empty when the operation has none (events). */
  destination: string;
  /** Mutez; 0 when absent (events, originations without balance). */
  amount: number;
  entrypoint?: string;
  /** Call parameters (Micheline), when given. */
  value?: Micheline;
  /** Event tag, type and payload. */
  tag?: string;
  payloadType?: Micheline;
  payload?: Micheline;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const mich = (v: unknown): Micheline | undefined => {
  if (v === undefined || v === null) return undefined;
  try {
    return toMicheline(v);
  } catch {
    return undefined;
  }
};

/** The internal operations of a `run_code` response (`{operations: […]}`); malformed entries are skipped. */
export function runCodeOperations(response: unknown, limit = 1000): RunCodeOperation[] {
  const ops = (response as { operations?: unknown } | null)?.operations;
  if (!Array.isArray(ops)) return [];
  const out: RunCodeOperation[] = [];
  for (const raw of ops.slice(0, limit)) {
    if (raw === null || typeof raw !== 'object') continue;
    const o = raw as Record<string, unknown>;
    const amount = Number(o.amount ?? o.balance ?? 0);
    const op: RunCodeOperation = {
      kind: str(o.kind) ?? 'transaction',
      destination: str(o.destination) ?? '',
      amount: Number.isSafeInteger(amount) && amount >= 0 ? amount : 0,
    };
    if (str(o.source)) op.source = str(o.source);
    const params = o.parameters as { entrypoint?: unknown; value?: unknown } | undefined;
    const value = mich(params?.value);
    if (value !== undefined) {
      op.entrypoint = str(params?.entrypoint) ?? 'default';
      op.value = value;
    }
    if (str(o.tag) !== undefined) op.tag = str(o.tag);
    const payloadType = mich(o.type);
    const payload = mich(o.payload);
    if (payloadType !== undefined) op.payloadType = payloadType;
    if (payload !== undefined) op.payload = payload;
    out.push(op);
  }
  return out;
}
