/**
 * A node simulation's answer as the API's operations (reference §6.5, §6.10): the simulated call (the main
 * operation) and the internal operations the node reported, with their parameters and payloads decoded, their
 * gas, storage and burns, and the main one's storage diff with its big-map changes decoded.
 */
import type { CallRequest, Operation, OperationResult } from '@michelscope/api-types';
import { getScriptTypes, previousKeyValues } from '@michelscope/db/read';
import {
  decodeParameters,
  diffValues,
  enrichBigMaps,
  formatTezosErrors,
  toMicheline,
  toMiguel,
  type Micheline,
} from '@michelscope/michelson';
import type { ApiContext } from '../context';
import { formatTime } from '../time';
import { nodeKeyValuesAt, type NodeBlock } from './simulate-node-state';

/** Bytes burned when a transaction allocates a new implicit account (reference §6.10). */
const ALLOCATION_BYTES = 257;

/** What `f` gives, or undefined when it throws (a value the types do not decode is left out). */
export function safeMiguel<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** The indexed head a simulation names: its level, protocol and chain. */
export interface Head {
  level: number;
  protocol: string;
  chainId: string;
}

type Types = Map<string, { parameter: unknown; storage: unknown }>;

/** The simulated call itself: the main operation of the answer (reference §6.5). */
export function mainOperation(
  h: Head,
  network: string,
  at: number,
  address: string,
  b: CallRequest,
): Operation {
  return {
    level: h.level || undefined,
    content_index: 0,
    ticket_updates_count: 0,
    big_map_diffs_count: 0,
    timestamp: formatTime(new Date(at)),
    protocol: h.protocol,
    network,
    kind: 'transaction',
    source: b.source,
    destination: address,
    status: 'applied',
    entrypoint: b.name,
    internal: false,
    ...(b.amount ? { amount: b.amount } : {}),
    ...(b.gas_limit ? { gas_limit: b.gas_limit } : {}),
  };
}

/**
 * An internal operation the node reported (run_code `operations` or run_operation
 * `internal_operation_results`), with its parameters and event payload decoded when the types are known.
 */
export function internalOperation(
  main: Operation,
  o: Record<string, unknown>,
  status: string,
  types: Types,
): Operation {
  const op: Operation = {
    level: main.level,
    content_index: 0,
    ticket_updates_count: 0,
    big_map_diffs_count: 0,
    timestamp: main.timestamp,
    protocol: main.protocol,
    network: main.network,
    kind: typeof o.kind === 'string' ? o.kind : 'transaction',
    status,
    internal: true,
    ...(typeof o.source === 'string' ? { source: o.source } : {}),
    ...(typeof o.destination === 'string' ? { destination: o.destination } : {}),
    ...(Number(o.amount) ? { amount: Number(o.amount) } : {}),
  };
  if (typeof o.tag === 'string') op.tag = o.tag;
  const prm = o.parameters as { entrypoint?: string; value?: unknown } | undefined;
  if (prm?.value !== undefined) op.entrypoint = prm.entrypoint ?? 'default';
  const t = op.destination ? types.get(op.destination) : undefined;
  if (t && prm?.value !== undefined) {
    const dp = safeMiguel(() =>
      decodeParameters(toMicheline(t.parameter), {
        entrypoint: op.entrypoint,
        value: toMicheline(prm.value),
      }),
    );
    if (dp) op.parameters = dp;
  }
  if (op.kind === 'event' && o.type !== undefined && o.payload !== undefined) {
    const pl = safeMiguel(() => toMiguel(toMicheline(o.type), toMicheline(o.payload)));
    if (pl) op.payload = pl;
  }
  return op;
}

/** Destinations of the internal operations, for their parameter types. */
export const destinations = (ops: readonly unknown[]) =>
  ops
    .map((o) => (o as { destination?: unknown }).destination)
    .filter((d): d is string => typeof d === 'string');

/**
 * The node's result of one operation → `result` (gas in gas units, as a gas limit needs it) and the
 * top-level fields of an indexed operation: consumed_gas (milligas), storage sizes, burned (reference §6.10).
 */
function applyResult(op: Operation, r: Record<string, unknown>, costPerByte: number): void {
  const milligas = Number(r.consumed_milligas ?? 0) || Number(r.consumed_gas ?? 0) * 1000 || 0;
  const size = Number(r.storage_size ?? 0) || 0;
  const paid = Number(r.paid_storage_size_diff ?? 0) || 0;
  const allocated = r.allocated_destination_contract === true;
  const result: OperationResult = { consumed_gas: Math.ceil(milligas / 1000) };
  if (size) result.storage_size = op.storage_size = size;
  if (paid) result.paid_storage_size_diff = op.paid_storage_size_diff = paid;
  if (milligas) op.consumed_gas = milligas;
  let burned = paid * costPerByte;
  if (allocated) {
    result.allocated_destination_contract = op.allocated_destination_contract = true;
    op.allocated_destination_contract_burned = ALLOCATION_BYTES * costPerByte;
    burned += op.allocated_destination_contract_burned;
  }
  if (burned) op.burned = burned;
  op.result = result;
}

