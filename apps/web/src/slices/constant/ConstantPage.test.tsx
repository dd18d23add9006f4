// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../app/testing/render-app';
import type { Contract, GlobalConstant } from '@michelscope/api-types';
import { mockFetch, resourceRoute } from '../../app/testing/mock-fetch';

const EXPR = 'exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC';
const KT = (c: string) => `KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXit${c}`;
const CONSTANT: GlobalConstant = {
  timestamp: '2022-04-01T10:00:00Z',
  level: 2_244_609,
  address: EXPR,
  value: [{ prim: 'DROP' }, { prim: 'PUSH', args: [{ prim: 'nat' }, { int: '1' }] }],
  code: '{ DROP ;\n  PUSH nat 1 }',
};
const contract = (c: string): Contract => ({
  id: 1,
  network: 'mainnet',
  level: 1,
  timestamp: '2022-05-01T10:00:00Z',
  address: KT(c),
  last_action: '2022-06-01T10:00:00Z',
  tags: ['fa2'],
});
const page = { size: 10, offset: 0 };

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('global constant page', () => {
  it('shows the code, the info and the referencing contracts (alias cut at 24)', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const net = mockFetch([
      resourceRoute('constantContracts', { network: 'mainnet', address: EXPR, ...page }, [
        contract('1'),
        contract('2'),
      ]),
      resourceRoute('globalConstant', { network: 'mainnet', address: EXPR }, CONSTANT),
      // the API's contracts carry no alias: the alias service names them
      resourceRoute(
        'accountAliases',
        { network: 'mainnet', address: KT('1') },
        { TzKT: { Name: 'The Rarible FA2 NFT collection' } },
      ),
      // nor the second: 204
      resourceRoute(
        'accountAliases',
        { network: 'mainnet', address: KT('2') },
        new Response(null, { status: 204 }),
      ),
    ]);
    renderApp(`/constant/mainnet/${EXPR}`);
    expect(await screen.findByRole('heading', { name: 'Global constant', level: 1 })).toBeTruthy();
    const code = await screen.findByLabelText('Michelson code');
    expect(code.textContent).toBe('{ DROP ;\n  PUSH nat 1 }');
    const info = screen.getByRole('region', { name: 'Info' });
    expect(within(info).getByText(EXPR)).toBeTruthy();
    expect(within(info).getByText('2,244,609')).toBeTruthy();
    const refs = screen.getByRole('region', { name: 'Referenced contracts' });
    expect(await within(refs).findByRole('link', { name: 'The Rarible FA2 NFT coll…' })).toBeTruthy();
    expect(within(refs).getAllByRole('row')).toHaveLength(3);
    expect(net.callsTo('GET /v1/global_constants/mainnet/' + EXPR + '/contracts')[0]?.url).toContain(
      'size=10&offset=0',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(CONSTANT.code));
    fireEvent.click(screen.getByRole('button', { name: 'Raw JSON' }));
    const dialog = await screen.findByRole('dialog');
    expect(JSON.parse(within(dialog).getByTestId('raw-json').textContent ?? '')).toEqual(CONSTANT.value);
  });

  it("says 'There are no references to this constant' when nothing uses it", async () => {
    mockFetch([
      resourceRoute('constantContracts', { network: 'mainnet', address: EXPR, ...page }, []),
      resourceRoute('globalConstant', { network: 'mainnet', address: EXPR }, CONSTANT),
    ]);
    renderApp(`/constant/mainnet/${EXPR}`);
    expect(await screen.findByText('There are no references to this constant')).toBeTruthy();
  });

  it('shows the error state for an unknown constant', async () => {
    const notFound = Response.json({ message: 'not found' }, { status: 404 });
    mockFetch([
      resourceRoute('globalConstant', { network: 'mainnet', address: EXPR }, notFound),
      resourceRoute('constantContracts', { network: 'mainnet', address: EXPR, ...page }, notFound),
    ]);
    renderApp(`/constant/mainnet/${EXPR}`);
    expect(await screen.findByRole('heading', { name: "This wasn't planned" })).toBeTruthy();
    expect(screen.getAllByText('not found').length).toBeGreaterThan(0);
  });
});
