// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DebugResult } from '@michelscope/api-types';
import type { Operation } from '../../../api/opg-types';
import { debugQuery, type DebugTarget } from '../../debugger/debug-target';
import { SimulationDialog } from './SimulationDialog';

afterEach(cleanup);

const target: DebugTarget = {
  network: 'sandboxnet',
  address: 'KT1GsxpLUNdUuWfs2J4B6S89HBcivSJQ7bh5',
  request: { name: 'decrement', data: { decrement: 5 } },
};

/** A failed simulation as the API answers it: the node reports no gas for a failed call. */
const failed = {
  kind: 'transaction',
  status: 'failed',
  destination: target.address,
  entrypoint: 'decrement',
  gas_limit: 1_040_000,
  storage_limit: 60_000,
  errors: [
    { id: 'proto.024-PtTALLiN.michelson_v1.script_rejected', kind: 'temporary', title: 'Script failed' },
  ],
} as unknown as Operation;

describe('SimulationDialog: the gas of a failed call (issue 33)', () => {
  it('shows what the debugger ran before FAILWITH, not "0 (0%)"', () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(debugQuery(target).queryKey, {
      status: 'failed',
      consumed_milligas: 20_028,
      gas_limit: 1_040_000_000,
      failure: { kind: 'script_rejected', message: 'script rejected' },
    } as unknown as DebugResult);
    render(
      <QueryClientProvider client={client}>
        <SimulationDialog open onClose={() => {}} ops={[failed]} network="sandboxnet" debug={target} />
      </QueryClientProvider>,
    );
    const totals = screen.getByLabelText('Simulation totals');
    expect(totals.textContent).toContain('ran 20.028 gas before FAILWITH');
    expect(totals.textContent).not.toContain('0 (0%)');
    // the operation's row: no gas figure rather than 0 (its consumed gas cell is the fifth)
    const row = screen.getByRole('table', { name: 'Simulated operations' }).querySelectorAll('tbody tr')[0]!;
    expect(row.querySelectorAll('td')[4]!.textContent).toBe('—');
  });
});
