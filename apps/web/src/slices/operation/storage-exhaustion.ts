/**
 * Storage exhaustion (issue 20, "Why did it fail"): the limit, the bytes the call needed and what made them,
 * from a node's receipt (a simulation's operations) or the debugger's replay. Octez counts the paid storage
 * growth of every contract plus 257 bytes for each new contract or account (reference §6.10), checks it once the
 * call applied, and backtracks the call with `storage_exhausted.operation` when it passes the limit.
 */
import type { DebugResult } from '@michelscope/api-types';
import type { Operation } from '../../api/opg-types';

export type StorageFigures = NonNullable<NonNullable<DebugResult['failure']>['storage']>;

/** Bytes Octez counts for each originated contract or allocated implicit account. */
export const ALLOCATION_BYTES = 257;

const int = (n: number) => n.toLocaleString('en-US');

/** The error id of a storage exhaustion (`proto.<protocol>.storage_exhausted.operation`). */
export const isStorageExhausted = (id: string) => id.endsWith('storage_exhausted.operation');

/**
 * A simulated operation and its internal operations that ran out of storage → the limit (the main operation's
 * storage_limit), the use (paid growth of each contract + 257 bytes per allocation) and which contracts grew.
 * Null when no operation failed for storage.
 */
export function storageExhaustion(ops: readonly Operation[]): StorageFigures | null {
  const main = ops[0];
  if (!main || !ops.some((o) => o.errors?.some((e) => isStorageExhausted(e.id)))) return null;
  const grew = new Map<string, number>();
  let allocations = 0;
  for (const o of ops) {
    if (o.status === 'skipped') continue;
    const paid = o.paid_storage_size_diff ?? 0;
    // an origination's destination is the contract it originated
    if (paid > 0 && o.destination) grew.set(o.destination, (grew.get(o.destination) ?? 0) + paid);
    if (o.allocated_destination_contract || o.kind === 'origination') allocations++;
  }
  let used = allocations * ALLOCATION_BYTES;
  for (const b of grew.values()) used += b;
  return {
    limit: main.storage_limit ?? 0,
    used,
    contracts: [...grew].map(([address, paid_storage_size_diff]) => ({ address, paid_storage_size_diff })),
    allocations,
  };
}

/** "limit L bytes, used U bytes · grew: KT1… (+N bytes) · k new contract(s) or account(s), 257 bytes each". */
export function storageExhaustionText(s: StorageFigures): string {
  return (
    `limit ${int(s.limit)} bytes, used ${int(s.used)} bytes` +
    (s.contracts.length
      ? ` · grew: ${s.contracts.map((c) => `${c.address} (+${int(c.paid_storage_size_diff)} bytes)`).join(', ')}`
      : '') +
    (s.allocations ? ` · ${s.allocations} new contract(s) or account(s), ${ALLOCATION_BYTES} bytes each` : '')
  );
}
