// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
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
});
