/**
 * The live hub of one API process (issue 21 part 4). It LISTENs once to the database's live channel (the
 * indexer's NOTIFY in each block's transaction, db/src/live.ts) and fans each notice out to the open
 * `GET /v1/live/{network}` connections in memory. Per notice it asks the database (and the node, for
 * balances) once for what the union of the subscriptions needs, never once per subscriber. A connection that
 * resumes (`since_level` / `Last-Event-ID`) is replayed from the database before live chunks are let through.
 *
 * Over ~400 lines because LiveHub is one stateful class (the LISTEN connection, the per-network
 * subscriptions, the replay gate) whose fan-out reads and updates that state per notice; subscribers and the
 * mempool watch are modules of their own.
 */
import {
  LIVE_MAX_REPLAY_LEVELS,
  type LiveBalanceEvent,
  type LiveBigMapEvent,
  type LiveHeadEvent,
  type LiveOperationEvent,
  type LiveOperationStatus,
  type LiveOperationsEvent,
} from '@michelscope/api-types';
import {
  decodeLiveNotice,
  getHeads,
  liveBigMaps,
  liveOperations,
  liveStatuses,
  type LiveNotice,
} from '@michelscope/db/read';
import type { ApiContext } from '../context';
import type { LiveOptions } from '../options';
import { headSync, type HeadSync } from '../services/node-head';
import { nodeRpc } from '../services/node-rpc';
import { formatTime } from '../time';
import { sseEvent, type Subscriber } from './subscriber';
import { MempoolWatch } from './mempool';

interface Head {
  level: number;
  hash: string;
  time: string;
  protocol: string;
}

interface NetworkState {
  subs: Set<Subscriber>;
  /** The last head processed (undefined until the first notice or subscriber). */
  head?: Head;
  /** Notices of a network are processed one after the other. */
  chain: Promise<void>;
  mempool: MempoolWatch;
}

/** What one range of levels brought, for the union of the subscriptions. */
interface RangeEvents {
  operations: Map<string, LiveOperationsEvent[]>;
  balances: Map<string, LiveBalanceEvent>;
  bigMaps: Map<number, LiveBigMapEvent[]>;
  statuses: Map<string, LiveOperationEvent>;
}

const BALANCE_FETCH_CONCURRENCY = 8;
const MAX_HASHES_PER_EVENT = 100;

export class LiveHub {
  private readonly networks = new Map<string, NetworkState>();
  private readonly perIp = new Map<string, number>();
  private count = 0;
  private stopListening?: () => Promise<void>;
  private heartbeat?: NodeJS.Timeout;

  constructor(
    private readonly ctx: ApiContext,
    private readonly opts: LiveOptions,
    private readonly log: (msg: string) => void,
  ) {}

