/**
 * The page as the server rendered it (issue 18): the server puts it in `<div id="ms-ssr">` before the app's
 * root, so that the data shows as soon as the HTML arrives. The app does not hydrate it: it renders its
 * route into #root (nothing while the route's code and data load) and removes this element in the same
 * commit that shows its own page (a layout effect of the shell or of the route error view), so the reader
 * never sees an empty page or both.
 *
 * The page comes with the API answers it was made from (`<script type="application/json" id="ms-ssr-data">`,
 * the server's dehydrated query cache): the app's query client starts with them, so the app asks the API for
 * none of them again (and the server does not announce them as preloads).
 */
import { useLayoutEffect } from 'react';
import { hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import { ssrMarkup } from '../shared/ssr/server-page';

export { SSR_MARKUP_ID, ssrMarkup } from '../shared/ssr/server-page';
export const SSR_DATA_ID = 'ms-ssr-data';

/** Removes the server-rendered page once the app's own page is committed. */
export function useDropSsrMarkup(): void {
  useLayoutEffect(() => ssrMarkup()?.remove(), []);
}

/**
 * Seeds `client` with the answers the server's page was made from, once (the element is removed). They
 * count as fetched now: they are as fresh as the page just received. Malformed data is ignored (the app then
 * asks the API, as without it).
 */
export function seedFromServerPage(client: QueryClient): void {
  if (typeof document === 'undefined') return;
  const element = document.getElementById(SSR_DATA_ID);
  if (!element) return;
  element.remove();
  let state: DehydratedState;
  try {
    state = JSON.parse(element.textContent ?? '') as DehydratedState;
  } catch {
    return;
  }
  if (!Array.isArray(state?.queries)) return;
  const now = Date.now();
  const queries = state.queries.filter((q) => q?.state?.status === 'success' && Array.isArray(q.queryKey));
  hydrate(client, {
    mutations: [],
    queries: queries.map((q) => ({ ...q, state: { ...q.state, dataUpdatedAt: now } })),
  });
}
