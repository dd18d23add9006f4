import type { ServerResponse } from 'node:http';
import type { LiveEvents, LiveEventType } from '@michelscope/api-types';

/** A subscriber whose socket holds more than this unsent (a stalled reader) is closed; it resumes by level. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** One SSE event as text: `event`, optional `id` (a level), one `data` line of JSON (no newline inside). */
export function sseEvent<T extends LiveEventType>(type: T, data: LiveEvents[T], id?: number): string {
  return `event: ${type}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** One open `GET /v1/live/{network}` connection and what it subscribed to. */
export class Subscriber {
  /** Operation hashes whose final status has not been sent yet (watched in the mempool). */
  readonly watching: Set<string>;
  /** Hashes already announced as pending. */
  readonly pendingSent = new Set<string>();
  /** While the connection replays from the database, live chunks wait here with their level. */
  private queue: Array<{ level: number; text: string }> | null = [];
  closed = false;

  constructor(
    readonly network: string,
    readonly ip: string,
    readonly addresses: ReadonlySet<string>,
    readonly bigMaps: ReadonlySet<number>,
    readonly operations: ReadonlySet<string>,
    private readonly res: ServerResponse,
    private readonly onClose: (s: Subscriber) => void,
  ) {
    this.watching = new Set(operations);
    res.on('close', () => this.close());
  }

  /** Sends `text` (events of `level`), or queues it while the replay is not done. */
  send(text: string, level: number): void {
    if (this.closed || text === '') return;
    if (this.queue) {
      this.queue.push({ level, text });
      return;
    }
    this.write(text);
  }

  /** Ends the replay at `level`: queued chunks of later levels are sent, earlier ones were replayed. */
  replayed(level: number): void {
    const queue = this.queue ?? [];
    this.queue = null;
    for (const q of queue) if (q.level > level || q.level < 0) this.write(q.text);
  }

  write(text: string): void {
    if (this.closed) return;
    this.res.write(text);
    if (this.res.writableLength > MAX_BUFFERED_BYTES) this.res.destroy();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = null;
    if (!this.res.writableEnded) this.res.end();
    this.onClose(this);
  }
}
