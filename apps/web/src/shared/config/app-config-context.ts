import { createContext } from 'react';
import type { ConfigResponse } from '@michelscope/api-types';

/** The server configuration (GET /v1/config), loaded once before the router starts. */
export const AppConfigContext = createContext<ConfigResponse | null>(null);
