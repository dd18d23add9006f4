/**
 * Which option of the search box's list is active after a key (WAI-ARIA combobox pattern with a listbox
 * popup): -1 is "none, the text field", options are 0..count-1.
 */
export type ActiveMove = 'next' | 'previous' | 'pageNext' | 'pagePrevious';

/** How far PageDown / PageUp move the active option. */
export const PAGE_SIZE = 5;

/** The key of a keydown event as an active-option move, or null for any other key. */
export function moveOfKey(key: string): ActiveMove | null {
  switch (key) {
    case 'ArrowDown':
      return 'next';
    case 'ArrowUp':
      return 'previous';
    case 'PageDown':
      return 'pageNext';
    case 'PageUp':
      return 'pagePrevious';
    default:
      return null;
  }
}

/**
 * The active option after `move`: the arrows go round (down from the last option comes back to the first,
 * up from none goes to the last), the page keys stop at the ends.
 */
export function moveActive(active: number, count: number, move: ActiveMove): number {
  if (count <= 0) return -1;
  const last = count - 1;
  const current = Math.min(active, last);
  switch (move) {
    case 'next':
      return current >= last ? 0 : current + 1;
    case 'previous':
      return current <= 0 ? last : current - 1;
    case 'pageNext':
      return Math.min(last, current < 0 ? PAGE_SIZE - 1 : current + PAGE_SIZE);
    case 'pagePrevious':
      return current < 0 ? last : Math.max(0, current - PAGE_SIZE);
  }
}
