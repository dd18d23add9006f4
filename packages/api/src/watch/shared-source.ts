/**
 * One LISTEN per process for several listeners (the live hub and the watch evaluator): the first `listen`
 * opens the source's, the others join it; it closes when the last one stops.
 */
import type { LiveSource } from '../options';

export function sharedSource(source: LiveSource): LiveSource {
  const listeners = new Set<{ onPayload: (p: string) => void; onReconnect?: () => void }>();
  let opened: Promise<() => Promise<void>> | undefined;
  return {
    async listen(onPayload, onReconnect) {
      const l = { onPayload, ...(onReconnect ? { onReconnect } : {}) };
      listeners.add(l);
      opened ??= source.listen(
        (p) => {
          for (const x of listeners) x.onPayload(p);
        },
        () => {
          for (const x of listeners) x.onReconnect?.();
        },
      );
      try {
        await opened;
      } catch (err) {
        listeners.delete(l);
        opened = undefined;
        throw err;
      }
      return async () => {
        if (!listeners.delete(l) || listeners.size > 0) return;
        const stop = await opened;
        opened = undefined;
        await stop?.();
      };
    },
  };
}
