import type { ServerResponse } from 'node:http';
import type { LiveEvents, LiveEventType } from '@michelscope/api-types';

/** A subscriber whose socket holds more than this unsent (a stalled reader) is closed; it resumes by level. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** One SSE event as text: `event`, optional `id` (a level), one `data` line of JSON (no newline inside). */
export function sseEvent<T extends LiveEventType>(type: T, data: LiveEvents[T], id?: number): string {
  return `event: ${type}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** The events of one level for one connection (`reset`: a reorg's reset, always sent). */
interface Chunk {
  level: number;
  text: string;
  reset: boolean;
}

/** One open `GET /v1/live/{network}` connection and what it subscribed to. */
export class Subscriber {
  /** Operation hashes whose final status has not been sent yet (watched in the mempool). */
  readonly watching: Set<string>;
  /** Hashes already announced as pending. */
  readonly pendingSent = new Set<string>();
  /** While the connection replays from the database, live chunks wait here with their level. */
  private queue: Chunk[] | null = [];
  /** The last level the replay sent (-1: none): a block's chunk up to it was sent already. */
  private replayedTo = -1;
  /** The sync fields of the last head sent (JSON; undefined before the first head). */
  lastSync: string | undefined;
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

  /**
   * Sends `text` (events of `level`; `reset`: a reorg's reset, always sent), or queues it while the replay is
   * not done. A block's chunk whose level the replay already covered is dropped: its notice can come after
   * the replay read the database (the notification is asynchronous), and the page would get the level twice.
   */
  send(text: string, level: number, reset = false): void {
    if (this.closed || text === '') return;
    if (this.queue) {
      this.queue.push({ level, text, reset });
      return;
    }
    this.pass({ level, text, reset });
  }

  /** Ends the replay at `level`: queued chunks of later levels are sent, earlier ones were replayed. */
  replayed(level: number): void {
    const queue = this.queue ?? [];
    this.queue = null;
    this.replayedTo = level;
    for (const q of queue) this.pass(q);
  }

  private pass({ level, text, reset }: Chunk): void {
    if (reset) {
      // the chain went back: the levels after it come again, with other blocks
      this.replayedTo = Math.min(this.replayedTo, level);
      this.write(text);
    } else if (level < 0 || level > this.replayedTo) this.write(text);
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
