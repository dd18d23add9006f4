/**
 * index.html as a page is sent: the boot configuration inlined, the route's chunks and API requests
 * announced before `</head>`, and the server's rendering placed before the app's root.
 */
import { fetchPreloadLinks } from './fetch-preloads';
import { jsonForScript } from './page-data';
import type { RenderedPage } from './ssr';

/** The id of the `<script type="application/json">` block of index.html that carries GET /v1/config. */
export const BOOT_CONFIG_ID = 'ms-boot-config';

/**
 * Adds `<script type="application/json" id="ms-boot-config">` before `</head>`. It is data, not script
 * (a Content-Security-Policy without 'unsafe-inline' allows it); `<`, `>`, `&` and the JavaScript line
 * separators are escaped so that no value can close the element.
 */
export function inlineBootConfig(html: string, config: unknown): string {
  const json = jsonForScript(config);
  const block = `<script type="application/json" id="${BOOT_CONFIG_ID}">${json}</script>`;
  return html.includes('</head>') ? html.replace('</head>', `${block}\n</head>`) : block + html;
}

/**
 * Adds `<link rel="modulepreload" crossorigin href="/assets/…">` before `</head>` for each file the page
 * does not name already, so that the browser fetches the route's chunks together with the boot chunk.
 */
export function withModulePreloads(html: string, files: readonly string[]): string {
  const links = files
    .filter((f) => !html.includes(`/${f}"`))
    .map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`);
  if (links.length === 0 || !html.includes('</head>')) return html;
  return html.replace('</head>', `${links.join('\n')}\n</head>`);
}

/**
 * Adds `<link rel="preload" as="fetch" crossorigin href="/v1/…">` before `</head>` for each API request
 * the route's loader starts (the web's, ./fetch-preloads), so that it starts with the scripts; the app's fetch of the
 * same URL (same origin, same credentials mode, no custom header) takes the preloaded answer.
 */
export function withFetchPreloads(html: string, urls: readonly string[]): string {
  if (urls.length === 0 || !html.includes('</head>')) return html;
  return html.replace('</head>', `${fetchPreloadLinks(urls).join('\n')}\n</head>`);
}

/** The id of the element the server's rendering of a page goes in (apps/web/src/app/ssr-markup.ts). */
export const SSR_MARKUP_ID = 'ms-ssr';
/** The element holding the answers the rendered page was made from (apps/web/src/app/ssr-markup.ts). */
export const SSR_DATA_ID = 'ms-ssr-data';

/**
 * index.html in two parts around the app's root: the first (the head: scripts, styles and data to preload)
 * is sent at once, the second once the page is rendered, with the rendering's styles and markup in
 * `<div id="ms-ssr">` before the root (React escaped every text and attribute of it) and the answers it was
 * made from; or past the budget the answers that came, without markup; or without either, the `fetches` it
 * was given then announced (the head announced none: the rendering was to carry them).
 */
export function splitForServerPage(
  html: string,
): [string, (page: RenderedPage | null, fetches?: readonly string[]) => string] {
  const at = html.indexOf('<div id="root">');
  if (at < 0) return [html, () => ''];
  const rest = html.slice(at);
  return [
    html.slice(0, at),
    (page, fetches = []) =>
      page
        ? (page.html === '' ? '' : `${page.styles}<div id="${SSR_MARKUP_ID}" inert>${page.html}</div>`) +
          (page.data !== undefined
            ? `<script type="application/json" id="${SSR_DATA_ID}">${page.data}</script>`
            : '') +
          rest
        : // no rendering and no answer: the route's API requests, announced now (a preload link is allowed in
          // the body), so that they are answered while the app's code loads
          fetchPreloadLinks(fetches).join('') + rest,
  ];
}
