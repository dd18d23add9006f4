/** Pure helpers of the storage comparison (storage tab 'Compare', issue 21). */
import { formatNumber } from '../../shared/format/format';
import type { KeyChangeCounts, KeyChangeKind as KeyChange, MiguelNode } from '@michelscope/api-types';

/** A level typed or read from the URL: a whole number 0…2,147,483,647, else null. */
export function parseLevel(value: string | null | undefined): number | null {
  if (value == null) return null;
  const t = value.trim().replace(/[\s,_]/g, '');
  if (!/^\d{1,10}$/.test(t)) return null;
  const n = Number(t);
  return n <= 2147483647 ? n : null;
}

/** The two ends in ascending order (a user may pick them either way), or null when one is missing or equal. */
export function orderedEnds(a: number | null, b: number | null): { from: number; to: number } | null {
  if (a === null || b === null || a === b) return null;
  return a < b ? { from: a, to: b } : { from: b, to: a };
}

/**
 * Ends offered when Compare opens: the two newest levels at which the storage changed, or the one level
 * against the level before it; null without any.
 */
export function defaultEnds(changeLevels: readonly number[]): { from: number; to: number } | null {
  const sorted = [...new Set(changeLevels)].sort((x, y) => y - x);
  if (sorted.length === 0) return null;
  const to = sorted[0]!;
  return { from: sorted[1] ?? Math.max(0, to - 1), to };
}

/** Whether a diff tree has any change mark (create / update / delete) at any depth. */
export function hasChange(node: MiguelNode | null): boolean {
  if (!node) return false;
  if (node.diff_type) return true;
  return (node.children ?? []).some(hasChange);
}

export function totalChanges(c: KeyChangeCounts): number {
  return c.added + c.changed + c.removed;
}

export const CHANGE_LABEL: Record<KeyChange, string> = {
  added: 'Added',
  changed: 'Changed',
  removed: 'Removed',
};

/** "21–40 of 10,000" (en-US grouping). */
export function pageRange(page: number, size: number, count: number, total: number): string {
  if (total === 0 || count === 0) return `0 of ${total.toLocaleString('en-US')}`;
  const first = page * size + 1;
  return `${first.toLocaleString('en-US')}–${(first + count - 1).toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
}

/**
 * The contract's operations offered as ends, one per group (a group's contents share its hash and level),
 * mempool rows left out: "1,234 · transfer · ooAbc…".
 */
export function operationChoices(
  rows: ReadonlyArray<{ level: number; hash: string; entrypoint: string; kind: string; mempool?: boolean }>,
): Array<{ level: number; hash: string; text: string }> {
  const seen = new Set<string>();
  const out: Array<{ level: number; hash: string; text: string }> = [];
  for (const o of rows) {
    if (o.mempool || o.level <= 0 || seen.has(o.hash)) continue;
    seen.add(o.hash);
    out.push({
      level: o.level,
      hash: o.hash,
      text: `${formatNumber(o.level)} · ${o.entrypoint || o.kind} · ${o.hash.slice(0, 10)}…`,
    });
  }
  return out;
}
