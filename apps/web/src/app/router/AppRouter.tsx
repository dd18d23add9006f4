import { lazy, Suspense, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { fetchResource } from '../../api/resources';
import type { ConfigResponse } from '@michelscope/api-types';
import { PageSkeleton } from '../../shared/ui/PageSkeleton';
import { Shell } from '../shell/Shell';
import { ssrMarkup } from '../ssr-markup';
import { routeData } from './route-data';
import { buildRouteTable } from './route-table';
import { screens } from './screens';

/** The routes' error view, loaded when a route fails (MUI's Button stays out of the boot chunk). */
const LazyRouteErrorPage = lazy(async () => ({
  default: (await import('../errors/RouteErrorPage')).RouteErrorPage,
}));
function RouteErrorPage() {
  return (
    <Suspense fallback={null}>
      <LazyRouteErrorPage />
    </Suspense>
  );
}

/** While the server's page is shown, the first route load renders nothing of its own (./ssr-markup). */
const RenderNothing = () => null;

/** The browser router over the route table, for the configured networks. */
export function AppRouter({ config }: { config: ConfigResponse }) {
  const client = useQueryClient();
  const router = useMemo(
    () =>
      createBrowserRouter(
        buildRouteTable({
          networks: config.networks,
          screens,
          shell: {
            Component: Shell,
            ErrorBoundary: RouteErrorPage,
            HydrateFallback: ssrMarkup() ? RenderNothing : PageSkeleton,
          },
          screenErrorBoundary: RouteErrorPage,
          lookupBigMap: (network, ptr) => fetchResource('bigMap', { network, ptr }),
          data: routeData(client, config),
        }),
      ),
    [client, config],
  );
  return <RouterProvider router={router} />;
}
