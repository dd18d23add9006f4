// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { OriginationSimulationResult } from './OriginationSimulationResult';

afterEach(cleanup);

describe('deploy wizard: simulated origination', () => {
  it('shows consumed gas and paid storage with their share of the limits, and the limits', () => {
    render(
      <OriginationSimulationResult
        result={{
          status: 'applied',
          consumedGas: 52_000,
          gasLimit: 1_040_000,
          storageLimit: 60_000,
          storageSize: 1_500,
          paidStorageSizeDiff: 1_500,
          burned: (1_500 + 257) * 250,
          originated: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
          errors: [],
        }}
      />,
    );
    const row = (name: string) => screen.getByRole('rowheader', { name }).closest('tr') as HTMLElement;
    expect(within(row('Consumed gas')).getByText('52,000 (5% of the limit)')).toBeTruthy();
    expect(within(row('Paid storage diff')).getByText('1,500 bytes (2.5% of the limit)')).toBeTruthy();
    expect(within(row('Gas limit')).getByText('1,040,000')).toBeTruthy();
    expect(within(row('Storage limit')).getByText('60,000 bytes')).toBeTruthy();
    expect(within(row('Burned')).getByText('0.43925 ꜩ')).toBeTruthy();
  });

  it("says where it ran: 'Simulated at level N' and its block time; a link's older level, with 'Rerun at head'", () => {
    const result = {
      status: 'applied',
      consumedGas: 1,
      gasLimit: 0,
      storageLimit: 0,
      storageSize: 41,
      paidStorageSizeDiff: 41,
      burned: 0,
      originated: null,
      errors: [],
      at: { level: 1_040, head_level: 1_040, changed_since: false },
      time: '2026-11-27T03:00:00Z',
    };
    const { rerender } = render(<OriginationSimulationResult result={result} />);
    expect(screen.getByLabelText('Simulated at').textContent).toBe('Simulated at level 1,040');
    expect(screen.queryByLabelText('Head moved')).toBeNull();
    const row = screen.getByRole('rowheader', { name: 'Block time' }).closest('tr') as HTMLElement;
    expect(within(row).getByText('2026-11-27T03:00:00Z')).toBeTruthy();
    const rerun = vi.fn();
    rerender(
      <OriginationSimulationResult
        result={{ ...result, at: { level: 1_040, head_level: 1_052, changed_since: false } }}
        onRerunAtHead={rerun}
      />,
    );
    expect(screen.getByLabelText('Head moved').textContent).toContain(
      'The head has moved to level 1,052. This result is the run at level 1,040 (its level and time), as the link was made.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Rerun at head' }));
    expect(rerun).toHaveBeenCalledTimes(1);
  });
});
