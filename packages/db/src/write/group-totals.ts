import type { OperationRow } from './block-data';

/**
 * Kinds the account operation-group page does not count in a group's totals (bcd-api.md §6.9): consensus
 * operations. Shared by the writer's group totals and the page's sums over rows written without them.
 */
export const UNCOUNTED_KINDS: readonly string[] = [
  'endorsement',
  'attestation',
  'preendorsement',
  'preattestation',
];

/**
 * Sets on every row of one block its operation group's totals (`group_cost` = Σ fee + Σ burned, `group_internals`
 * = internal rows), over the group's counted rows: a group is its rows of one hash and counter, or, without a
 * hash (made by the protocol), of the block's level and one counter. A group's rows are all in one block, so the
 * totals are final when the block is written. Rows that already have them are left as they are.
 */
export function setGroupTotals(rows: readonly OperationRow[]): void {
  // already set (prepareRows, ahead of the write: the rows do not change afterwards)
  if (rows.length === 0 || rows[0]!.group_cost !== undefined) return;
  const totals = new Map<string, { cost: number; internals: number }>();
  const keyOf = (r: OperationRow) => `${r.hash ?? ''}\n${r.counter ?? ''}`;
  for (const r of rows) {
    const key = keyOf(r);
    let t = totals.get(key);
    if (!t) totals.set(key, (t = { cost: 0, internals: 0 }));
    if (UNCOUNTED_KINDS.includes(r.kind)) continue;
    t.cost += r.fee + r.burned;
    if (r.internal) t.internals++;
  }
  for (const r of rows) {
    const t = totals.get(keyOf(r))!;
    r.group_cost = t.cost;
    r.group_internals = t.internals;
  }
}
