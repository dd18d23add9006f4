/**
 * Test helper: the real shell, providers and route table in a memory router, with chosen screens.
 * Only for *.test.tsx files (jsdom environment).
 */
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ConfigResponse } from '@michelscope/api-types';
import { NotificationsProvider } from '../../features/notifications/NotificationsProvider';
import { ThemeModeProvider } from '../../features/theme/ThemeModeProvider';
import type { FlagStorage } from '../../features/theme/theme-storage';
import { AppConfigContext } from '../../shared/config/app-config-context';
import { PageSkeleton } from '../../shared/ui/PageSkeleton';
import { RouteErrorPage } from '../errors/RouteErrorPage';
import { createAppQueryClient } from '../providers';
import { buildRouteTable, type LazyScreen, type ScreenId } from '../router/route-table';
import { screens as realScreens } from '../router/screens';
import { Shell } from '../shell/Shell';

export const TEST_CONFIG: ConfigResponse = {
  networks: ['mainnet', 'sandboxnet', 'ghostnet'],
  rpc_endpoints: {
    mainnet: 'https://rpc.example/mainnet',
    sandboxnet: 'http://127.0.0.1:8080/rpc/sandboxnet',
  },
  sentry_dsn: '',
  oauth_enabled: false,
  ga_enabled: false,
  sandbox_mode: false,
  mempool_enabled: false,
  network_info: [],
  ipfs_gateway: 'https://ipfs.io/ipfs',
};

export function renderApp(
  url: string,
  options: { screens?: Partial<Record<ScreenId, LazyScreen>>; storage?: FlagStorage | null } = {},
) {
  const router = createMemoryRouter(
    buildRouteTable({
      networks: TEST_CONFIG.networks,
      screens: { ...realScreens, ...options.screens },
      shell: { Component: Shell, ErrorBoundary: RouteErrorPage, HydrateFallback: PageSkeleton },
      screenErrorBoundary: RouteErrorPage,
      lookupBigMap: async () => null,
    }),
    { initialEntries: [url] },
  );
  const queryClient = createAppQueryClient(() => undefined);
  const result = render(
    <ThemeModeProvider storage={options.storage ?? null}>
      <NotificationsProvider>
        <QueryClientProvider client={queryClient}>
          <AppConfigContext value={TEST_CONFIG}>
            <RouterProvider router={router} />
          </AppConfigContext>
        </QueryClientProvider>
      </NotificationsProvider>
    </ThemeModeProvider>,
  );
  return { ...result, router, queryClient };
}
