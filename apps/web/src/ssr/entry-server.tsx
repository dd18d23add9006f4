/**
 * The server's rendering of a page (issue 18): the page's route with its data as HTML, built in Node by
 * apps/server (a worker thread) so that the browser shows the data as soon as the HTML arrives, before the
 * app's code has loaded and run. The app does not hydrate it: it replaces it (../app/ssr-markup.ts).
 *
 * The same route table, loaders, query factories and components as the app; the API is reached through the
 * global `fetch` the worker provides. A page that redirects or fails is not rendered (null): the server then
 * sends the plain app shell. A page whose data is not all there within the budget has no markup, only the
 * answers that came (the app takes them over).
 */
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { dehydrate, QueryClientProvider, type DehydratedState } from '@tanstack/react-query';
import type { ConfigResponse } from '@michelscope/api-types';
import { createAppQueryClient } from '../app/providers';
import { Shell } from '../app/shell/Shell';
import { routeData } from '../app/router/route-data';
import { APP_ONLY_SCREENS, buildRouteTable } from '../app/router/route-table';
import { screens } from '../app/router/screens';
import { fetchResource } from '../api/resources';
import { NotificationsProvider } from '../features/notifications/NotificationsProvider';
import { ThemeModeProvider } from '../features/theme/ThemeModeProvider';
import type { FlagStorage } from '../features/theme/theme-storage';
import { AppConfigContext } from '../shared/config/app-config-context';

export interface RenderRequest {
  /** Absolute URL of the page (its origin is not used: the API is reached through `fetch`). */
  url: string;
  config: ConfigResponse;
  /** The reader's theme (its cookie; dark by default). */
  dark: boolean;
  /** Time for the route's data, from the call. */
  budgetMs: number;
}

export interface RenderedPage {
  /** The page's markup (the app's root content); '' when only the answers that came are sent (past the budget). */
  html: string;
  /** emotion's `<style data-emotion>` tags of the styles the markup uses. */
  styles: string;
  /**
   * The answers the page was rendered from (the query cache, dehydrated): the app seeds its own cache with
   * them (../app/ssr-markup.ts), so it asks the API for none of them again when it takes over.
   */
  data: DehydratedState;
}

const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A page whose data did not all come within the budget: no markup (an incomplete page would show loading
 * states the app's own render shows anyway), only the answers that did come, which the app seeds its cache
 * with (a slow request, a slow host: the app then asks the API for the rest only); null when none came.
 */
function answersOnly(client: ReturnType<typeof createAppQueryClient>): RenderedPage | null {
  const data = dehydrate(client);
  return data.queries.length > 0 ? { html: '', styles: '', data } : null;
}

export async function renderPage({
  url,
  config,
  dark,
  budgetMs,
}: RenderRequest): Promise<RenderedPage | null> {
  const deadline = Date.now() + budgetMs;
  const client = createAppQueryClient(() => undefined);
  try {
    const routes = buildRouteTable({
      networks: config.networks,
      screens,
      shell: { Component: Shell },
      lookupBigMap: (network, ptr) => fetchResource('bigMap', { network, ptr }),
      data: routeData(client, config),
    });
    const handler = createStaticHandler(routes);
    const context = await handler.query(new Request(url));
    // a redirect, or a route that failed: the app handles it
    if (context instanceof Response || context.statusCode !== 200 || context.errors) return null;
    if (context.matches.some((m) => APP_ONLY_SCREENS.has(m.route.id))) return null;
    while (client.isFetching() > 0) {
      // past the budget: no markup, but the answers that came (the app takes them and asks for the rest)
      if (Date.now() >= deadline) return answersOnly(client);
      await idle(5);
    }
    const router = createStaticRouter(handler.dataRoutes, context);
    const cache = createCache({ key: 'css' });
    const emotion = createEmotionServer(cache);
    const theme: FlagStorage = { getItem: () => String(dark), setItem: () => undefined };
    const markup = renderToString(
      <CacheProvider value={cache}>
        <ThemeModeProvider storage={theme}>
          <NotificationsProvider>
            <QueryClientProvider client={client}>
              <AppConfigContext value={config}>
                <StaticRouterProvider router={router} context={context} hydrate={false} />
              </AppConfigContext>
            </QueryClientProvider>
          </NotificationsProvider>
        </ThemeModeProvider>
      </CacheProvider>,
    );
    const chunks = emotion.extractCriticalToChunks(markup);
    return {
      html: chunks.html,
      styles: emotion.constructStyleTagsFromChunks(chunks),
      data: dehydrate(client),
    };
  } finally {
    client.clear();
  }
}

/**
 * Loads every screen's module (the server renders the first page of each kind without loading its code
 * then): called once when the renderer starts.
 */
export async function warm(): Promise<void> {
  await Promise.all(Object.values(screens).map((load) => load().catch(() => undefined)));
}
