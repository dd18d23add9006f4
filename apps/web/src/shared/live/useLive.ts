/** React hooks over the live client (api/live.ts): the channel of a network, its status, subscriptions, events. */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LiveEvents, LiveEventType } from '@michelscope/api-types';
import { liveChannel, type LiveChannel, type LiveStatus, type LiveSubscription } from '../../api/live';

/** The live channel of `network`, kept open while the calling component is mounted (none: undefined). */
export function useLiveChannel(network: string | undefined): LiveChannel | undefined {
  const queries = useQueryClient();
  const channel = network && typeof EventSource !== 'undefined' ? liveChannel(queries, network) : undefined;
  useEffect(() => channel?.use(), [channel]);
  return channel;
}

export function useLiveStatus(channel: LiveChannel | undefined): {
  status: LiveStatus;
  level: number | undefined;
  /** The last head event (with its sync state: synced, lag, node level). */
  head: LiveEvents['head'] | undefined;
} {
  const status = useSyncExternalStore(
    (fn) => channel?.onStatus(fn) ?? (() => undefined),
    () => channel?.status ?? 'paused',
    () => 'paused' as const,
  );
  // the level changes with each head: re-read on head events
  const level = useSyncExternalStore(
    (fn) => channel?.on('head', fn) ?? (() => undefined),
    () => channel?.level,
    () => undefined,
  );
  const head = useSyncExternalStore(
    (fn) => channel?.on('head', fn) ?? (() => undefined),
    () => channel?.head,
    () => undefined,
  );
  return { status, level, head };
}

/** Subscribes the page to `sub` on `network` while mounted (nothing when `sub` is null). */
export function useLiveSubscription(network: string | undefined, sub: LiveSubscription | null): void {
  const channel = useLiveChannel(network);
  const address = sub?.address;
  const bigMap = sub?.bigMap;
  const operation = sub?.operation;
  useEffect(() => {
    if (!channel || (!address && bigMap === undefined && !operation)) return;
    return channel.subscribe({ address, bigMap, operation });
  }, [channel, address, bigMap, operation]);
}

/** Calls `handler` with each `type` event of `network` while mounted (the latest handler is used). */
export function useLiveEvent<T extends LiveEventType>(
  network: string | undefined,
  type: T,
  handler: (data: LiveEvents[T]) => void,
): void {
  const channel = useLiveChannel(network);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => channel?.on(type, (data) => latest.current(data)), [channel, type]);
}
