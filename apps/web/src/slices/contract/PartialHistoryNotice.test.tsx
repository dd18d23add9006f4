// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { PartialHistoryNotice } from './ContractFrame';

afterEach(cleanup);

describe('PartialHistoryNotice: the history backfill’s progress (issue 32)', () => {
  it('says how many levels of the history were read, as text and as an accessible progress bar', () => {
    render(<PartialHistoryNotice level={1234} history={{ state: 'running', done: 340, total: 1200 }} />);
    expect(screen.getByText('History: 340 of 1,200 levels')).toBeTruthy();
    const bar = screen.getByRole('progressbar');
    expect(Math.round(Number(bar.getAttribute('aria-valuenow')))).toBe(28);
    expect(bar.getAttribute('aria-valuetext')).toBe('340 of 1,200 levels');
    expect(bar.getAttribute('aria-labelledby')).toBe('history-progress-label');
  });

  it('a total not known yet: levels read, no bar; a paused backfill says why', () => {
    render(
      <PartialHistoryNotice
        level={50}
        history={{ state: 'failed', done: 7, total: null, message: 'bcd: HTTP 503' }}
      />,
    );
    expect(
      screen.getByText(/History: 7 levels read — paused \(bcd: HTTP 503\), retried shortly/),
    ).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('without a backfill: the note alone', () => {
    render(<PartialHistoryNotice level={50} />);
    expect(screen.getByRole('status').textContent).toContain('History before level 50 is not indexed yet');
    expect(screen.queryByText(/levels/)).toBeNull();
  });
});
