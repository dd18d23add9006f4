/** Operation statuses, their colours and header styles (workspace spec §4 "Operation statuses"). */
import type { Operation, OperationError } from '../../api/opg-types';

export type StatusColour = 'success' | 'warning' | 'error' | 'secondary' | 'grey';
export type HeaderStyle = 'applied' | 'backtracked' | 'mempool' | 'failed';

export const OPERATION_STATUSES = [
  'applied',
  'failed',
  'backtracked',
  'skipped',
  'pending',
  'lost',
  'refused',
  'branch_refused',
] as const;

export function statusColour(status: string): StatusColour {
  switch (status) {
    case 'applied':
      return 'success';
    case 'backtracked':
      return 'warning';
    case 'failed':
    case 'refused':
    case 'branch_refused':
      return 'error';
    case 'pending':
      return 'secondary';
    default:
      return 'grey';
  }
}

/** skipped / backtracked: backtracked style; pending / lost: mempool style; other non-applied: failed. */
export function headerStyle(status: string): HeaderStyle {
  if (status === 'applied') return 'applied';
  if (status === 'skipped' || status === 'backtracked') return 'backtracked';
  if (status === 'pending' || status === 'lost') return 'mempool';
  return 'failed';
}

/**
 * Repeating through the interact page (workspace spec §4): not in the mempool, has a hash, a destination
 * and an entrypoint, and is applied.
 */
export function canRepeat(op: Operation): boolean {
  return !op.mempool && !!op.hash && !!op.destination && !!op.entrypoint && op.status === 'applied';
}

/** The interact URL that repeats an operation. */
export function repeatUrl(op: Operation): string | null {
  if (!canRepeat(op) || !op.hash || !op.destination || !op.entrypoint || op.counter === undefined)
    return null;
  const query = new URLSearchParams({ hash: op.hash, counter: String(op.counter) });
  return `/${op.network}/${op.destination}/interact/${encodeURIComponent(op.entrypoint)}?${query.toString()}`;
}

/** The storage diff loads lazily only for applied operations with an id (spec §4 "Operation details"). */
export function needsLazyDiff(op: Operation): boolean {
  return op.storage_diff === undefined && op.status === 'applied' && !!op.id;
}

/** Errors whose id contains runtime_error are hidden (spec §8). */
export function visibleErrors(op: Operation): OperationError[] {
  return (op.errors ?? []).filter((e) => !e.id.includes('runtime_error'));
}

/** Consumed gas as a percentage of the gas limit (consumed gas is in milligas). */
export function gasPercent(op: Pick<Operation, 'consumed_gas' | 'gas_limit'>): number | null {
  if (!op.gas_limit || op.gas_limit <= 0) return null;
  return Math.round(((op.consumed_gas ?? 0) / 1000 / op.gas_limit) * 100);
}

/** Paid storage as a percentage of the storage limit. */
export function storagePercent(
  op: Pick<Operation, 'paid_storage_size_diff' | 'storage_limit'>,
): number | null {
  if (!op.storage_limit || op.storage_limit <= 0) return null;
  return Math.round(((op.paid_storage_size_diff ?? 0) / op.storage_limit) * 100);
}
