// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../../app/testing/render-app';
import { mockFetch, resourceRoute } from '../../../app/testing/mock-fetch';
import { operation } from '../../../app/testing/contract-page';
import { SWAP, SWAP_FLOW, USER } from './flow.fixture';

const HASH = 'onq5z62MJf7WvHva6PdpSBC645NzQzt7M2xL43e9NpwpPvA6Lrp';
const at = { network: 'sandboxnet', hash: HASH };
const group = [
  operation('sandboxnet', { hash: HASH, source: USER, destination: SWAP, entrypoint: 'swap', id: 1 }),
];

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

describe('the operation flow view (issue 37)', () => {
  it('keeps the operations list as the default view and asks for no flow until Flow opens', async () => {
    const flow = resourceRoute('opgFlow', at, SWAP_FLOW);
    const mock = mockFetch([resourceRoute('opg', at, group), flow]);
    renderApp(`/sandboxnet/opg/${HASH}/contents`);
    expect(await screen.findAllByRole('article')).toHaveLength(1);
    const tabs = screen.getByRole('tablist', { name: 'Group views' });
    expect(within(tabs).getByRole('tab', { name: 'Operations', selected: true })).toBeTruthy();
    expect(mock.callsOf(flow)).toHaveLength(0);
    fireEvent.click(within(tabs).getByRole('tab', { name: 'Flow' }));
    expect(await screen.findByRole('table', { name: 'Flow edges' })).toBeTruthy();
    expect(mock.callsOf(flow)).toHaveLength(1);
    expect(screen.queryAllByRole('article')).toHaveLength(0);
  });

  it('lists every edge, token and ticket in the table, decimals applied, with the failed marks', async () => {
    mockFetch([resourceRoute('opg', at, group), resourceRoute('opgFlow', at, SWAP_FLOW)]);
    renderApp(`/sandboxnet/opg/${HASH}/contents?view=flow`);
    const table = await screen.findByRole('table', { name: 'Flow edges' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['#', 'From', 'To', 'Entrypoint', 'Amount', 'Tokens', 'Tickets', 'Status']);
    expect(rowsOf(table)).toEqual([
      ['1', 'tz1VSUr…jcjb', 'Swap <b>pool</b>', 'swap', '—', '—', '—', 'applied'],
      [
        '2',
        'Swap <b>pool</b>',
        'KT1PWx2…Xitn',
        'transfer',
        '—',
        '1 tzBTC tz1VSUr…jcjb → Swap <b>pool</b>',
        '—',
        'applied',
      ],
      [
        '3',
        'Swap <b>pool</b>',
        'KT1XnTn…WR8o',
        'transfer',
        '—',
        '1,002 USDt Swap <b>pool</b> → tz1VSUr…jcjb',
        '—',
        'applied',
      ],
      ['4', 'Swap <b>pool</b>', 'tz1VSUr…jcjb', 'transfer', '1.5 ꜩ', '—', '—', 'applied'],
      [
        '5',
        'Swap <b>pool</b>',
        'KT1TxqZ…pQU5',
        'mint',
        '—',
        '—',
        '+5 ticket "demo" of KT1TxqZ…pQU5 for tz1VSUr…jcjb',
        'backtracked',
      ],
      ['6', 'Swap <b>pool</b>', '—', 'event swapped', '—', '—', '—', 'failed'],
    ]);
    // the alias is text: no element made of it
    expect(table.querySelector('b')).toBeNull();
    // links only to the accounts' pages
    const links = within(table).getAllByRole('link');
    expect(new Set(links.map((l) => l.getAttribute('href')))).toEqual(
      new Set(SWAP_FLOW.nodes.map((n) => `/sandboxnet/${n.address}/operations`)),
    );
    const balances = screen.getByRole('table', { name: 'Flow balance changes' });
    expect(
      within(balances)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Account', 'Kind', 'Tags', 'Tez', 'Tokens', 'Tickets']);
    expect(rowsOf(balances).slice(0, 2)).toEqual([
      ['tz1VSUr…jcjb', 'account', '—', '+1.5 ꜩ', '−1 tzBTC+1,002 USDt', '—'],
      ['Swap <b>pool</b>', 'contract', 'view_nat', '−1.5 ꜩ', '+1 tzBTC−1,002 USDt', '—'],
    ]);
  });

  it('draws the graph focusable in execution order; a failed edge is dashed and says so; focus shows the parameter', async () => {
    mockFetch([resourceRoute('opg', at, group), resourceRoute('opgFlow', at, SWAP_FLOW)]);
    renderApp(`/sandboxnet/opg/${HASH}/contents?view=flow`);
    const region = await screen.findByRole('region', { name: 'Flow graph' });
    const focusable = [...region.querySelectorAll<SVGElement>('svg [tabindex="0"]')];
    expect(focusable.map((f) => f.getAttribute('aria-label'))).toEqual([
      'tz1VSUr…jcjb, account, changes +1.5 ꜩ, −1 tzBTC, +1,002 USDt',
      'Swap <b>pool</b> (KT1RJ6P…xton), contract, tags view_nat, changes −1.5 ꜩ, +1 tzBTC, −1,002 USDt',
      '#1 swap, from tz1VSUr…jcjb to Swap <b>pool</b>',
      'KT1PWx2…Xitn, contract, tags fa1-2, no balance change',
      '#2 transfer, 1 tzBTC, from Swap <b>pool</b> to KT1PWx2…Xitn',
      'KT1XnTn…WR8o, contract, tags fa2, no balance change',
      '#3 transfer, 1,002 USDt, from Swap <b>pool</b> to KT1XnTn…WR8o',
      '#4 transfer, 1.5 ꜩ, from Swap <b>pool</b> to tz1VSUr…jcjb',
      'KT1TxqZ…pQU5, contract, no balance change',
      '#5 mint, +5 ticket "demo" of KT1TxqZ…pQU5, BACKTRACKED, from Swap <b>pool</b> to KT1TxqZ…pQU5',
      '#6 event swapped, FAILED, from Swap <b>pool</b>',
    ]);
    // a not-applied edge: dashed, and its label says its status in words
    const backtracked = region.querySelector('[data-flow-edge="5"]')!;
    expect(backtracked.querySelector('rect')?.getAttribute('stroke-dasharray')).toBeTruthy();
    expect(backtracked.textContent).toContain('BACKTRACKED');
    expect(region.querySelector('[data-edge-path="4"]')?.getAttribute('stroke-dasharray')).toBeTruthy();
    expect(region.querySelector('[data-edge-path="0"]')?.getAttribute('stroke-dasharray')).toBeNull();
    // the edge label carries its tokens
    expect(region.querySelector('[data-flow-edge="3"]')?.textContent).toContain('1,002 USDt');
    // focusing edge 1 shows its decoded parameter
    act(() => (region.querySelector('[data-flow-edge="1"]') as SVGElement).focus());
    await waitFor(() => expect(screen.getByRole('tree', { name: 'Parameter of edge 1' })).toBeTruthy());
    expect(screen.getByRole('tree', { name: 'Parameter of edge 1' }).textContent).toContain(
      'min_out:1,000,000,000',
    );
  });

  it('loads the graph (dagre and the component) only on demand, through import()', () => {
    // static imports reachable from the group page, the dialogs and the lazy wrapper never reach the graph
    const here = dirname(fileURLToPath(import.meta.url));
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)) {
        const spec = m[1]!;
        expect(spec, `${file} imports ${spec}`).not.toMatch(/@dagrejs|flow-layout|\/FlowView$/);
        if (!spec.startsWith('.')) continue;
        for (const ext of ['.ts', '.tsx', '/index.ts']) {
          try {
            readFileSync(resolve(dirname(file), spec + ext));
            walk(resolve(dirname(file), spec + ext));
            break;
          } catch {
            // not this extension
          }
        }
      }
    };
    walk(resolve(here, '../OperationGroupPage.tsx'));
    walk(resolve(here, '../../contract/interact/SimulationDialog.tsx'));
    walk(resolve(here, '../../contract/interact/WhatIfDialog.tsx'));
    expect(seen.has(resolve(here, 'LazyFlowView.tsx'))).toBe(true);
    expect(readFileSync(resolve(here, 'LazyFlowView.tsx'), 'utf8')).toContain("import('./FlowView')");
  });
});
