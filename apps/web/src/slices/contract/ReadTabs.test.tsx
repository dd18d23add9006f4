// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { toMiguel } from '@michelscope/michelson';
import { renderApp } from '../../app/testing/render-app';
import { mockFetch, resourceRoute, type Route } from '../../app/testing/mock-fetch';
import { contractFrame, contractWithStats } from '../../app/testing/contract-page';
import { LIST_PAGE_SIZE } from '../../api/contract-api';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const TZ = 'tz1UBZUkXpKGhYsP5KtzDNqLLchwF4uHrGjw';
const OP = 'oocFt4vkkgQGfoRH54328cJUbDdWvj3x6KEs5Arm4XhqwwJmnJ8';

const at = { network: 'mainnet', address: KT };
const firstPage = { ...at, offset: 0, size: LIST_PAGE_SIZE };

/** The contract page (12 events, 25 ticket updates) with the routes of the tab under test. */
function frame(extra: Route[]) {
  return mockFetch([
    ...extra,
    ...contractFrame('mainnet', KT, { account: { events_count: 12, ticket_updates_count: 25 } }),
  ]);
}

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('details tab', () => {
  it('labels migration kinds and pages same contracts by 10', async () => {
    const mock = frame([
      resourceRoute('migrations', at, [
        {
          level: 1_589_247,
          timestamp: '2021-08-06T00:00:00Z',
          protocol: 'PtGRANADsDU8R9daYKAgWnQYAJ64omN1o3KMGVCykShA97vQbvV',
          prev_protocol: 'PsFLorenaUUuikDWvMDr6fGBRG8kt3e3D3fHoXK1j1BFRxeSH4i',
          kind: 'update',
        },
        { level: 5, timestamp: '2021-08-06T00:00:00Z', protocol: 'Ps', prev_protocol: '', kind: 'lambda' },
        {
          level: 1,
          timestamp: '2021-08-06T00:00:00Z',
          protocol: 'Ps',
          prev_protocol: '',
          kind: 'bootstrap',
        },
      ]),
      resourceRoute(
        'sameContracts',
        { ...at, offset: 10, size: LIST_PAGE_SIZE },
        { count: 13, contracts: [contractWithStats('ghostnet', TZ)] },
      ),
      resourceRoute('sameContracts', firstPage, {
        count: 13,
        // ten distinct contracts (the page's rows are keyed by network and address)
        contracts: Array.from({ length: 10 }, (_, i) =>
          contractWithStats('ghostnet', `KT1${String(i).padStart(33, 'x')}`, {
            id: i + 2,
            last_action: '2021-01-01T00:00:00Z',
          }),
        ),
      }),
    ]);
    renderApp(`/mainnet/${KT}/details`);
    const migrations = await screen.findByRole('table', { name: 'Migrations' });
    expect(await within(migrations).findByText('Code was altered')).toBeTruthy();
    expect(within(migrations).getByText('Potential change in logic')).toBeTruthy();
    expect(within(migrations).getByText('Vesting contract')).toBeTruthy();
    const same = screen.getByRole('table', { name: 'Same contracts' });
    expect(await within(same).findAllByText('Ghostnet')).toHaveLength(10);
    fireEvent.click(screen.getByRole('button', { name: 'Go to page 2' }));
    expect(
      await within(screen.getByRole('table', { name: 'Same contracts' })).findAllByText('Ghostnet'),
    ).toHaveLength(1);
    expect(mock.callsTo(`GET /v1/contract/mainnet/${KT}/same?offset=10&size=10`)).toHaveLength(1);
  });
});

describe('events and ticket updates tabs', () => {
  it('lists events and shows the payload of the selected one with its operation link', async () => {
    // The event shape of bcdhub's handler test (payload typed nat 42).
    const payload = toMiguel({ prim: 'nat' }, { int: '42' });
    frame([
      resourceRoute('events', firstPage, [
        {
          hash: OP,
          status: 'applied',
          timestamp: '2023-01-01T00:00:00Z',
          level: 3_000_000,
          tag: 'minted',
          payload,
        },
        { hash: OP, status: 'applied', timestamp: '2023-01-01T00:00:00Z', level: 2_999_999, tag: 'burned' },
      ]),
    ]);
    renderApp(`/mainnet/${KT}/events`);
    const list = await screen.findByRole('list', { name: 'Events' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([expect.stringContaining('minted'), expect.stringContaining('burned')]);
    const card = screen.getByRole('region', { name: 'Event' });
    expect(within(card).getByRole('tree', { name: 'Payload' }).textContent).toContain('42');
    expect(
      within(card)
        .getByRole('link', { name: /oocFt4vk/ })
        .getAttribute('href'),
    ).toBe(`/mainnet/opg/${OP}/contents`);
    fireEvent.click(within(list).getAllByRole('button')[1] as HTMLElement);
    expect(await within(card).findByText('No payload')).toBeTruthy();
    // 12 events: two pages
    expect(screen.getByRole('button', { name: 'Go to page 2' })).toBeTruthy();
  });

  it('shows ticket update cards, 10 per page', async () => {
    frame([
      resourceRoute(
        'accountTicketUpdates',
        firstPage,
        Array.from({ length: 10 }, (_, i) => ({
          id: i + 1,
          level: 100 + i,
          timestamp: '2023-01-01T00:00:00Z',
          ticket_id: 1,
          ticketer: KT,
          address: TZ,
          amount: i % 2 ? '-5' : '12',
          operation_hash: OP,
          content_type: [],
        })),
      ),
    ]);
    renderApp(`/mainnet/${KT}/ticket_updates`);
    const list = await screen.findByRole('list', { name: 'Ticket updates' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(within(list).getAllByText('+12')).toHaveLength(5);
    expect(within(list).getAllByText('-5')).toHaveLength(5);
    expect(screen.getByRole('button', { name: 'Go to page 3' })).toBeTruthy();
  });
});
