// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { BackfillProgress, backfillLine } from './BackfillProgress';

afterEach(cleanup);

describe('BackfillProgress: a network’s history backfill on its page (issue 32)', () => {
  it('says how many contracts and levels, as text and as an accessible progress bar', () => {
    render(
      <BackfillProgress
        summary={{ pending: 1, running: 1, done: 0, failed: 0, levels_done: 340, levels_total: 1200 }}
      />,
    );
    expect(
      screen.getByText('History backfill: 2 contracts, 340 of 1,200 levels · 1 running, 1 waiting'),
    ).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: /History backfill: 2 contracts/ });
    expect(Math.round(Number(bar.getAttribute('aria-valuenow')))).toBe(28);
    expect(bar.getAttribute('aria-valuetext')).toBe('340 of 1,200 levels');
  });

  it('a complete backfill, a paused one, and one level in all', () => {
    expect(
      backfillLine({ pending: 0, running: 0, done: 3, failed: 0, levels_done: 90, levels_total: 90 }),
    ).toBe('History backfill: 3 contracts, 90 of 90 levels (complete)');
    expect(
      backfillLine({ pending: 0, running: 0, done: 0, failed: 1, levels_done: 0, levels_total: 1 }),
    ).toBe('History backfill: 1 contract, 0 of 1 level · 1 paused');
  });
});
