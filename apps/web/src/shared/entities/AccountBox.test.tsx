// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { NotificationsProvider } from '../../features/notifications/NotificationsProvider';
import { TEST_CONFIG } from '../../app/testing/render-app';
import { mockFetch, resourceRoute } from '../../app/testing/mock-fetch';
import { AppConfigContext } from '../config/app-config-context';
import { AccountBox } from './AccountBox';

const TZ = 'tz1UBZUkXpKGhYsP5KtzDNqLLchwF4uHrGjw';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AccountBox', () => {
  it('opens a dialog with the account facts and its actions', async () => {
    mockFetch([
      resourceRoute(
        'account',
        { network: 'mainnet', address: TZ },
        {
          address: TZ,
          account_type: 'account',
          balance: 12_500_000,
          operations_count: 1234,
          migrations_count: 0,
          events_count: 0,
          ticket_updates_count: 0,
          last_action: '2024-01-01T00:00:00Z',
        },
      ),
      // no alias known
      resourceRoute('accountAliases', { network: 'mainnet', address: TZ }, null),
    ]);
    render(
      <AppConfigContext value={TEST_CONFIG}>
        <NotificationsProvider>
          <QueryClientProvider client={new QueryClient()}>
            <MemoryRouter>
              <AccountBox network="mainnet" address={TZ} title="Source" />
            </MemoryRouter>
          </QueryClientProvider>
        </NotificationsProvider>
      </AppConfigContext>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Source details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Source' });
    expect(await within(dialog).findByText('12.5 ꜩ')).toBeTruthy();
    expect(within(dialog).getByText('1,234')).toBeTruthy();
    expect(within(dialog).getByText(TZ)).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'View' }).getAttribute('href')).toBe(
      `/mainnet/${TZ}/operations`,
    );
    const tab = within(dialog).getByRole('link', { name: 'Open in new tab' });
    expect(tab.getAttribute('target')).toBe('_blank');
  });
});
