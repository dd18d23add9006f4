/** Pure rules of the operations tab (workspace spec §2 "Operations tab", §4 "Operation list", §5, §9). */
import type { OpgRow } from '../../api/opg-types';

/** The search box counts as narrow below 240 px. */
export const NARROW_SEARCH_PX = 240;
export const isNarrowSearch = (widthPx: number): boolean => widthPx < NARROW_SEARCH_PX;

/** Date filter minimum. */
export const MIN_DATE = '2018-06-30';
const DAY_MS = 86_400_000;

/** Statuses the search service accepts as filters. */
export const SEARCHABLE_STATUSES: readonly string[] = ['applied', 'failed', 'skipped', 'backtracked'];

/** Entrypoint cell: the kind, the entrypoint, or 'X and N calls' when the group has several. */
export function entrypointLabel(row: Pick<OpgRow, 'entrypoint' | 'kind'>): string {
  const names = row.entrypoint
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) return row.kind.replace(/_/g, ' ');
  if (names.length === 1) return names[0] as string;
  return `${names[0]} and ${names.length - 1} calls`;
}

/** A page shorter than the page size (or empty) ends the list. */
export const isLastPage = (pageLength: number, pageSize: number): boolean => pageLength < pageSize;

/** The flow column: positive is locked on the account, negative withdrawn, zero nothing. */
export function flowKind(flow: number): 'locked' | 'withdrawn' | null {
  if (flow > 0) return 'locked';
  if (flow < 0) return 'withdrawn';
  return null;
}

/**
 * The statuses to send to the search service: only applied, failed, skipped and backtracked. `null` means
 * no search should run (only other statuses were picked); [] means no status filter.
 */
export function searchStatuses(selected: readonly string[]): string[] | null {
  if (selected.length === 0) return [];
  const kept = selected.filter((s) => SEARCHABLE_STATUSES.includes(s));
  return kept.length === 0 ? null : kept;
}

/** Parses `YYYY-MM-DD` as a UTC day; null when invalid or outside [2018-06-30, today]. */
export function parseDay(value: string, now: number = Date.now()): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const t = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(t)) return null;
  if (t < Date.parse(`${MIN_DATE}T00:00:00Z`) || t > now) return null;
  return t;
}

/**
 * Date filter: two dates make a range that includes the whole end day (plus 24 h); a single date means
 * that day. Returns [from, to) in milliseconds, or null when no valid date is set.
 */
export function dateRange(
  from: string,
  to: string,
  now: number = Date.now(),
): { gte: number; lt: number } | null {
  const a = from ? parseDay(from, now) : null;
  const b = to ? parseDay(to, now) : null;
  if (a !== null && b !== null) {
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    return { gte: lo, lt: hi + DAY_MS };
  }
  const one = a ?? b;
  return one === null ? null : { gte: one, lt: one + DAY_MS };
}

/**
 * Mempool operations are merged into the list, newest first, only while no filter and no search is active
 * and the list already has operations.
 */
export function mergeMempool(
  rows: readonly OpgRow[],
  mempool: readonly OpgRow[],
  filtering: boolean,
): OpgRow[] {
  if (filtering || rows.length === 0 || mempool.length === 0) return [...rows];
  const known = new Set(rows.map((r) => r.hash));
  const pending = mempool
    .filter((m) => !known.has(m.hash))
    .sort((x, y) => Date.parse(y.timestamp) - Date.parse(x.timestamp));
  return [...pending, ...rows];
}

/** The identity of a row of the operations list. */
export const opgRowKey = (r: Pick<OpgRow, 'hash' | 'counter' | 'last_id'>): string =>
  `${r.hash}-${r.counter}-${r.last_id}`;

/** The list's pages with `rows` (newer than everything loaded) on top of the first page, none twice. */
export function prependNew(pages: readonly OpgRow[][], rows: readonly OpgRow[]): OpgRow[][] {
  const known = new Set(pages.flat().map(opgRowKey));
  const fresh = rows.filter((r) => !known.has(opgRowKey(r)));
  if (pages.length === 0) return [fresh];
  return [[...fresh, ...pages[0]!], ...pages.slice(1)];
}

/** The React key of a row of the list (a mempool row and the same group indexed are two rows). */
export const listRowKey = (r: OpgRow): string => `${r.mempool ? 'm' : ''}${opgRowKey(r)}`;

/**
 * Lists longer than this are virtualised (issue 36: only the rows near the viewport are in the DOM); shorter
 * ones, the server's first page among them, are plain lists.
 */
export const VIRTUALISE_ABOVE = 50;
/** A row's height (px) until it is measured: a row on a wide screen. */
export const ROW_ESTIMATE_PX = 66;
/** The space between two rows (px): the list's spacing 1. */
export const ROW_GAP_PX = 8;
/** Height of the app's sticky header (px): a list whose top is above it has been scrolled into. */
export const HEADER_PX = 64;

/** The indexes a virtual list renders: its window, plus `keep` (the row holding the focus) when outside it. */
export function withIndex(indexes: number[], keep: number): number[] {
  if (keep < 0 || indexes.includes(keep)) return indexes;
  return [...indexes, keep].sort((a, b) => a - b);
}

/**
 * Keyboard moves between the rows' toggles: ↓ / ↑ the next / previous row, Home / End the first / last
 * loaded row. The row `key` moves the focus to from row `index` of `count`, or null for another key.
 */
export function rowForKey(key: string, index: number, count: number): number | null {
  const to: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: count - 1 };
  const next = to[key];
  return next === undefined ? null : Math.max(0, Math.min(count - 1, next));
}
