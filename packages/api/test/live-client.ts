/** A server-sent-events reader for tests: what a browser's EventSource would receive, event by event. */
export interface SseEvent {
  type: string;
  id: string | undefined;
  data: Record<string, unknown>;
}

export interface SseStream {
  status: number;
  events: SseEvent[];
  /** The next event (after those already taken) matching `pred`, waiting up to `timeoutMs`. */
  next(pred: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Everything received so far. */
  close(): void;
  closed: Promise<void>;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  let taken = 0;
  let wake: (() => void) | undefined;
  let buffer = '';
  const closed = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const bytes of res.body) {
        buffer += decoder.decode(bytes as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let type = 'message';
          let id: string | undefined;
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) type = line.slice(7);
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data !== '') events.push({ type, id, data: JSON.parse(data) as Record<string, unknown> });
        }
        wake?.();
      }
    } catch {
      // aborted
    }
    wake?.();
  })();
  return {
    status: res.status,
    events,
    closed,
    close: () => abort.abort(),
    next: async (pred, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (taken < events.length) {
          const e = events[taken++]!;
          if (pred(e)) return e;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching event; received: ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
      }
    },
  };
}
