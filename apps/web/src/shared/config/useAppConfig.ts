import { useContext } from 'react';
import type { ConfigResponse } from '@michelscope/api-types';
import { AppConfigContext } from './app-config-context';

/** The server configuration; only below the boot sequence (it waits for /v1/config). */
export function useAppConfig(): ConfigResponse {
  const config = useContext(AppConfigContext);
  if (!config) throw new Error('useAppConfig must be used after the configuration is loaded');
  return config;
}