  async start(): Promise<void> {
    this.stopListening = await this.opts.source.listen(
      (payload) => this.onPayload(payload),
      () => this.onReconnect(),
    );
    this.heartbeat = setInterval(() => {
      for (const s of this.networks.values()) for (const sub of s.subs) sub.write(': hb\n\n');
      this.recheckSync();
    }, this.opts.heartbeatMs ?? 15_000);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const s of this.networks.values()) {
      s.mempool.stop();
      for (const sub of [...s.subs]) sub.close();
    }
    await this.stopListening?.();
  }

  /** Open connections (all networks). */
  get size(): number {
    return this.count;
  }

  /** Null when `ip` may open one more connection, else the reason. */
  refusal(ip: string): string | null {
    if (this.count >= (this.opts.maxConnections ?? 10_000)) return 'too many live connections on this server';
    if ((this.perIp.get(ip) ?? 0) >= (this.opts.maxConnectionsPerIp ?? 20))
      return 'too many live connections from this address';
    return null;
  }

  private state(network: string): NetworkState {
    let s = this.networks.get(network);
    if (!s) {
      const subs = new Set<Subscriber>();
      s = {
        subs,
        chain: Promise.resolve(),
        mempool: new MempoolWatch(this.ctx, network, subs, this.opts.mempoolPollMs ?? 2_000),
      };
      this.networks.set(network, s);
    }
    return s;
  }

  /** Registers `sub` and replays from `since` (or sends the current head) before letting live chunks through. */
  async add(sub: Subscriber, since: number | undefined): Promise<void> {
    const s = this.state(sub.network);
    s.subs.add(sub);
    this.count++;
    this.perIp.set(sub.ip, (this.perIp.get(sub.ip) ?? 0) + 1);
    let head: Head | undefined;
    try {
      head = await this.dbHead(sub.network);
      // where this process stands, for a listener that reconnects before any notice came
      if (!s.head && head) s.head = head;
      const level = head?.level ?? -1;
      if (since !== undefined && (since > level || level - since > LIVE_MAX_REPLAY_LEVELS)) {
        const reason = since > level ? 'reorg' : 'behind';
        sub.write(sseEvent('reset', { network: sub.network, level, reason }, Math.max(level, 0)));
      } else if (head) {
        const from = since ?? head.level;
        const [events, sync] = await Promise.all([
          this.rangeEvents(sub.network, from, head.level, {
            addresses: [...sub.addresses],
            bigMaps: [...sub.bigMaps],
            operations: [...sub.operations],
            // a fresh connection is told the current status of its operations, not the past of its addresses
            statusesAnyLevel: true,
          }),
          headSync(this.ctx, sub.network, head.level),
        ]);
        sub.write(this.chunk(sub, events, head, sync));
      }
      if (sub.watching.size > 0) s.mempool.wake();
    } catch (err) {
      this.log(`[live] ${sub.network}: replay failed: ${(err as Error).message}`);
    } finally {
      sub.replayed(head?.level ?? -1);
    }
  }

  remove(sub: Subscriber): void {
    const s = this.networks.get(sub.network);
    if (!s?.subs.delete(sub)) return;
    this.count--;
    const n = (this.perIp.get(sub.ip) ?? 1) - 1;
    if (n > 0) this.perIp.set(sub.ip, n);
    else this.perIp.delete(sub.ip);
  }

  private onPayload(payload: string): void {
    const notice = decodeLiveNotice(payload);
    if (!notice || !this.ctx.networks.get(notice.network)) return;
    const s = this.state(notice.network);
    s.chain = s.chain
      .then(() => this.process(s, notice))
      .catch((err: unknown) => this.log(`[live] ${notice.network}: ${(err as Error).message}`));
  }

  /** After the listener reconnected: what was stored meanwhile is processed as one expanded notice. */
  private onReconnect(): void {
    for (const [network, s] of this.networks) {
      if (!s.head) continue;
      s.chain = s.chain
        .then(async () => {
          const head = await this.dbHead(network);
          if (!head || !s.head) return;
          if (head.level > s.head.level)
            await this.process(s, {
              kind: 'block',
              network,
              level: head.level,
              from: s.head.level + 1,
              hash: head.hash,
              time: head.time,
              protocol: head.protocol,
              expand: true,
            });
          else if (head.hash !== s.head.hash)
            await this.process(s, { kind: 'revert', network, level: head.level, hash: head.hash });
        })
        .catch((err: unknown) => this.log(`[live] ${network}: ${(err as Error).message}`));
    }
  }

  private async process(s: NetworkState, notice: LiveNotice): Promise<void> {
    const network = notice.network;
    if (notice.kind === 'revert') {
      s.head =
        notice.level >= 0
          ? {
              level: notice.level,
              hash: notice.hash,
              time: s.head?.time ?? '',
              protocol: s.head?.protocol ?? '',
            }
          : undefined;
      const text = sseEvent(
        'reset',
        { network, level: notice.level, reason: 'reorg' },
        Math.max(notice.level, 0),
      );
      for (const sub of s.subs) sub.send(text, notice.level, true);
      return;
    }
    // a gap (a notice lost while the listener was down): cover it, without the lists
    let from = notice.from;
    let expand = notice.expand === true;
    if (s.head && s.head.level + 1 < from) {
      from = s.head.level + 1;
      expand = true;
    }
    const time = formatTime(new Date(notice.time));
    const head: Head = { level: notice.level, hash: notice.hash, time, protocol: notice.protocol };
    s.head = head;
    this.evictBigMaps(network, expand ? null : (notice.bigMaps ?? null));
    if (s.subs.size === 0) return;
    const addresses = new Set<string>();
    const bigMaps = new Set<number>();
    const operations = new Set<string>();
    const touchedA = expand ? null : new Set(notice.addresses);
    const touchedB = expand ? null : new Set(notice.bigMaps);
    const touchedO = expand ? null : new Set(notice.operations);
    for (const sub of s.subs) {
      for (const a of sub.addresses) if (!touchedA || touchedA.has(a)) addresses.add(a);
      for (const p of sub.bigMaps) if (!touchedB || touchedB.has(p)) bigMaps.add(p);
      for (const h of sub.watching) if (!touchedO || touchedO.has(h)) operations.add(h);
    }
    const [events, sync] = await Promise.all([
      this.rangeEvents(network, from - 1, notice.level, {
        addresses: [...addresses],
        bigMaps: [...bigMaps],
        operations: [...operations],
        statusesAnyLevel: false,
      }),
      headSync(this.ctx, network, notice.level),
    ]);
    for (const sub of s.subs) sub.send(this.chunk(sub, events, head, sync), notice.level);
  }

  /**
   * The sync state can change without a block (the indexer stalls while the node goes on, the node becomes
   * unreachable or comes back): on each heartbeat, a network whose state changed gets its head again.
   */
  private recheckSync(): void {
    for (const [network, s] of this.networks) {
      if (s.subs.size === 0 || !s.head?.time) continue;
      s.chain = s.chain
        .then(async () => {
          const head = s.head;
          if (!head?.time || s.subs.size === 0) return;
          const sync = await headSync(this.ctx, network, head.level);
          const key = JSON.stringify(sync);
          const text = sseEvent('head', { network, ...head, ...sync }, head.level);
          for (const sub of s.subs) {
            // a connection still waiting for its first head gets it from its replay
            if (sub.lastSync === undefined || sub.lastSync === key) continue;
            sub.lastSync = key;
            sub.send(text, -1);
          }
        })
        .catch((err: unknown) => this.log(`[live] ${network}: ${(err as Error).message}`));
    }
  }

  /**
   * The response cache keeps a big map's answers (details, key counts) for up to 30 s: a block that changed
   * the big map drops them, so a page refreshed by its live event reads the new figures (all of the
   * network's big maps when the notice came without its lists).
   */
  private evictBigMaps(network: string, ptrs: readonly number[] | null): void {
    if (ptrs !== null && ptrs.length === 0) return;
    const base = `/bigmap/${encodeURIComponent(network)}/`;
    const touched = ptrs === null ? null : new Set(ptrs.map(String));
    this.ctx.cache.evict((key) => {
      const at = key.indexOf(base);
      if (at === -1) return false;
      if (touched === null) return true;
      const ptr = key.slice(at + base.length).split('/')[0] ?? '';
      return touched.has(ptr);
    });
  }

  /** The events of levels (from, to] for the given subscriptions: a few queries, whatever the subscribers. */
  private async rangeEvents(
    network: string,
    from: number,
    to: number,
    want: { addresses: string[]; bigMaps: number[]; operations: string[]; statusesAnyLevel: boolean },
  ): Promise<RangeEvents> {
    const db = this.ctx.db;
    const [ops, maps, statuses] = await Promise.all([
      liveOperations(db, network, from, to, want.addresses),
      liveBigMaps(db, network, from, to, want.bigMaps),
      liveStatuses(db, network, want.operations, to),
    ]);
    const out: RangeEvents = {
      operations: new Map(),
      balances: new Map(),
      bigMaps: new Map(),
      statuses: new Map(),
    };
    for (const r of ops) {
      const list = out.operations.get(r.address) ?? [];
      let last = list[list.length - 1];
      if (!last || last.level !== r.level) {
        last = { network, address: r.address, level: r.level, hashes: [] };
        list.push(last);
      }
      if (last.hashes.length < MAX_HASHES_PER_EVENT) last.hashes.push(r.hash);
      out.operations.set(r.address, list);
    }
    for (const m of maps) {
      const list = out.bigMaps.get(m.ptr) ?? [];
      list.push({ network, ptr: m.ptr, level: m.level, count: m.count });
      out.bigMaps.set(m.ptr, list);
    }
    for (const st of statuses) {
      if (!want.statusesAnyLevel && st.level <= from) continue;
      out.statuses.set(st.hash, {
        network,
        hash: st.hash,
        status: st.status as LiveOperationStatus,
        level: st.level,
      });
    }
    await this.balances(network, to, [...out.operations.keys()], out.balances);
    return out;
  }

  /** Balances at `level` from the node (tz and KT1 accounts), a few requests at a time; failures are skipped. */
  private async balances(
    network: string,
    level: number,
    addresses: string[],
    into: Map<string, LiveBalanceEvent>,
  ) {
    const todo = addresses.filter((a) => /^(tz|KT)/.test(a));
    const work = async () => {
      for (let a = todo.pop(); a !== undefined; a = todo.pop()) {
        const address = a;
        const v = await nodeRpc<string>(
          this.ctx,
          network,
          `/chains/main/blocks/${level}/context/contracts/${address}/balance`,
          undefined,
          5000,
        ).catch(() => undefined);
        const balance = Number(v);
        if (v !== undefined && Number.isSafeInteger(balance))
          into.set(address, { network, address, level, balance });
      }
    };
    await Promise.all(Array.from({ length: Math.min(BALANCE_FETCH_CONCURRENCY, todo.length) }, work));
  }

  /** A subscriber's events of a range, in level order, ending with the head (whose id is the head's level). */
  private chunk(sub: Subscriber, e: RangeEvents, head: Head, sync: HeadSync): string {
    const items: Array<{ level: number; text: string }> = [];
    for (const a of sub.addresses) {
      for (const ev of e.operations.get(a) ?? [])
        items.push({ level: ev.level, text: sseEvent('operations', ev) });
      const b = e.balances.get(a);
      if (b) items.push({ level: b.level, text: sseEvent('balance', b) });
    }
    for (const p of sub.bigMaps)
      for (const ev of e.bigMaps.get(p) ?? []) items.push({ level: ev.level, text: sseEvent('big_map', ev) });
    for (const h of sub.watching) {
      const st = e.statuses.get(h);
      if (!st) continue;
      sub.watching.delete(h);
      items.push({ level: st.level ?? head.level, text: sseEvent('operation', st) });
    }
    items.sort((x, y) => x.level - y.level);
    const headEvent: LiveHeadEvent = { network: sub.network, ...head, ...sync };
    sub.lastSync = JSON.stringify(sync);
    return items.map((i) => i.text).join('') + sseEvent('head', headEvent, head.level);
  }

  private async dbHead(network: string): Promise<Head | undefined> {
    const row = (await getHeads(this.ctx.db, [network])).get(network);
    return row
      ? { level: row.level, hash: row.hash, time: formatTime(row.timestamp), protocol: row.protocol ?? '' }
      : undefined;
  }
}
