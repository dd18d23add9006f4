import { useQuery } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import { configQuery } from '../api/queries';
import { inlinedConfig } from '../api/resources';
import { AppConfigContext } from '../shared/config/app-config-context';
import { ErrorState } from '../shared/ui/ErrorState';
import { BootSkeleton } from './errors/BootSkeleton';
import { AppRouter } from './router/AppRouter';

/** Read once: the configuration index.html carries, if any. */
const inlined = inlinedConfig();

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
      <ErrorState
        detail={`The configuration could not be loaded: ${config.error.message}`}
        actions={
          <Button variant="contained" onClick={() => void config.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  return (
    <AppConfigContext value={config.data}>
      <AppRouter config={config.data} />
    </AppConfigContext>
  );
}
