// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { WhatIfRequest, WhatIfResult } from '@michelscope/api-types';
import { TEST_CONFIG } from '../../../app/testing/render-app';
import { AppConfigContext } from '../../../shared/config/app-config-context';
import { formatLeaf } from '../../../shared/micheline/miguel-tree';
import { bigMapChangeTitle, WhatIfDialog } from './WhatIfDialog';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const request: WhatIfRequest = {
  calls: [{ name: 'default', value: { prim: 'Pair', args: [{ string: 'again' }, { int: '7' }] } }],
};

/** A what-if whose call replaced big map 7 (field `fresh`) by a new one holding 'again' → 7, as the API answers. */
const result = {
  status: 'applied',
  calls: [
    {
      entrypoint: 'default',
      status: 'applied',
      consumed_gas: 1300,
      consumed_milligas: 1_299_500,
      operations: [],
      events: [],
      balance_updates: [],
    },
  ],
  storage_before: { prim: 'Pair', args: [{ int: '1' }, { int: '7' }] },
  storage_after: { prim: 'Pair', args: [{ int: '2' }, { int: '-1' }] },
  storage_diff: {
    prim: 'pair',
    type: 'namedtuple',
    name: '@pair_1',
    children: [
      { prim: 'nat', type: 'nat', name: 'calls', value: '2', from: '1', diff_type: 'update' },
      {
        prim: 'big_map',
        type: 'big_map',
        name: 'fresh',
        diff_type: 'create',
        children: [{ prim: 'nat', type: 'nat', name: 'again', value: '7', diff_type: 'create' }],
      },
    ],
  },
  big_maps: [
    {
      ptr: -1,
      name: 'fresh',
      contract: KT,
      counts: { added: 1, changed: 0, removed: 0 },
      items: [
        {
          key_hash: 'exprv6UsC1sN3Fk2XfgcJCL8NCerP5rCGy1PRESZAqr7L2JdzX55EN',
          key: { prim: 'string', type: 'string', value: 'again' },
          key_string: 'again',
          change: 'added',
          value: { prim: 'nat', type: 'nat', value: '7', diff_type: 'create' },
        },
      ],
    },
  ],
  balance_changes: [],
  inputs: {
    balance: '0',
    now: '2026-01-10T00:00:00Z',
    level: '40',
    chain_id: 'NetXdQprcVkpaWU',
    overridden: [],
  },
} satisfies WhatIfResult;

afterEach(cleanup);

describe('a big map the what-if allocated (issue 33)', () => {
  it("is a 'new big map' with its keys, never its temporary id", async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <AppConfigContext value={TEST_CONFIG}>
          <MemoryRouter>
            <WhatIfDialog
              open
              onClose={() => undefined}
              network="sandboxnet"
              address={KT}
              request={request}
              result={result}
            />
          </MemoryRouter>
        </AppConfigContext>
      </QueryClientProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'What-if result' });
    // the storage diff: the field holds a new big map and its key
    const tree = within(dialog).getByRole('tree', { name: 'Storage diff' });
    const fresh = within(tree)
      .getAllByRole('treeitem')
      .find((item) => item.textContent?.startsWith('fresh'))!;
    expect(fresh.textContent).toContain('new big map · 1 key');
    expect(within(tree).getByText('again:')).toBeTruthy();
    // the big-map changes: named by the field, 'new big map'
    expect(within(dialog).getByRole('region', { name: 'fresh · new big map' })).toBeTruthy();
    expect(dialog.textContent).not.toMatch(/-1\b/);
  });

  it('names a change by its field and id, or new', () => {
    expect(bigMapChangeTitle({ ptr: -1, name: 'fresh', contract: KT }, KT)).toBe('fresh · new big map');
    expect(bigMapChangeTitle({ ptr: 7, name: 'notes' }, KT)).toBe('notes · Big Map 7');
    expect(bigMapChangeTitle({ ptr: -2, name: null, contract: 'KT1other' }, KT)).toBe(
      'big map · new big map · KT1other',
    );
    // a temporary id left in a tree reads as what it is
    expect(formatLeaf('big_map', -1)).toBe('new big map');
    expect(formatLeaf('big_map', 7)).toBe('7');
  });
});
