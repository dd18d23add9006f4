// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { renderApp } from './testing/render-app';
import type {
  Block,
  ContractSource,
  SearchItem,
  SecuritySummary,
  WatchDelivery,
  WatchRule,
} from '@michelscope/api-types';
import { contractFrame, operation } from './testing/contract-page';
import { anyQueryRoute, matchingRoute, mockFetch, resourceRoute } from './testing/mock-fetch';
import { seriousViolations } from './testing/axe';
import { SWAP, SWAP_FLOW, USER } from '../slices/operation/flow/flow.fixture';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const EXPR = 'exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC';
const block: Block = {
  network: 'mainnet',
  hash: 'BLx',
  predecessor: 'BLw',
  level: 10,
  chain_id: 'NetXdQprcVkpaWU',
  timestamp: '2025-11-20T10:00:00Z',
  protocol: 'PtParisBxoLz5gzMmn3d9WBQNoPSZakgnkMC2VNuQ3KXfUtUQeZ',
  cost_per_byte: 250,
  hard_gas_limit_per_operation: 1040000,
  hard_storage_limit_per_operation: 60000,
  time_between_blocks: 10,
};
const token: SearchItem = {
  type: 'token',
  value: KT,
  found_by: 'Name',
  highlights: { Name: ['<em>hic</em> et nunc'] },
  body: { Network: 'mainnet', Address: KT, TokenID: '1', Name: 'hic et nunc', Tags: ['art'] },
};

