/**
 * The page the server rendered (issue 18), as the parts of the app that draw differently over it see it:
 * the server puts it in `<div id="ms-ssr">` before the app's root, and the app removes it in the commit that
 * shows its own page (app/ssr-markup).
 */
export const SSR_MARKUP_ID = 'ms-ssr';

/** The server-rendered page still shown, if any. */
export function ssrMarkup(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.getElementById(SSR_MARKUP_ID);
}
