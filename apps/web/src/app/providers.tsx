import { useState, type ReactNode } from 'react';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { NotificationsProvider } from '../features/notifications/NotificationsProvider';
import { useNotify } from '../features/notifications/useNotify';
import { ThemeModeProvider } from '../features/theme/ThemeModeProvider';
import { seedFromServerPage } from './ssr-markup';

/**
 * The query client. A failed request shows its text in the red snackbar (discovery spec §8) unless its
 * query says `meta: { silent: true }` (e.g. the head poll: an unsynced network is not an error).
 */
export function createAppQueryClient(onError: (message: string) => void): QueryClient {
  const report = (error: Error, meta: Record<string, unknown> | undefined) => {
    if (meta?.silent !== true) onError(error.message);
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => report(error, query.meta) }),
    mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => report(error, mutation.meta) }),
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 },
    },
  });
}

function QueryProvider({ children }: { children: ReactNode }) {
  const notify = useNotify();
  const [client] = useState(() => {
    const created = createAppQueryClient(notify.error);
    seedFromServerPage(created);
    return created;
  });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** Theme, snackbars and the query client, around everything else. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeModeProvider>
      <NotificationsProvider>
        <QueryProvider>{children}</QueryProvider>
      </NotificationsProvider>
    </ThemeModeProvider>
  );
}
