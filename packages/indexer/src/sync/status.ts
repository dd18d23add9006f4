/** The indexer's status: one log line per state change, throttled progress lines, listeners. */

/**
 * 'unreachable': the node cannot be read (or sent unusable data); 'failed': the database cannot be read or
 * written (unreachable, disk full, permission denied, its files gone). Both retry with back-off and go on
 * from the stored head once the cause is gone.
 */
export type IndexerState = 'starting' | 'syncing' | 'following' | 'unreachable' | 'failed' | 'stopped';

export interface IndexerStatus {
  network: string;
  state: IndexerState;
  level: number | null;
  headLevel: number | null;
  /** The error of the current 'unreachable' or 'failed' state (cleared when it ends). */
  lastError?: string;
  /** When that state began (ms since the epoch). */
  failedSince?: number;
  /** The latest error and when it happened (ms since the epoch), kept after recovery. */
  recentError?: { message: string; at: number };
}

const FAILING: ReadonlySet<IndexerState> = new Set(['unreachable', 'failed']);

export type StatusListener = (s: IndexerStatus) => void;

export class StatusTracker {
  private current: IndexerStatus;
  private readonly listeners = new Set<StatusListener>();
  private lastProgressAt = 0;
  private progressFrom: { at: number; level: number } | null = null;

  constructor(
    network: string,
    private readonly log: (line: string) => void,
    private readonly progressIntervalMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.current = { network, state: 'starting', level: null, headLevel: null };
  }

  get(): IndexerStatus {
    return { ...this.current };
  }

  get state(): IndexerState {
    return this.current.state;
  }

  line(text: string): void {
    try {
      this.log(`[indexer ${this.current.network}] ${text}`);
    } catch {
      // a failing logger must not stop the indexer
    }
  }

  /** Moves to `state`; `message` is logged only when the state actually changes. */
  setState(state: IndexerState, message?: string, lastError?: string): void {
    const changed = state !== this.current.state;
    const was = this.current;
    this.current = { ...this.current, state };
    if (lastError !== undefined) {
      this.current.lastError = lastError;
      this.current.recentError = { message: lastError, at: this.now() };
    } else if (!FAILING.has(state)) delete this.current.lastError;
    if (!FAILING.has(state)) delete this.current.failedSince;
    else if (changed || this.current.failedSince === undefined) this.current.failedSince = this.now();
    // the line that ends a database failure says what it was
    if (
      changed &&
      message &&
      was.state === 'failed' &&
      was.lastError &&
      !FAILING.has(state) &&
      state !== 'stopped'
    )
      message = `${message} (recovered from: ${was.lastError})`;
    if (state === 'syncing' && changed) {
      this.progressFrom = { at: this.now(), level: this.current.level ?? 0 };
      this.lastProgressAt = this.now();
    }
    if (changed && message) this.line(message);
    if (changed || lastError !== undefined) this.emit();
  }

  setError(message: string): void {
    this.current = { ...this.current, lastError: message, recentError: { message, at: this.now() } };
    this.emit();
  }

  update(fields: { level?: number | null; headLevel?: number | null }): void {
    this.current = { ...this.current, ...fields };
    this.emit();
  }

  /** Logs a progress line while syncing, at most once per interval. */
  maybeLogProgress(): void {
    const { state, level, headLevel } = this.current;
    if (state !== 'syncing' || level === null || headLevel === null || !this.progressFrom) return;
    const t = this.now();
    if (t - this.lastProgressAt < this.progressIntervalMs) return;
    this.lastProgressAt = t;
    const seconds = (t - this.progressFrom.at) / 1000;
    const rate = seconds > 0 ? (level - this.progressFrom.level) / seconds : 0;
    const remaining = Math.max(0, headLevel - level);
    const eta = rate > 0 ? `, about ${formatDuration(remaining / rate)} left` : '';
    this.line(
      `syncing: level ${level} of ${headLevel}, ${rate.toFixed(1)} levels/s, ${remaining} remaining${eta}`,
    );
  }

  subscribe(cb: StatusListener): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  private emit(): void {
    const snapshot = this.get();
    for (const cb of this.listeners) {
      try {
        cb(snapshot);
      } catch {
        // a listener's error is its own
      }
    }
  }
}

function formatDuration(seconds: number): string {
  if (seconds < 90) return `${Math.ceil(seconds)} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
