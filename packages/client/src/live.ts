/**
 * The live stream (`GET /v1/live/{network}`): server-sent events read over `fetch` streaming, so it works the same
 * in browsers and in Node 20 (which has no global EventSource or WebSocket without a flag).
 */
import type { paths } from './generated/openapi.ts';
import { ApiError } from './errors.ts';

type LiveOperation = paths['/v1/live/{network}']['get'];
/** The subscriptions of one connection (at most 50 in all) and where to resume. */
export type LiveQuery = NonNullable<LiveOperation['parameters']['query']>;
/** Every event's `data`, whichever its type. */
export type LiveData = LiveOperation['responses'][200]['content']['text/event-stream'];

/** Each event's `data`, by its SSE event type. */
export interface LiveEvents {
  head: Extract<LiveData, { hash: string; protocol: string }>;
  operations: Extract<LiveData, { hashes: string[] }>;
  balance: Extract<LiveData, { balance: number }>;
  big_map: Extract<LiveData, { ptr: number; count: number }>;
  operation: Extract<LiveData, { hash: string; status: string }>;
  reset: Extract<LiveData, { reason: string }>;
}
export type LiveEventType = keyof LiveEvents;
/** One event: `type` tells `data`'s shape (`if (e.type === 'head') e.data.level`). */
export type LiveEvent = {
  [K in LiveEventType]: { type: K; data: LiveEvents[K]; /** the level, on `head` events */ id?: string };
}[LiveEventType];

export interface SubscribeOptions extends LiveQuery {
  /** Resume after this level (what the last `head` event's `id` was): sent as `Last-Event-ID`. */
  lastEventId?: string;
  /** Stops the stream (the iterator then ends). */
  signal?: AbortSignal;
}

/** One SSE block's event, or undefined for comments and blocks without data. */
function parseBlock(block: string): { type: string; id?: string; data: string } | undefined {
  let type = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? undefined : { type, id, data: data.join('\n') };
}

/**
 * The events of one connection, as they come. The iterator ends when the server closes the stream or `signal`
 * aborts; leaving a `for await` loop (break, return, throw) closes the connection. A refusal (unknown network,
 * too many subscriptions, 429, a server without live updates: 404) throws an ApiError.
 */
export async function* subscribe(
  fetchImpl: typeof fetch,
  baseUrl: string,
  network: string,
  options: SubscribeOptions = {},
): AsyncGenerator<LiveEvent, void, undefined> {
  const { lastEventId, signal, ...query } = options;
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/v1/live/${encodeURIComponent(network)}`);
  for (const [key, values] of Object.entries(query))
    for (const v of Array.isArray(values) ? values : values === undefined ? [] : [values])
      url.searchParams.append(key, String(v));
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) return;
  try {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    let res: Response;
    try {
      res = await fetchImpl(url, { headers, signal: abort.signal });
    } catch (err) {
      if (abort.signal.aborted) return;
      throw err;
    }
    if (!res.ok) {
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      throw ApiError.from(res, body);
    }
    if (!res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (err) {
          if (abort.signal.aborted) return;
          throw err;
        }
        if (chunk.done) return;
        buffer += chunk.value;
        let end: RegExpExecArray | null;
        while ((end = /\r?\n\r?\n/.exec(buffer)) !== null) {
          const event = parseBlock(buffer.slice(0, end.index));
          buffer = buffer.slice(end.index + end[0].length);
          if (!event) continue;
          const data = JSON.parse(event.data) as LiveData;
          yield (
            event.id === undefined ? { type: event.type, data } : { type: event.type, data, id: event.id }
          ) as LiveEvent;
        }
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    abort.abort();
  }
}
