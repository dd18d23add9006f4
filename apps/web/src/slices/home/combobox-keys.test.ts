import { describe, expect, it } from 'vitest';
import { moveActive, moveOfKey } from './combobox-keys';

describe('search box: the active option after a key', () => {
  it('goes down from the text field to the first option and round from the last', () => {
    expect(moveActive(-1, 3, 'next')).toBe(0);
    expect(moveActive(0, 3, 'next')).toBe(1);
    expect(moveActive(2, 3, 'next')).toBe(0);
  });

  it('goes up from the text field to the last option and round from the first', () => {
    expect(moveActive(-1, 3, 'previous')).toBe(2);
    expect(moveActive(2, 3, 'previous')).toBe(1);
    expect(moveActive(0, 3, 'previous')).toBe(2);
  });

  it('pages by five, stopping at the ends', () => {
    expect(moveActive(-1, 10, 'pageNext')).toBe(4);
    expect(moveActive(4, 10, 'pageNext')).toBe(9);
    expect(moveActive(9, 10, 'pageNext')).toBe(9);
    expect(moveActive(7, 10, 'pagePrevious')).toBe(2);
    expect(moveActive(2, 10, 'pagePrevious')).toBe(0);
  });

  it('has nothing to activate in an empty list, and clamps a stale index', () => {
    expect(moveActive(-1, 0, 'next')).toBe(-1);
    expect(moveActive(5, 0, 'previous')).toBe(-1);
    expect(moveActive(7, 3, 'previous')).toBe(1);
  });

  it('reads the arrow and page keys, nothing else', () => {
    expect(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Enter', 'Home'].map(moveOfKey)).toEqual([
      'next',
      'previous',
      'pageNext',
      'pagePrevious',
      null,
      null,
    ]);
  });
});
