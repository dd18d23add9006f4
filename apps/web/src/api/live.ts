/**
 * The live client (issue 21 part 4): one EventSource per network on `GET /v1/live/{network}`, shared by
 * everything on the page. Components add subscriptions (address, big map, operation hash) while mounted; a
 * change of the set reopens the stream from the last level received (`since_level`), so a route change loses
 * no event, and the browser's own reconnection resumes by `Last-Event-ID`. Events feed the query cache through
 * the registry's keys (`resourceKey`): the head list, an account's balance, the mempool of an address, big-map
 * keys, an operation group; pages that show new rows themselves listen with `on`.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AccountInfo, Block, Head, LiveEvents, LiveEventType } from '@michelscope/api-types';
import { API_BASE } from './client';
import { fetchResource, resourceKey } from './resources';

export type LiveStatus = 'connecting' | 'live' | 'paused';

export interface LiveSubscription {
  address?: string;
  bigMap?: number;
  operation?: string;
}

type Handler<T extends LiveEventType> = (data: LiveEvents[T]) => void;

const EVENT_TYPES: readonly LiveEventType[] = [
  'head',
  'operations',
  'balance',
  'big_map',
  'operation',
  'reset',
];
/** Consecutive failures (no open in between) before the stream is paused until the user retries. */
const MAX_FAILURES = 3;
/** Subscription changes within this delay reopen the stream once. */
const REOPEN_DELAY_MS = 50;
/** Home's recently-called list is refetched at most this often on new heads. */
const RECENT_REFRESH_MS = 5_000;

const keyOf = (s: LiveSubscription): string[] => [
  ...(s.address ? [`address=${encodeURIComponent(s.address)}`] : []),
  ...(s.bigMap !== undefined ? [`big_map=${s.bigMap}`] : []),
  ...(s.operation ? [`operation=${encodeURIComponent(s.operation)}`] : []),
];

const hasKey = (key: readonly unknown[], name: string, network: string, extra?: Record<string, unknown>) => {
  if (key[0] !== name) return false;
  const p = key[1] as Record<string, unknown> | undefined;
  if (p?.network !== network) return false;
  return Object.entries(extra ?? {}).every(([k, v]) => p[k] === v);
};

/** The live stream of one network. */
export class LiveChannel {
  private source: EventSource | undefined;
  private readonly params = new Map<string, number>();
  private users = 0;
  private readonly handlers = new Map<LiveEventType, Set<Handler<LiveEventType>>>();
  private readonly statusListeners = new Set<() => void>();
  private reopenTimer: ReturnType<typeof setTimeout> | undefined;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private lastRecentRefresh = 0;
  private lastBackfillRefresh = 0;
  /** Last level whose events were all received (the `head` event's id). */
  level: number | undefined;
  /** The last `head` event: the indexed head and how far it is behind the node (sent again when that changes). */
  head: LiveEvents['head'] | undefined;
  status: LiveStatus = 'connecting';
  /** Status of each operation hash announced (pending, applied, failed…). */
  readonly operationStatus = new Map<string, LiveEvents['operation']>();

  constructor(
    readonly network: string,
    private readonly queries: QueryClient,
    private readonly makeSource: (url: string) => EventSource,
  ) {}

  /** Keeps the stream open while used (the header's indicator, a page); returns the release. */
  use(): () => void {
    this.users++;
    if (this.closeTimer) clearTimeout(this.closeTimer);
    if (!this.source && this.status !== 'paused') this.schedule();
    return () => {
      this.users--;
      if (this.users === 0) this.closeTimer = setTimeout(() => this.close(), 1_000);
    };
  }

  /** Adds a subscription while mounted; returns its removal. */
  subscribe(sub: LiveSubscription): () => void {
    const keys = keyOf(sub);
    let changed = false;
    for (const k of keys) {
      const n = this.params.get(k) ?? 0;
      this.params.set(k, n + 1);
      if (n === 0) changed = true;
    }
    if (changed) this.schedule();
    return () => {
      let gone = false;
      for (const k of keys) {
        const n = (this.params.get(k) ?? 1) - 1;
        if (n > 0) this.params.set(k, n);
        else {
          this.params.delete(k);
          gone = true;
        }
      }
      if (gone) this.schedule();
    };
  }

