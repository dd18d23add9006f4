// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  jsonSchema,
  scriptSection,
  toMiguel,
  typedef,
  type Micheline,
  type MiguelNode,
} from '@michelscope/michelson';
import { renderApp } from '../../app/testing/render-app';
import { anyQueryRoute, mockFetch, resourceRoute } from '../../app/testing/mock-fetch';
import { contractFrame } from '../../app/testing/contract-page';
import { SHARED_DIR, hasShared } from '../operation/testing/rpc-group';
import { levelFromQuery, versionLevels } from './StorageTab';

// hic et nunc OBJKT FA2 (mainnet): storage with big maps.
const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const read = (file: string): Micheline =>
  JSON.parse(readFileSync(path.join(SHARED_DIR, 'fixtures/contracts', KT, file), 'utf8')) as Micheline;

/** The big map pointers of a Miguel tree. */
const bigMapPointers = (nodes: MiguelNode[]): number[] =>
  nodes.flatMap((n) => [
    ...(n.prim === 'big_map' && typeof n.value === 'number' ? [n.value] : []),
    ...bigMapPointers(n.children ?? []),
  ]);

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('storage version helpers', () => {
  it('reads ?level= strictly', () => {
    expect([levelFromQuery('42'), levelFromQuery('0'), levelFromQuery('x'), levelFromQuery(null)]).toEqual([
      42,
      null,
      null,
      null,
    ]);
  });
  it('lists the selected level with the levels at which the storage changed, newest first', () => {
    expect(versionLevels(100, [200, 50, 0])).toEqual([200, 100, 50]);
    expect(versionLevels(50, [200, 50])).toEqual([200, 50]);
    expect(versionLevels(null, [])).toEqual([]);
  });
});

describe.skipIf(!hasShared)('storage tab over a real contract', () => {
  if (!hasShared) console.warn('skipping the storage tab tests: ../shared/fixtures is absent');

  function routes() {
    const code = hasShared ? read('code.json') : [];
    const storageType = scriptSection(code, 'storage') as Micheline;
    const roots = toMiguel(storageType, read('storage.json'));
    const at = { network: 'mainnet', address: KT };
    return mockFetch([
      ...contractFrame('mainnet', KT, {
        account: { last_action: '2021-03-01T00:00:00Z' },
        contract: { tags: ['fa2'], entrypoints: [] },
      }),
      resourceRoute(
        'storageSchema',
        { ...at, fillType: null },
        { name: 'default', typedef: typedef(storageType) ?? [], schema: jsonSchema(storageType) },
      ),
      resourceRoute('migrations', at, [
        {
          level: 1_589_247,
          timestamp: '2021-08-06T00:00:00Z',
          protocol: 'PtGRANAD',
          prev_protocol: 'PsFLoren',
          kind: 'update',
        },
      ]),
      resourceRoute('storageLevels', at, [
        { level: 1_600_100, timestamp: '2021-08-10T00:00:00Z' },
        { level: 1_589_247, timestamp: '2021-08-06T00:00:00Z' },
        { level: 1_365_242, timestamp: '2021-03-01T00:00:00Z' },
      ]),
      anyQueryRoute('storageRaw', { ...at, level: null }, 'Pair (Pair "tz1…" 1) {}'),
      anyQueryRoute('storageRich', { ...at, level: null }, { prim: 'Pair', args: [] }),
      // the storage at any level (?level=N)
      anyQueryRoute('storage', { ...at, level: null }, roots),
      // each big map of the storage holds 7 keys
      ...bigMapPointers(roots).map((ptr) =>
        resourceRoute('bigMapCount', { network: 'mainnet', ptr }, { count: 7 }),
      ),
    ]);
  }

  it('shows the storage tree with big map links, the type panel and mirrors the version in the query', async () => {
    const mock = routes();
    const { router } = renderApp(`/mainnet/${KT}/storage`);
    const tree = await screen.findByRole('tree', { name: 'Storage' });
    const items = within(tree).getAllByRole('treeitem');
    expect(items.length).toBeGreaterThan(3);
    const bigMapLinks = await within(tree).findAllByRole('link', { name: /^Big Map \d+/ });
    expect(bigMapLinks[0]?.getAttribute('href')).toMatch(
      new RegExp(`^/mainnet/${KT}/storage/big_map/\\d+/keys$`),
    );
    await waitFor(() => expect(within(tree).getAllByText(/7 keys/).length).toBeGreaterThan(0));
    expect(screen.getByRole('region', { name: 'Storage type' }).textContent).toContain('big_map');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Version' }));
    await screen.findByRole('option', { name: 'At 1,589,247' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Latest',
      'At 1,600,100',
      'At 1,589,247',
      'At 1,365,242',
    ]);
    fireEvent.click(screen.getByRole('option', { name: 'At 1,589,247' }));
    await waitFor(() => expect(router.state.location.search).toBe('?level=1589247'));
    await waitFor(() =>
      expect(mock.callsTo(`GET /v1/contract/mainnet/${KT}/storage?level=1589247`)).toHaveLength(1),
    );
    expect(screen.getByRole('navigation', { name: 'Storage path' }).textContent).toBe(
      'Storage / At 1,589,247',
    );
  });

  it('switches to Micheline and opens the full dump', async () => {
    const mock = routes();
    renderApp(`/mainnet/${KT}/storage`);
    await screen.findByRole('tree', { name: 'Storage' });
    fireEvent.click(screen.getByRole('button', { name: 'Micheline' }));
    expect((await screen.findByLabelText('Storage in Micheline')).textContent).toContain('Pair');
    fireEvent.click(screen.getByRole('button', { name: 'Full dump' }));
    await waitFor(() => expect(screen.getByTestId('raw-json').textContent).toContain('"prim": "Pair"'));
    expect(mock.callsTo(`GET /v1/contract/mainnet/${KT}/storage/rich`)).toHaveLength(1);
  });
});
