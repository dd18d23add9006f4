// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { MiguelNode } from '../../api/contract-types';
import { NotificationsProvider } from '../../features/notifications/NotificationsProvider';
import { stubLayoutBox } from '../../app/testing/layout-box';
import { TEST_CONFIG } from '../../app/testing/render-app';
import { AppConfigContext } from '../config/app-config-context';
import { MiguelTree } from './MiguelTree';

/** Miguel trees as the API writes them (typed by api-types). */
const miguel = (nodes: MiguelNode[]): MiguelNode[] => nodes;

beforeEach(stubLayoutBox);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderTree(roots: MiguelNode[]) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <MiguelTree
          roots={roots}
          label="Storage"
          network="mainnet"
          address="KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton"
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const bigList = (n: number) =>
  miguel([
    {
      prim: 'list',
      type: 'list',
      name: 'ledger',
      children: Array.from({ length: n }, (_, i) => ({
        prim: 'nat',
        type: 'nat',
        name: `@nat_${i}`,
        value: String(i * 1000),
      })),
    },
  ]);

describe('MiguelTree', () => {
  // Speed is measured in bench/, not asserted here: this checks the tree is virtualised.
  it('renders a 10,000-node tree with only the visible rows in the DOM', () => {
    const roots = bigList(10_000);
    renderTree(roots);
    const items = within(screen.getByRole('tree', { name: 'Storage' })).queryAllByRole('treeitem');
    expect(items.length).toBeGreaterThan(10);
    expect(items.length).toBeLessThan(200);
    expect(items[0]?.getAttribute('aria-setsize')).toBe('1');
    expect(items[1]?.getAttribute('aria-setsize')).toBe('10000');
  });

  it('toggles a pair of a 10,000-node tree: its fields go and come back, the rows after it move', async () => {
    const roots = miguel([
      {
        prim: 'list',
        type: 'list',
        name: 'entries',
        children: Array.from({ length: 3333 }, (_, i) => ({
          prim: 'pair',
          type: 'pair',
          name: '@pair_1',
          children: [
            { prim: 'nat', type: 'nat', name: 'a', value: String(i * 1000) },
            { prim: 'nat', type: 'nat', name: 'b', value: String(i) },
          ],
        })),
      },
    ]);
    renderTree(roots);
    const tree = screen.getByRole('tree', { name: 'Storage' });
    const shown = () =>
      within(tree)
        .getAllByRole('treeitem')
        .slice(0, 6)
        .map((r) => `${r.getAttribute('aria-level')} ${r.textContent}`);
    expect(shown()).toEqual(['1 entries3,333 items', '2 0', '3 a:0', '3 b:0', '2 1', '3 a:1,000']);
    // the first pair closed with the mouse: the next pair's rows move up
    fireEvent.click(within(tree).getAllByRole('treeitem')[1]!);
    await waitFor(() =>
      expect(shown()).toEqual(['1 entries3,333 items', '2 0', '2 1', '3 a:1,000', '3 b:1', '2 2']),
    );
    expect(within(tree).getAllByRole('treeitem')[1]!.getAttribute('aria-expanded')).toBe('false');
    // and opened again with the keyboard
    fireEvent.keyDown(tree, { key: 'ArrowDown' });
    fireEvent.keyDown(tree, { key: 'ArrowRight' });
    await waitFor(() =>
      expect(shown()).toEqual(['1 entries3,333 items', '2 0', '3 a:0', '3 b:0', '2 1', '3 a:1,000']),
    );
    // the list closed and opened: every pair open as before
    fireEvent.click(within(tree).getAllByRole('treeitem')[0]!);
    await waitFor(() => expect(within(tree).getAllByRole('treeitem')).toHaveLength(1));
    fireEvent.click(within(tree).getAllByRole('treeitem')[0]!);
    await waitFor(() =>
      expect(shown()).toEqual(['1 entries3,333 items', '2 0', '3 a:0', '3 b:0', '2 1', '3 a:1,000']),
    );
    expect(within(tree).getAllByRole('treeitem')[4]!.getAttribute('aria-posinset')).toBe('2');
  });

  it('is operable by keyboard: arrows move, Left closes, Right opens, End reaches the last row', async () => {
    renderTree(bigList(100));
    const tree = screen.getByRole('tree', { name: 'Storage' });
    const first = within(tree).getAllByRole('treeitem')[0] as HTMLElement;
    expect(first.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(tree, { key: 'End' });
    await waitFor(() =>
      expect(tree.querySelector('[aria-selected="true"]')?.textContent).toContain('99,000'),
    );
    fireEvent.keyDown(tree, { key: 'Home' });
    fireEvent.keyDown(tree, { key: 'ArrowLeft' });
    await waitFor(() => expect(within(tree).getAllByRole('treeitem')).toHaveLength(1));
    expect(within(tree).getByRole('treeitem').getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(tree, { key: 'ArrowRight' });
    await waitFor(() => expect(within(tree).getAllByRole('treeitem').length).toBeGreaterThan(1));
  });

  it('renders untrusted strings as text, never as HTML', () => {
    renderTree(
      miguel([{ prim: 'string', type: 'string', name: 'x', value: '<img src=x onerror=alert(1)>' }]),
    );
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
  });

  it('opens the value inspector on a leaf with the links its value allows', async () => {
    const cid = 'QmNrhZHUaEqxhyLfqoq1mtHSipkWHeT31LNHb1QEbDHgnc';
    render(
      <AppConfigContext value={{ ...TEST_CONFIG, ipfs_gateway: 'https://gw.example' }}>
        <NotificationsProvider>
          <QueryClientProvider client={new QueryClient()}>
            <MemoryRouter>
              <MiguelTree
                roots={miguel([{ prim: 'string', type: 'string', name: 'artifact', value: `ipfs://${cid}` }])}
                label="Storage"
                network="mainnet"
              />
            </MemoryRouter>
          </QueryClientProvider>
        </NotificationsProvider>
      </AppConfigContext>,
    );
    fireEvent.click(screen.getByText(`ipfs://${cid}`));
    const dialog = await screen.findByRole('dialog', { name: 'Inspect: artifact' });
    expect(within(dialog).getByLabelText('Value').textContent).toBe(`ipfs://${cid}`);
    const ipfs = within(dialog).getByRole('link', { name: 'View IPFS' });
    expect(ipfs.getAttribute('href')).toBe(`https://gw.example/ipfs/${cid}`);
    expect(within(dialog).queryByRole('link', { name: 'View Storage' })).toBeNull();
  });
});
