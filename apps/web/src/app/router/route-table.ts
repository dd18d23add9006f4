/**
 * The complete route table of discovery spec §2 as React Router data routes.
 *
 * Screens load lazily (one chunk per screen); guards run in loaders before anything renders and redirect
 * through the pure functions of ./route-guards, then the loader starts the screen's data (`data`), so that
 * it loads together with the screen's chunk. Route ids are the screen ids, so a test or a component can
 * tell which screen a URL shows from `router.state.matches`.
 */
import { replace, type LoaderFunction, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import {
  DAPPS_URL,
  bigMapLookupTarget,
  guardAccountIndex,
  guardAccountTab,
  guardBigMap,
  guardBigMapIndex,
  guardContractTab,
  guardNetwork,
  guardNetworkIndex,
  guardOperation,
  guardOperationIndex,
  resolveUnmatched,
  type GuardDecision,
  type RouteParams,
} from './route-guards';

/** Every screen of the route table; the names follow the original app's route names. */
export const SCREEN_IDS = [
  'home',
  'not_found',
  'search',
  'deploy',
  'constant',
  'recently_called',
  'network_constants',
  'network_stats',
  'operations',
  'events',
  'ticket_updates',
  'interact',
  'views',
  'storage',
  'big_map_keys',
  'big_map_history',
  'code',
  'source',
  'security',
  'metadata',
  'fork',
  'tokens',
  'contract_stats',
  'details',
  'watch',
  'opg_contents',
] as const;

export type ScreenId = (typeof SCREEN_IDS)[number];

/**
 * The workspace's forms (deploy, interact, fork, views): rendered by the app alone, never by the server
 * (../../ssr/entry-server.tsx). Their reader acts at once, and a rendered form could not take input before the
 * app runs (it is inert). The build marks their routes (build/route-preload.ts) so that the server keeps
 * announcing their data with the page.
 */
export const APP_ONLY_SCREENS: ReadonlySet<string> = new Set<ScreenId>([
  'deploy',
  'interact',
  'fork',
  'views',
]);

/** What a lazy screen module provides (React Router's lazy route properties). */
export type LazyScreen = () => Promise<Pick<RouteObject, 'Component' | 'ErrorBoundary'>>;

export interface BigMapOwner {
  network?: unknown;
  address?: unknown;
  ptr?: unknown;
}

export interface RouteTableOptions {
  /** Configured networks (GET /v1/config). */
  networks: readonly string[];
  screens: Record<ScreenId, LazyScreen>;
  /** The layout around every screen (header, scroll-to-top) and its error view; optional in tests. */
  shell?: Pick<RouteObject, 'Component' | 'ErrorBoundary' | 'HydrateFallback'> | undefined;
  /** Error view for a failing screen, rendered inside the shell. */
  screenErrorBoundary?: RouteObject['ErrorBoundary'] | undefined;
  /** Finds the contract that owns a big map; null when there is none. */
  lookupBigMap: (network: string, ptr: string) => Promise<BigMapOwner | null>;
  /** Starts the data of a screen when its route is entered (not awaited): see ./route-data. */
  data?: Partial<Record<ScreenId, ScreenData>> | undefined;
}

/**
 * Starts loading a screen's data; called by its loader once the guard lets the page through. A promise it
 * returns (settled when the first data is in the query cache, never rejected) is awaited by the loader for
 * at most {@link DATA_WAIT_MS}: the page then renders once with its data, instead of rendering its loading
 * states and again for each answer (each render of a contract page is tens of milliseconds of main thread).
 */
export type ScreenData = (args: {
  params: Partial<Record<string, string>>;
  url: URL;
}) => void | Promise<unknown>;

/** How long a route's loader waits for its first data before the page renders with its loading states. */
export const DATA_WAIT_MS = 400;

const settledWithin = (promise: Promise<unknown>, ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    void promise.then(
      () => (clearTimeout(timer), resolve()),
      () => (clearTimeout(timer), resolve()),
    );
  });

const renderNothing = (): null => null;

type Guard = (p: RouteParams, pathname: string, networks: readonly string[]) => GuardDecision;

