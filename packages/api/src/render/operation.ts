/**
 * Operation rows → the API's `Operation` (reference §6.2): decoded parameters, payloads, formatted errors
 * and, on request, the storage diff. Decoding failures of untrusted chain data leave the field out.
 */
import type { Operation } from '@michelscope/api-types';
import {
  bigMapDiffsOfOperation,
  getScriptTypes,
  previousKeyValues,
  previousStorage,
  type Db,
  type OperationRow,
} from '@michelscope/db/read';
import {
  decodeParameters,
  diffValues,
  enrichBigMaps,
  formatTezosErrors,
  isTezosError,
  toMicheline,
  toMiguel,
  type Micheline,
  type MiguelNode,
  type Parameters,
} from '@michelscope/michelson';
import { formatTime } from '../time';
import { stampAll } from './big-map-keys';

/** Whether the node errors of a row contain an error whose id contains `part`. */
const hasError = (raw: unknown, part: string): boolean =>
  Array.isArray(raw) &&
  raw.some((e) => typeof (e as { id?: unknown })?.id === 'string' && isTezosError(e as { id: string }, part));

const num = (v: number | string | null | undefined): number | undefined => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) && n !== 0 ? n : undefined;
};

const isCall = (op: OperationRow) =>
  op.kind === 'transaction' && op.parameters != null && /^(KT1|sr1)/.test(op.destination ?? '');

/** Options of `renderOperations`. */
export interface RenderOptions {
  withStorageDiff?: boolean;
}

/** A stored call's `{entrypoint, value}` (a JSON column), read as such; undefined for a plain transfer. */
function storedParameters(stored: unknown): Partial<Parameters> | undefined {
  if (stored == null || typeof stored !== 'object') return undefined;
  const { entrypoint, value } = stored as Record<string, unknown>;
  return {
    entrypoint: typeof entrypoint === 'string' ? entrypoint : undefined,
    value: value === undefined ? undefined : toMicheline(value),
  };
}

export async function renderOperations(
  db: Db,
  network: string,
  rows: readonly OperationRow[],
  opts: RenderOptions = {},
): Promise<Operation[]> {
  const dests = rows.map((r) => r.destination).filter((d): d is string => !!d && d.startsWith('KT1'));
  const types = await getScriptTypes(db, network, dests);
  const out: Operation[] = [];
  for (const row of rows) {
    const op = baseOperation(network, row);
    const t = row.destination ? types.get(row.destination) : undefined;
    if (isCall(row) && t && !hasError(row.errors, 'bad_contract_parameter')) {
      op.parameters = safe(() =>
        decodeParameters(toMicheline(t.parameter), storedParameters(row.parameters)),
      );
    }
    if (
      (row.kind === 'event' || row.kind === 'transfer_ticket') &&
      row.payload != null &&
      row.payload_type != null
    ) {
      op.payload = safe(() => toMiguel(toMicheline(row.payload_type), toMicheline(row.payload)));
    }
    if (
      row.kind === 'smart_rollup_execute_outbox_message' &&
      row.payload &&
      typeof row.payload === 'object'
    ) {
      const p = row.payload as { cemented_commitment?: string | null; output_proof?: string | null };
      op.payload = [
        {
          prim: 'pair',
          type: 'namedtuple',
          children: [
            {
              prim: 'string',
              type: 'string',
              name: 'cemented_commitment',
              value: String(p.cemented_commitment ?? ''),
            },
            { prim: 'bytes', type: 'bytes', name: 'output_proof', value: String(p.output_proof ?? '') },
          ],
        },
      ];
    }
    if (opts.withStorageDiff && t && canHaveDiff(row)) {
      op.storage_diff = await storageDiff(db, network, row, t.storage);
    }
    out.push(op);
  }
  return out;
}

export function canHaveDiff(row: OperationRow): boolean {
  return (
    row.status === 'applied' &&
    row.storage != null &&
    (isCall(row) || row.kind === 'origination' || row.kind === 'origination_new' || row.hash === null)
  );
}

/** Storage diff of an operation against the previous stored storage of the same contract (§6.2). */
export async function storageDiff(
  db: Db,
  network: string,
  row: OperationRow,
  storageType: unknown,
): Promise<MiguelNode | undefined> {
  if (!row.destination) return undefined;
  try {
    const type = toMicheline(storageType);
    const diffs = await bigMapDiffsOfOperation(db, row.id);
    const entries = diffs.map((d) => ({
      ptr: d.ptr,
      key: toMicheline(d.key),
      value: d.value == null ? null : toMicheline(d.value),
    }));
    const current = enrichBigMaps(type, toMicheline(row.storage), entries);
    const prev = await previousStorage(db, network, row.destination, row.id);
    if (!prev) return stampAll(toMiguel(type, current)[0]!, 'create');
    const firstDiffId = diffs[0]?.id ?? Number.MAX_SAFE_INTEGER;
    const before = await previousKeyValues(db, network, diffs, firstDiffId);
    const prevEntries = diffs
      .filter((d) => before.has(`${d.ptr}:${d.key_hash}`))
      .map((d) => {
        const v = before.get(`${d.ptr}:${d.key_hash}`);
        return { ptr: d.ptr, key: toMicheline(d.key), value: v == null ? null : toMicheline(v) };
      });
    const previous = enrichBigMaps(type, toMicheline(prev.storage), prevEntries);
    return diffValues(type, current, previous);
  } catch {
    return undefined;
  }
}

export { stampAll };

export function baseOperation(network: string, row: OperationRow): Operation {
  const op: Operation = {
    id: row.id,
    level: num(row.level),
    fee: num(row.fee),
    counter: row.hash ? num(row.counter) : undefined,
    gas_limit: num(row.gas_limit),
    storage_limit: num(row.storage_limit),
    amount: num(row.amount),
    burned: num(row.burned),
    allocated_destination_contract_burned: num(row.allocated_destination_contract_burned),
    content_index: row.content_index,
    consumed_gas: num(row.consumed_gas),
    storage_size: num(row.storage_size),
    paid_storage_size_diff: num(row.paid_storage_size_diff),
    ticket_updates_count: row.ticket_updates_count,
    big_map_diffs_count: row.big_map_diffs_count,
    errors: formatTezosErrors(row.errors),
    timestamp: formatTime(row.timestamp),
    protocol: row.protocol,
    hash: row.hash ?? undefined,
    network,
    kind: row.kind,
    source: row.source ?? undefined,
    destination: row.destination ?? undefined,
    delegate: row.delegate ?? undefined,
    status: row.status,
    entrypoint: row.entrypoint ?? undefined,
    tag: row.tag ?? undefined,
    allocated_destination_contract: row.allocated_destination_contract || undefined,
    internal: row.internal,
  };
  for (const k of Object.keys(op) as Array<keyof Operation>) if (op[k] === undefined) delete op[k];
  return op;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

export type { Micheline };
