import { describe, expect, it } from 'vitest';
import { flameLayout, sortRows, type ProfileFrame } from './profile-logic';

const frame = (parent: number, label: string, milligas: number): ProfileFrame => ({
  parent,
  label,
  kind: parent < 0 ? 'operation' : 'block',
  milligas,
  self_milligas: 0,
  steps: 1,
});

describe('flameLayout', () => {
  const frames = [
    frame(-1, 'operation', 1000),
    frame(0, 'parsing', 200),
    frame(0, 'code', 800),
    frame(2, '%transfer', 600),
    frame(3, 'LOOP body', 300),
  ];
  it('each frame as wide as its gas, children side by side under their parent', () => {
    const { rects, depth } = flameLayout(frames);
    expect(depth).toBe(4);
    const at = (label: string) => rects.find((r) => frames[r.index]!.label === label)!;
    expect(at('operation')).toMatchObject({ depth: 0, x: 0, w: 1 });
    expect(at('parsing')).toMatchObject({ depth: 1, x: 0, w: 0.2 });
    expect(at('code')).toMatchObject({ depth: 1, x: 0.2, w: 0.8 });
    expect(at('%transfer')).toMatchObject({ depth: 2, x: 0.2 });
    expect(at('LOOP body').w).toBeCloseTo(0.3);
  });
  it('zoomed into a frame: it is the whole width, its ancestors and siblings are gone', () => {
    const { rects } = flameLayout(frames, 3);
    expect(rects.map((r) => [frames[r.index]!.label, r.depth, r.w])).toEqual([
      ['%transfer', 0, 1],
      ['LOOP body', 1, 0.5],
    ]);
  });
});

describe('sortRows', () => {
  it('by a number column, either way, ties in code order', () => {
    const rows = [
      { row: 3, milligas: 5 },
      { row: 1, milligas: 9 },
      { row: 2, milligas: 5 },
    ];
    const v = (r: { row: number; milligas: number }, k: string) => (k === 'row' ? r.row : r.milligas);
    expect(sortRows(rows, 'milligas', 'desc', v).map((r) => r.row)).toEqual([1, 2, 3]);
    expect(sortRows(rows, 'milligas', 'asc', v).map((r) => r.row)).toEqual([2, 3, 1]);
    expect(sortRows(rows, 'row', 'asc', v).map((r) => r.row)).toEqual([1, 2, 3]);
  });
});
