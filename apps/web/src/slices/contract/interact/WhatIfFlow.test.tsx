// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { WhatIfRequest, WhatIfResult } from '@michelscope/api-types';
import { TEST_CONFIG } from '../../../app/testing/render-app';
import { AppConfigContext } from '../../../shared/config/app-config-context';
import { SWAP, SWAP_FLOW } from '../../operation/flow/flow.fixture';
import { WhatIfDialog } from './WhatIfDialog';

const request: WhatIfRequest = { calls: [{ name: 'swap', value: { int: '1000000000' } }] };
const result = {
  status: 'failed',
  calls: [
    {
      entrypoint: 'swap',
      status: 'backtracked',
      consumed_gas: 1300,
      consumed_milligas: 1_299_500,
      operations: [],
      events: [],
      balance_updates: [],
    },
  ],
  storage_before: { int: '1' },
  storage_after: { int: '1' },
  storage_diff: null,
  big_maps: [],
  balance_changes: [],
  inputs: {
    balance: '0',
    now: '2026-01-10T00:00:00Z',
    level: '40',
    chain_id: 'NetXdQprcVkpaWU',
    overridden: [],
  },
  flow: SWAP_FLOW,
} satisfies WhatIfResult;

afterEach(cleanup);

describe("a what-if's Flow section (issue 37)", () => {
  it('shows the flow graph of the answer when opened', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <AppConfigContext value={TEST_CONFIG}>
          <MemoryRouter>
            <WhatIfDialog
              open
              onClose={() => undefined}
              network="sandboxnet"
              address={SWAP}
              request={request}
              result={result}
            />
          </MemoryRouter>
        </AppConfigContext>
      </QueryClientProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'What-if result' });
    const section = within(dialog).getByRole('region', { name: 'Flow' });
    expect(within(section).queryByRole('table', { name: 'Flow edges' })).toBeNull();
    fireEvent.click(within(section).getByRole('button', { name: 'Show the flow graph' }));
    const table = await within(section).findByRole('table', { name: 'Flow edges' });
    expect(within(table).getAllByRole('row')).toHaveLength(SWAP_FLOW.edges.length + 1);
    expect(
      within(section).getByRole('button', { name: '#6 event swapped, FAILED, from Swap <b>pool</b>' }),
    ).toBeTruthy();
  });
});