class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  vi.stubGlobal('ResizeObserver', NoopResizeObserver);
  localStorage.clear();
  const anyPage = { size: 10, offset: 0 };
  mockFetch([
    resourceRoute('head', [
      { network: 'mainnet', synced: true, level: 10, time: block.timestamp, protocol: block.protocol },
    ]),
    anyQueryRoute('recentlyCalled', { network: 'mainnet', ...anyPage }, [
      { id: 1, address: KT, last_action: block.timestamp, operations_count: 5 },
    ]),
    resourceRoute('stats', [block]),
    anyQueryRoute('globalConstants', { network: 'mainnet', ...anyPage }, [
      { address: EXPR, timestamp: block.timestamp, level: 3, links_count: 1 },
    ]),
    anyQueryRoute('constantContracts', { network: 'mainnet', address: EXPR, ...anyPage }, []),
    resourceRoute(
      'globalConstant',
      { network: 'mainnet', address: EXPR },
      { address: EXPR, timestamp: block.timestamp, level: 3, code: 'UNIT', value: { prim: 'UNIT' } },
    ),
    // no alias known for any account
    ['GET /search/v1/account/', new Response(null, { status: 204 })],
    resourceRoute('mimeTypes', []),
    resourceRoute('search', { items: [token], total: 1, took: 2 }),
    // every series of the statistics page is empty
    matchingRoute('statsHistogram', 'GET /stats/v1/histogram/', []),
    matchingRoute('statsSummary', 'GET /stats/v1/summary/', new Response(null, { status: 204 })),
  ]);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('accessibility (axe-core, serious and critical rules)', () => {
  it.each([
    // The first screen also pays for loading the app's modules: a longer wait on a busy machine.
    ['home', '/', () => screen.findByRole('link', { name: /KT1RJ6Pb/ })],
    ['search with results', '/search?text=hic', () => screen.findByRole('region', { name: 'Token details' })],
    ['search before a query', '/search', () => screen.findByText("Let's search")],
    ['network: recently called', '/mainnet/recently_called', () => screen.findByText('NetXdQprcVkpaWU')],
    [
      'network: global constants',
      '/mainnet/constants',
      () => screen.findByRole('link', { name: /exprtZBw/ }),
    ],
    [
      'network: statistics',
      '/mainnet/stats',
      () => screen.findAllByText('No data for this period are available'),
    ],
    [
      'global constant',
      `/constant/mainnet/${EXPR}`,
      () => screen.findByText('There are no references to this constant'),
    ],
    ['not found', '/not_found', () => screen.findByText('Error 404. Page not found.')],
  ])('%s has no serious violations', async (_name, url, ready) => {
    renderApp(url);
    await ready();
    expect(await seriousViolations()).toEqual([]);
  });

  it('the contract Security tab has no serious violations', async () => {
    const at = { network: 'mainnet', address: KT };
    const evidence = [{ instruction: 'SENDER', path: 'code.args[0]', line: 4 }];
    const summary: SecuritySummary = {
      headline: 'Immutable; privileged entrypoints: mint (admin)',
      upgradable: false,
      admins: [{ field: 'admin', address: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx' }],
      entrypoints: [
        {
          name: 'mint',
          who: 'admin',
          admin: { field: 'admin', address: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx' },
          can: ['call_contracts'],
          writes: ['ledger'],
          evidence,
        },
        { name: 'transfer', who: 'anyone', can: [], writes: ['ledger'], evidence: [] },
      ],
      upgrade: {
        stored_lambdas: [],
        global_constants: [EXPR],
        set_delegate: false,
        admin_replaceable: [],
        code_migrations: [],
      },
      findings: [
        { kind: 'privileged', sentence: 'mint can only be called by the admin at %admin.', evidence },
      ],
      complete: false,
      steps: 200000,
    };
    mockFetch([
      ...contractFrame('mainnet', KT),
      ['GET /search/v1/account/', new Response(null, { status: 204 })],
      resourceRoute('security', at, summary),
    ]);
    renderApp(`/mainnet/${KT}/security`);
    await screen.findByRole('heading', { name: 'Upgradeability' });
    await screen.findByText(/Immutable; privileged entrypoints/);
    expect(await seriousViolations()).toEqual([]);
  });

  it('the contract Source tab and the verify form have no serious violations', async () => {
    const at = { network: 'mainnet', address: KT };
    const source: ContractSource = {
      verification: {
        id: 'ab',
        status: 'verified',
        compiler: 'archetype',
        version: '1.5.3',
        options: {},
        main: 'a.arl',
        files: [],
        script_hash: 'expr',
        network: 'mainnet',
        address: KT,
        created_at: '2026-11-30T08:00:00Z',
      },
      inherited: true,
      files: [
        { name: 'a.arl', content: 'archetype a\nentry e() { fail("x") }' },
        { name: 'b.arl', content: '// b' },
      ],
    };
    mockFetch([
      ...contractFrame('mainnet', KT),
      ['GET /search/v1/account/', new Response(null, { status: 204 })],
      resourceRoute('contractSource', at, source),
      resourceRoute('verifyCompilers', [
        {
          id: 'archetype',
          name: 'Archetype',
          available: true,
          versions: ['1.5.3'],
          extensions: ['.arl'],
          source_locations: false,
        },
        {
          id: 'ligo',
          name: 'LIGO',
          available: false,
          versions: [],
          extensions: [],
          reason: 'not installed',
          source_locations: false,
        },
      ]),
    ]);
    renderApp(`/mainnet/${KT}/source`);
    await screen.findByLabelText('Source of b.arl');
    expect(await seriousViolations()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Verify again' }));
    await screen.findByText(/LIGO is not available/);
    expect(await seriousViolations()).toEqual([]);
  });

  it('the operation group Flow view has no serious violations', async () => {
    const hash = 'onq5z62MJf7WvHva6PdpSBC645NzQzt7M2xL43e9NpwpPvA6Lrp';
    const at = { network: 'mainnet', hash };
    mockFetch([
      resourceRoute('opg', at, [operation('mainnet', { hash, source: USER, destination: SWAP, id: 1 })]),
      resourceRoute('opgFlow', at, SWAP_FLOW),
    ]);
    renderApp(`/mainnet/opg/${hash}/contents?view=flow`);
    await screen.findByRole('table', { name: 'Flow edges' });
    await screen.findByRole('region', { name: 'Flow graph' });
    expect(await seriousViolations()).toEqual([]);
  });

  it('the contract Watch tab (form, token box, rules and delivery log) has no serious violations', async () => {
    const at = { network: 'mainnet', address: KT };
    const rule: WatchRule = {
      id: 'wr_AAAAAAAAAAAAAAAA',
      network: 'mainnet',
      address: KT,
      condition: { kind: 'call', entrypoints: ['increment'], amount_gte: '5', status: ['applied'] },
      url: 'https://hooks.example/in',
      enabled: true,
      created_at: '2026-11-30T08:00:00Z',
    };
    const delivered: WatchDelivery = {
      id: 'd1',
      idempotency_key: 'k1',
      level: 12,
      operation_hash: 'ooZjkMNcZhdb7xF6uDgE7VUNRz6XjoA3A6HRixPXmSLYzCbCVQb',
      status: 'delivered',
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      latency_ms: 40,
      created_at: '2026-11-30T08:01:00Z',
      delivered_at: '2026-11-30T08:01:00Z',
      next_attempt_at: null,
      matched: {},
    };
    mockFetch([
      ...contractFrame('mainnet', KT),
      ['GET /search/v1/account/', new Response(null, { status: 204 })],
      resourceRoute('entrypoints', at, [{ name: 'increment', typedef: [], schema: null }]),
      resourceRoute('watchCreate', { rule, secret: 'whsec_x', token: `msw_${'A'.repeat(43)}` }),
      resourceRoute('watchRules', [rule]),
      resourceRoute('watchDeliveries', { id: rule.id, size: 20 }, [delivered]),
    ]);
    renderApp(`/mainnet/${KT}/watch`);
    fireEvent.change(await screen.findByRole('textbox', { name: 'Webhook URL' }), {
      target: { value: 'https://hooks.example/in' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    await screen.findByRole('region', { name: 'Management token and secret' });
    await screen.findByRole('table', { name: `Delivery log of ${rule.id}` });
    expect(await seriousViolations()).toEqual([]);
    localStorage.clear();
  });

  it('token filters have no serious violations', async () => {
    renderApp('/search');
    fireEvent.click(await screen.findByRole('tab', { name: 'Tokens' }));
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    await screen.findByRole('button', { name: 'Apply filters' });
    expect(await seriousViolations()).toEqual([]);
  });
});
