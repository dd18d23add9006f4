/**
 * The gas profile's layout (issue 20, capability 4): the flame graph's rectangles from the profile's frames
 * (each frame as wide as its gas, its children side by side under it), and the tables' sorting.
 */
import type { GasProfile } from '@michelscope/api-types';

export type ProfileFrame = GasProfile['frames'][number];
export type ProfileLine = GasProfile['lines'][number];

export interface FlameRect {
  /** index in `frames` */
  index: number;
  depth: number;
  /** left edge and width, as fractions of the graph's width */
  x: number;
  w: number;
}

/** The rectangles of the flame graph rooted at frame `root` (the whole graph: 0), parents above children. */
export function flameLayout(
  frames: readonly ProfileFrame[],
  root = 0,
): { rects: FlameRect[]; depth: number } {
  const children = new Map<number, number[]>();
  frames.forEach((f, i) => {
    if (f.parent >= 0) {
      const list = children.get(f.parent) ?? [];
      list.push(i);
      children.set(f.parent, list);
    }
  });
  const rects: FlameRect[] = [];
  const top = frames[root];
  if (!top || top.milligas <= 0) return { rects, depth: 0 };
  let depth = 0;
  const place = (i: number, d: number, x: number) => {
    const w = frames[i]!.milligas / top.milligas;
    rects.push({ index: i, depth: d, x, w });
    depth = Math.max(depth, d + 1);
    let cx = x;
    for (const c of children.get(i) ?? []) {
      place(c, d + 1, cx);
      cx += frames[c]!.milligas / top.milligas;
    }
  };
  place(root, 0, 0);
  return { rects, depth };
}

export type SortKey = 'row' | 'label' | 'steps' | 'milligas' | 'self_milligas';

/** Rows sorted by a column (ties keep the code order). */
export function sortRows<T extends { row?: number | undefined }>(
  rows: readonly T[],
  key: SortKey,
  dir: 'asc' | 'desc',
  value: (r: T, key: SortKey) => number | string,
): T[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = value(a, key);
    const vb = value(b, key);
    const c =
      typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
    return c !== 0 ? sign * c : (a.row ?? -1) - (b.row ?? -1);
  });
}

/** Gas units (milligas / 1000), up to three decimals. */
export const gasUnits = (milligas: number) =>
  (milligas / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 });

/** Share of the total, one decimal. */
export const share = (milligas: number, total: number) =>
  total > 0 ? `${((100 * milligas) / total).toFixed(1)}%` : '—';