  on<T extends LiveEventType>(type: T, handler: Handler<T>): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    set.add(handler as Handler<LiveEventType>);
    return () => set.delete(handler as Handler<LiveEventType>);
  }

  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Reopens a paused stream (the indicator's Retry). */
  retry(): void {
    this.failures = 0;
    this.open();
  }

  private setStatus(status: LiveStatus): void {
    if (this.status === status) return;
    this.status = status;
    for (const l of this.statusListeners) l();
  }

  private schedule(): void {
    if (this.reopenTimer) clearTimeout(this.reopenTimer);
    this.reopenTimer = setTimeout(() => {
      this.reopenTimer = undefined;
      if (this.users > 0 && this.status !== 'paused') this.open();
    }, REOPEN_DELAY_MS);
  }

  private close(): void {
    this.source?.close();
    this.source = undefined;
  }

  private open(): void {
    this.close();
    const query = [...this.params.keys()].sort();
    if (this.level !== undefined) query.push(`since_level=${this.level}`);
    const url = `${API_BASE}/live/${encodeURIComponent(this.network)}${query.length ? `?${query.join('&')}` : ''}`;
    const source = this.makeSource(url);
    this.source = source;
    this.setStatus('connecting');
    source.onopen = () => {
      this.failures = 0;
      this.setStatus('live');
    };
    source.onerror = () => {
      if (this.source !== source) return;
      this.failures++;
      // the browser retries by itself (readyState CONNECTING) unless the answer was an error status
      if (source.readyState === EventSource.CLOSED || this.failures >= MAX_FAILURES) {
        this.close();
        this.setStatus('paused');
      } else this.setStatus('connecting');
    };
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (e: MessageEvent<string>) => {
        if (this.source !== source) return;
        let data: unknown;
        try {
          data = JSON.parse(e.data);
        } catch {
          return;
        }
        this.receive(type, data as LiveEvents[typeof type]);
      });
    }
  }

  private receive<T extends LiveEventType>(type: T, data: LiveEvents[T]): void {
    const q = this.queries;
    const network = this.network;
    switch (type) {
      case 'head': {
        const h = data as LiveEvents['head'];
        this.level = h.level;
        this.head = h;
        const { hash: _hash, ...head } = h;
        // a head event carries no history-backfill summary (GET /v1/head's `backfill`): the one read last is
        // kept, and read again while a backfill is under way
        const before = q
          .getQueryData<Head[]>(resourceKey('head'))
          ?.find((x) => x.network === network)?.backfill;
        q.setQueryData<Head[]>(resourceKey('head'), (old) =>
          old?.map((x) => (x.network === network ? { ...head, ...(before ? { backfill: before } : {}) } : x)),
        );
        if (before && before.pending + before.running > 0 && Date.now() - this.lastBackfillRefresh >= 5_000) {
          this.lastBackfillRefresh = Date.now();
          void q.invalidateQueries({ queryKey: resourceKey('head') });
        }
        // the network states (the network page's Head Level and Hash, the sidebar's time) follow the head
        // too, so that they agree with the indicator; a new protocol brings new constants: asked again
        const states = q.getQueryData<Block[]>(resourceKey('stats'));
        const state = states?.find((b) => b.network === network);
        if (state && state.level > 0 && state.level !== h.level) {
          if (state.protocol !== h.protocol) void q.invalidateQueries({ queryKey: resourceKey('stats') });
          else
            q.setQueryData<Block[]>(resourceKey('stats'), (old) =>
              old?.map((b) =>
                b.network === network ? { ...b, level: h.level, hash: h.hash, timestamp: h.time } : b,
              ),
            );
        }
        const now = Date.now();
        if (now - this.lastRecentRefresh >= RECENT_REFRESH_MS) {
          this.lastRecentRefresh = now;
          void q.invalidateQueries({
            predicate: (query) => hasKey(query.queryKey, 'recentlyCalled', network),
          });
        }
        break;
      }
      case 'balance': {
        const b = data as LiveEvents['balance'];
        q.setQueryData<AccountInfo>(resourceKey('account', { network, address: b.address }), (old) =>
          old ? { ...old, balance: b.balance } : old,
        );
        break;
      }
      case 'operations': {
        const o = data as LiveEvents['operations'];
        // (the balance comes as its own event: the account route caches the node's answer for 10 s)
        void q.invalidateQueries({ queryKey: resourceKey('mempool', { network, address: o.address }) });
        // the counts the contract's tabs show ('Operations (N)'): the account's counts, merged into the cached
        // answer (its balance stays the one the balance event set)
        const key = resourceKey('account', { network, address: o.address });
        if (q.getQueryData(key))
          void fetchResource('account', { network, address: o.address }).then(
            (fresh) =>
              q.setQueryData<AccountInfo>(key, (old) =>
                old
                  ? {
                      ...old,
                      operations_count: fresh.operations_count,
                      events_count: fresh.events_count,
                      ticket_updates_count: fresh.ticket_updates_count,
                    }
                  : old,
              ),
            () => undefined,
          );
        break;
      }
      case 'big_map': {
        const m = data as LiveEvents['big_map'];
        void q.invalidateQueries({
          predicate: (query) =>
            ['bigMapKeys', 'bigMapCount', 'bigMap'].some((name) =>
              hasKey(query.queryKey, name, network, { ptr: m.ptr }),
            ),
        });
        // the sidebar's total size, read from the node (BigMapSidebar)
        void q.invalidateQueries({ queryKey: ['bigmap_total_bytes', network, m.ptr] });
        break;
      }
      case 'operation': {
        const o = data as LiveEvents['operation'];
        const before = this.operationStatus.get(o.hash);
        // a late mempool poll never takes an included operation back to pending
        if (o.status === 'pending' && before && before.status !== 'pending') return;
        this.operationStatus.set(o.hash, o);
        if (o.status !== 'pending')
          void q.invalidateQueries({ queryKey: resourceKey('opg', { network, hash: o.hash }) });
        break;
      }
      case 'reset':
        this.level = (data as LiveEvents['reset']).level;
        this.head = undefined;
        void q.invalidateQueries();
        break;
    }
    for (const h of this.handlers.get(type) ?? []) h(data);
  }
}

const registries = new WeakMap<QueryClient, Map<string, LiveChannel>>();

/** The channel of `network` for this query client (one per page). */
export function liveChannel(
  queries: QueryClient,
  network: string,
  makeSource: (url: string) => EventSource = (url) => new EventSource(url),
): LiveChannel {
  let map = registries.get(queries);
  if (!map) registries.set(queries, (map = new Map()));
  let channel = map.get(network);
  if (!channel) map.set(network, (channel = new LiveChannel(network, queries, makeSource)));
  return channel;
}
