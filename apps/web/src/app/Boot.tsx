import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { configQuery } from '../api/queries';
import { inlinedConfig } from '../api/inlined-config';
import { AppConfigContext } from '../shared/config/app-config-context';
import { BootSkeleton } from './errors/BootSkeleton';
import { AppRouter } from './router/AppRouter';

const BootError = lazy(() => import('./errors/BootError'));

/** Read once: the configuration index.html carries, if any. */
const inlined = typeof document === 'undefined' ? undefined : inlinedConfig();

/**
 * Starts from the configuration inlined in index.html; without it, waits for GET /v1/config (the router
 * needs the configured networks), showing a skeleton meanwhile and the generic error state with
 * "Try again" when it cannot be loaded.
 */
export function Boot() {
  const config = useQuery({ ...configQuery(), initialData: inlined, retry: 1, meta: { silent: true } });

  if (config.isPending) return <BootSkeleton />;
  if (config.isError) {
    return (
      <Suspense fallback={<BootSkeleton />}>
        <BootError message={config.error.message} onRetry={() => void config.refetch()} />
      </Suspense>
    );
  }
  return (
    <AppConfigContext value={config.data}>
      <AppRouter config={config.data} />
    </AppConfigContext>
  );
}
