import { QueryClient } from '@tanstack/react-query';
import type { AccountInfo, Block, Head } from '@michelscope/api-types';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveChannel } from './live';
import { resourceKey } from './resources';
import { mockFetch, resourceRoute } from '../app/testing/mock-fetch';

/** The browser's EventSource as far as the client uses it: the URL it opened, its listeners, its state. */
class FakeSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readyState = FakeSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  private readonly listeners = new Map<string, Array<(e: { data: string }) => void>>();
  constructor(readonly url: string) {}
  addEventListener(type: string, fn: (e: { data: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.closed = true;
    this.readyState = FakeSource.CLOSED;
  }
  emit(type: string, data: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn({ data: JSON.stringify(data) });
  }
}

describe('live client', () => {
  let sources: FakeSource[];
  let queries: QueryClient;
  const make = (url: string) => {
    const s = new FakeSource(url);
    sources.push(s);
    return s as unknown as EventSource;
  };
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('EventSource', FakeSource);
    sources = [];
    queries = new QueryClient();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens one stream per network with the union of the subscriptions, and resumes from the last level on a change', () => {
    const channel = liveChannel(queries, 'sandboxnet', make);
    const release = channel.use();
    const offA = channel.subscribe({ address: 'tz1A' });
    channel.subscribe({ address: 'tz1A', bigMap: 7 });
    vi.advanceTimersByTime(100);
    expect(sources).toHaveLength(1);
    expect(sources[0]!.url).toBe('/v1/live/sandboxnet?address=tz1A&big_map=7');
    sources[0]!.onopen?.();
    expect(channel.status).toBe('live');
    sources[0]!.emit('head', {
      network: 'sandboxnet',
      level: 41,
      hash: 'BL',
      time: 't',
      protocol: 'P',
      synced: true,
    });
    // one of two users of tz1A leaves: nothing changes; a new operation subscription reopens from level 41
    offA();
    channel.subscribe({ operation: 'ooX' });
    vi.advanceTimersByTime(100);
    expect(sources).toHaveLength(2);
    expect(sources[0]!.closed).toBe(true);
    expect(sources[1]!.url).toBe('/v1/live/sandboxnet?address=tz1A&big_map=7&operation=ooX&since_level=41');
    release();
  });

  it('writes heads and balances into the query cache under the registry keys', () => {
    queries.setQueryData<Head[]>(resourceKey('head'), [
      { network: 'mainnet', level: 5, time: 'a', protocol: 'P', synced: false, node_reachable: false },
      { network: 'sandboxnet', level: 40, time: 'b', protocol: 'P', synced: true, node_reachable: true },
    ]);
    const key = resourceKey('account', { network: 'sandboxnet', address: 'tz1A' });
    queries.setQueryData<AccountInfo>(key, { address: 'tz1A', balance: 1 } as AccountInfo);
    const channel = liveChannel(queries, 'sandboxnet', make);
    channel.use();
    vi.advanceTimersByTime(100);
    const s = sources[0]!;
    const sync = { synced: true, node_reachable: true, node_level: 43, lag: 1 };
    s.emit('head', { network: 'sandboxnet', level: 42, hash: 'BL', time: 'c', protocol: 'P', ...sync });
    s.emit('balance', { network: 'sandboxnet', address: 'tz1A', level: 42, balance: 2_000_000 });
    // the head list gets the sync fields too (the header's indicator and the network page read them)
    expect(queries.getQueryData<Head[]>(resourceKey('head'))).toEqual([
      { network: 'mainnet', level: 5, time: 'a', protocol: 'P', synced: false, node_reachable: false },
      { network: 'sandboxnet', level: 42, time: 'c', protocol: 'P', ...sync },
    ]);
    expect(channel.head).toMatchObject({ level: 42, lag: 1 });
    expect(queries.getQueryData<AccountInfo>(key)?.balance).toBe(2_000_000);
    expect(channel.level).toBe(42);
  });

  it("keeps the network's history-backfill summary, which head events do not carry (issue 32)", () => {
    const backfill = { pending: 0, running: 0, done: 1, failed: 0, levels_done: 361, levels_total: 361 };
    queries.setQueryData<Head[]>(resourceKey('head'), [
      {
        network: 'sandboxnet',
        level: 40,
        time: 'b',
        protocol: 'P',
        synced: true,
        node_reachable: true,
        backfill,
      },
    ]);
    const channel = liveChannel(queries, 'sandboxnet', make);
    channel.use();
    vi.advanceTimersByTime(100);
    sources[0]!.emit('head', {
      network: 'sandboxnet',
      level: 41,
      hash: 'BL',
      time: 'c',
      protocol: 'P',
      synced: true,
      node_reachable: true,
    });
    expect(queries.getQueryData<Head[]>(resourceKey('head'))?.[0]).toMatchObject({ level: 41, backfill });
  });

  it("moves the network's state (Head Level, Hash, time of the network page) with the head", () => {
    const state = (network: string, level: number, protocol = 'P') =>
      ({ network, level, hash: `BL${level}`, timestamp: 'a', protocol, chain_id: 'C' }) as Block;
    queries.setQueryData<Block[]>(resourceKey('stats'), [state('mainnet', 5), state('sandboxnet', 40)]);
    const channel = liveChannel(queries, 'sandboxnet', make);
    channel.use();
    vi.advanceTimersByTime(100);
    const sync = { synced: true, node_reachable: true, node_level: 42, lag: 0 };
    sources[0]!.emit('head', {
      network: 'sandboxnet',
      level: 42,
      hash: 'BL42',
      time: 'c',
      protocol: 'P',
      ...sync,
    });
    expect(queries.getQueryData<Block[]>(resourceKey('stats'))).toEqual([
      state('mainnet', 5),
      { ...state('sandboxnet', 42), timestamp: 'c' },
    ]);
    // a new protocol: the states (and their constants) are asked again
    sources[0]!.emit('head', {
      network: 'sandboxnet',
      level: 43,
      hash: 'BL43',
      time: 'd',
      protocol: 'Q',
      ...sync,
    });
    expect(queries.getQueryState(resourceKey('stats'))?.isInvalidated).toBe(true);
  });

  it("an address's new operations update its counts (the 'Operations (N)' tab) and keep the live balance", async () => {
    const key = resourceKey('account', { network: 'sandboxnet', address: 'KT1A' });
    const before: AccountInfo = {
      address: 'KT1A',
      balance: 2_000_000,
      operations_count: 1,
      migrations_count: 0,
      events_count: 0,
      ticket_updates_count: 0,
      last_action: '2026-01-01T00:00:00Z',
      account_type: 'contract',
    };
    queries.setQueryData<AccountInfo>(key, before);
    const account = resourceRoute(
      'account',
      { network: 'sandboxnet', address: 'KT1A' },
      { ...before, balance: 0, operations_count: 3, events_count: 1 },
    );
    const net = mockFetch([account]);
    const channel = liveChannel(queries, 'sandboxnet', make);
    channel.use();
    vi.advanceTimersByTime(100);
    sources[0]!.emit('operations', { network: 'sandboxnet', address: 'KT1A', level: 9, hashes: ['ooX'] });
    await vi.waitFor(() => expect(queries.getQueryData<AccountInfo>(key)?.operations_count).toBe(3), {
      timeout: 15_000,
    });
    expect(net.callsOf(account)).toHaveLength(1);
    expect(queries.getQueryData<AccountInfo>(key)).toMatchObject({ balance: 2_000_000, events_count: 1 });
  });

  it('keeps an included operation included when a late mempool answer says pending', () => {
    const channel = liveChannel(queries, 'sandboxnet', make);
    channel.use();
    vi.advanceTimersByTime(100);
    const seen: string[] = [];
    channel.on('operation', (o) => seen.push(o.status));
    sources[0]!.emit('operation', { network: 'sandboxnet', hash: 'ooX', status: 'applied', level: 9 });
    sources[0]!.emit('operation', { network: 'sandboxnet', hash: 'ooX', status: 'pending' });
    expect(seen).toEqual(['applied']);
    expect(channel.operationStatus.get('ooX')?.status).toBe('applied');
  });

  it('pauses after the stream failed and reopens on retry', () => {
    const channel = liveChannel(queries, 'sandboxnet', make);
    channel.use();
    vi.advanceTimersByTime(100);
    sources[0]!.readyState = FakeSource.CLOSED; // e.g. a 429 answer
    sources[0]!.onerror?.();
    expect(channel.status).toBe('paused');
    channel.retry();
    expect(sources).toHaveLength(2);
    expect(channel.status).toBe('connecting');
  });
});
