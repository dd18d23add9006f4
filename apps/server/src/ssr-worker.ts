/**
 * The worker thread of the server's page rendering (./ssr.ts): loads the web build's renderer
 * (apps/web/dist-ssr/entry-server.js) and renders the pages the server asks for. The page's API requests go
 * through a `fetch` that asks the server thread, which answers them with `app.inject` (the same routes,
 * limits and errors as over HTTP, without a socket).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { MAX_PAGE_DATA_CHARS, plainJsonForScript } from './page-data';
import type { FromRenderer, RenderedPage, ToRenderer } from './ssr';

const port = parentPort!;
const post = (m: FromRenderer) => port.postMessage(m);

const answers = new Map<number, (m: Extract<ToRenderer, { type: 'fetched' }>) => void>();
let nextFetch = 1;

/** The reason a request was aborted, as an Error (a DOMException, as the platform's fetch rejects with). */
const aborted = (signal: AbortSignal | undefined): Error =>
  signal?.reason instanceof Error
    ? signal.reason
    : new DOMException('The operation was aborted.', 'AbortError');

globalThis.fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  const body = typeof init?.body === 'string' ? init.body : undefined;
  const signal = init?.signal ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(signal));
    const id = nextFetch++;
    const abort = () => {
      answers.delete(id);
      reject(aborted(signal));
    };
    signal?.addEventListener('abort', abort, { once: true });
    answers.set(id, (m) => {
      signal?.removeEventListener('abort', abort);
      const empty = m.status === 204 || m.status === 304;
      resolve(new Response(empty ? null : m.body, { status: m.status, headers: m.headers }));
    });
    post({
      type: 'fetch',
      id,
      method,
      path: url.pathname + url.search,
      ...(body !== undefined ? { body } : {}),
    });
  });
};

interface Renderer {
  renderPage(request: { url: string; config: unknown; dark: boolean; budgetMs: number }): Promise<{
    html: string;
    styles: string;
    data?: unknown;
  } | null>;
  /** Loads the code of every kind of page ahead of its first request (optional). */
  warm?(): Promise<void>;
}

const renderer = (await import(pathToFileURL(workerData.rendererEntry as string).href)) as Renderer;

port.on('message', (m: ToRenderer) => {
  if (m.type === 'fetched') {
    answers.get(m.id)?.(m);
    answers.delete(m.id);
    return;
  }
  renderer.renderPage(m.request).then(
    (page) => post({ type: 'rendered', id: m.id, page: page && withData(page) }),
    (error: unknown) =>
      post({
        type: 'rendered',
        id: m.id,
        page: null,
        error: error instanceof Error ? error.message : String(error),
      }),
  );
});
/** The page with its data as JSON for the page's `<script>` element (left out when not plain or too large). */
function withData(page: { html: string; styles: string; data?: unknown }): RenderedPage {
  const data = page.data === undefined ? undefined : plainJsonForScript(page.data, MAX_PAGE_DATA_CHARS);
  return { html: page.html, styles: page.styles, ...(data !== undefined ? { data } : {}) };
}

await renderer.warm?.();
post({ type: 'ready' });
