/** The indexer's status: one log line per state change, throttled progress lines, listeners. */

export type IndexerState = 'starting' | 'syncing' | 'following' | 'unreachable' | 'stopped';

export interface IndexerStatus {
  network: string;
  state: IndexerState;
  level: number | null;
  headLevel: number | null;
  lastError?: string;
}

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
    this.current = { ...this.current, state };
    if (lastError !== undefined) this.current.lastError = lastError;
    else if (state !== 'unreachable') delete this.current.lastError;
    if (state === 'syncing' && changed) {
      this.progressFrom = { at: this.now(), level: this.current.level ?? 0 };
      this.lastProgressAt = this.now();
    }
    if (changed && message) this.line(message);
    if (changed || lastError !== undefined) this.emit();
  }

  setError(message: string): void {
    this.current = { ...this.current, lastError: message };
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