export function buildRouteTable(options: RouteTableOptions): RouteObject[] {
  const { networks, screens } = options;

  // The guard decides first; a page that stays starts its data (options.data) while its chunk loads.
  const guarded =
    (guard: Guard | undefined, data?: ScreenData): LoaderFunction =>
    async ({ params, request }: LoaderFunctionArgs) => {
      const url = new URL(request.url);
      const decision = guard ? guard(params, url.pathname, networks) : null;
      if (decision !== null) return replace(decision);
      const first = data?.({ params, url });
      if (first) await settledWithin(first, DATA_WAIT_MS);
      return null;
    };

  const screen = (id: ScreenId, path: string | undefined, guard?: Guard): RouteObject => {
    const data = options.data?.[id];
    return {
      id,
      ...(path === undefined ? { index: true } : { path }),
      ...(guard || data ? { loader: guarded(guard, data) } : {}),
      lazy: screens[id],
    };
  };

  // A route that always redirects (or rejects) in its loader; it renders nothing of its own.
  const redirectOnly = (path: string | undefined, guard: Guard): RouteObject => ({
    ...(path === undefined ? { index: true } : { path }),
    loader: guarded(guard),
    Component: renderNothing,
  });

  const catchAll: LoaderFunction = async ({ request }) => {
    const outcome = resolveUnmatched(new URL(request.url).pathname, networks);
    if (outcome.kind === 'redirect') return replace(outcome.to);
    let owner: BigMapOwner | null = null;
    try {
      owner = await options.lookupBigMap(outcome.network, outcome.ptr);
    } catch {
      owner = null;
    }
    return replace(bigMapLookupTarget(owner, outcome, networks));
  };

  const pages: RouteObject[] = [
    screen('home', undefined),
    screen('not_found', 'not_found'),
    screen('search', 'search'),
    { id: 'dapps', path: 'dapps/*', loader: () => replace(DAPPS_URL), Component: renderNothing },
    screen('deploy', 'deploy'),
    screen('constant', 'constant/:network/:address', guardNetwork),
    {
      path: ':network',
      children: [
        redirectOnly(undefined, guardNetworkIndex),
        screen('recently_called', 'recently_called', guardNetwork),
        screen('network_constants', 'constants', guardNetwork),
        screen('network_stats', 'stats', guardNetwork),
      ],
    },
    {
      path: ':network/opg/:hash',
      children: [
        redirectOnly(undefined, guardOperationIndex),
        screen('opg_contents', 'contents', guardOperation),
      ],
    },
    {
      path: ':network/:address',
      children: [
        redirectOnly(undefined, guardAccountIndex),
        screen('operations', 'operations', guardAccountTab),
        screen('events', 'events', guardAccountTab),
        screen('ticket_updates', 'ticket_updates', guardAccountTab),
        screen('interact', 'interact/:entrypoint?', guardContractTab),
        screen('views', 'views/:view?', guardContractTab),
        {
          path: 'storage',
          children: [
            screen('storage', undefined, guardContractTab),
            {
              path: 'big_map/:ptr',
              children: [
                redirectOnly(undefined, guardBigMapIndex),
                screen('big_map_keys', 'keys', guardBigMap),
                screen('big_map_history', ':keyhash', guardBigMap),
              ],
            },
          ],
        },
        screen('code', 'code', guardContractTab),
        screen('source', 'source', guardContractTab),
        screen('security', 'security', guardContractTab),
        screen('metadata', 'metadata', guardContractTab),
        screen('fork', 'fork', guardContractTab),
        screen('tokens', 'tokens', guardContractTab),
        screen('contract_stats', 'stats', guardContractTab),
        screen('details', 'details', guardContractTab),
        screen('watch', 'watch', guardContractTab),
      ],
    },
    { id: 'catch_all', path: '*', loader: catchAll, Component: renderNothing },
  ];

  return [
    {
      id: 'root',
      path: '/',
      ...options.shell,
      children: [{ id: 'screens', ErrorBoundary: options.screenErrorBoundary, children: pages }],
    },
  ];
}