/** Big-map updates of a result's `lazy_storage_diff` (allocations and copies of temporary maps skipped). */
function bigMapUpdates(
  lazy: unknown,
): { ptr: number; key_hash: string; key: Micheline; value: Micheline | null }[] {
  const out: { ptr: number; key_hash: string; key: Micheline; value: Micheline | null }[] = [];
  if (!Array.isArray(lazy)) return out;
  for (const raw of lazy.slice(0, 100)) {
    const d = raw as { kind?: unknown; id?: unknown; diff?: { updates?: unknown } };
    const ptr = Number(d.id);
    if (d.kind !== 'big_map' || !Number.isInteger(ptr) || ptr < 0 || !Array.isArray(d.diff?.updates))
      continue;
    for (const u of (d.diff.updates as Record<string, unknown>[]).slice(0, 1000)) {
      if (typeof u.key_hash !== 'string' || u.key === undefined) continue;
      out.push({
        ptr,
        key_hash: u.key_hash,
        key: toMicheline(u.key),
        value: u.value === undefined ? null : toMicheline(u.value),
      });
    }
  }
  return out;
}

/**
 * Storage diff of a simulated call with its big-map changes decoded (key → old value → new value): the
 * updates of `lazy_storage_diff` against the keys' current values in the database.
 */
async function simulatedStorageDiff(
  ctx: ApiContext,
  network: string,
  storageType: Micheline,
  storage: unknown,
  previous: Micheline,
  lazy: unknown,
  block?: NodeBlock,
) {
  const updates = bigMapUpdates(lazy);
  const before = !updates.length
    ? new Map<string, unknown>()
    : block
      ? await nodeKeyValuesAt(ctx, network, block, updates)
      : await previousKeyValues(ctx.readDb, network, updates, Number.MAX_SAFE_INTEGER);
  return safeMiguel(() => {
    const curr = enrichBigMaps(
      storageType,
      toMicheline(storage),
      updates.map(({ ptr, key, value }) => ({ ptr, key, value })),
    );
    const prevEntries = updates
      .filter((u) => before.has(`${u.ptr}:${u.key_hash}`))
      .map((u) => {
        const v = before.get(`${u.ptr}:${u.key_hash}`);
        return { ptr: u.ptr, key: u.key, value: v == null ? null : toMicheline(v) };
      });
    return diffValues(storageType, curr, enrichBigMaps(storageType, previous, prevEntries));
  });
}

/**
 * The run_operation answer (contents with metadata) → main and internal operations, with the storage diff
 * of the main one carrying its decoded big-map changes.
 */
export async function simulatedOperations(
  ctx: ApiContext,
  res: { contents?: unknown[] },
  main: Operation,
  o: { storageType: Micheline; previous: Micheline; costPerByte: number; block?: NodeBlock },
): Promise<Operation[]> {
  const c = (res.contents?.[0] ?? {}) as {
    metadata?: { operation_result?: Record<string, unknown>; internal_operation_results?: unknown[] };
  };
  const result = c.metadata?.operation_result ?? {};
  const out: Operation = { ...main, status: typeof result.status === 'string' ? result.status : 'applied' };
  if (Array.isArray(result.errors)) out.errors = formatTezosErrors(result.errors);
  applyResult(out, result, o.costPerByte);
  if (result.storage !== undefined) {
    const d = await simulatedStorageDiff(
      ctx,
      main.network,
      o.storageType,
      result.storage,
      o.previous,
      result.lazy_storage_diff,
      o.block,
    );
    if (d) out.storage_diff = d;
  }
  const raw = (c.metadata?.internal_operation_results ?? []).slice(0, 1000);
  const types = await getScriptTypes(ctx.readDb, main.network, destinations(raw));
  const internals = raw.map((x) => {
    const io = x as Record<string, unknown>;
    const r = (io.result ?? {}) as Record<string, unknown>;
    const op = internalOperation(main, io, typeof r.status === 'string' ? r.status : 'applied', types);
    applyResult(op, r, o.costPerByte);
    if (Array.isArray(r.errors)) op.errors = formatTezosErrors(r.errors);
    return op;
  });
  return [out, ...internals];
}
