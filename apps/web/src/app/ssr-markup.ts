/**
 * The page as the server rendered it (issue 18): the server puts it in `<div id="ms-ssr">` before the app's
 * root, so that the data shows as soon as the HTML arrives. The app does not hydrate it: it renders its
 * route into #root (nothing while the route's code and data load) and removes this element in the same
 * commit that shows its own page (a layout effect of the shell or of the route error view), so the reader
 * never sees an empty page or both.
 */
import { useLayoutEffect } from 'react';

export const SSR_MARKUP_ID = 'ms-ssr';

/** The server-rendered page still shown, if any. */
export function ssrMarkup(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.getElementById(SSR_MARKUP_ID);
}

/** Removes the server-rendered page once the app's own page is committed. */
export function useDropSsrMarkup(): void {
  useLayoutEffect(() => ssrMarkup()?.remove(), []);
}
