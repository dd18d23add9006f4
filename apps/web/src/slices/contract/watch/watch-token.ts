/**
 * The watch rules' management token kept in this browser (issue 39): one per origin (the key names the
 * origin too), so the Watch tab lists the rules made here. A token is `msw_` and 43 base64url characters.
 */
import { browserStorage, type KeyValueStorage } from '../../../shared/storage/local-storage';

export const TOKEN_PATTERN = /^msw_[A-Za-z0-9_-]{43}$/;

export const tokenKey = (origin: string) => `michelscope.watch.token:${origin}`;

const origin = () => globalThis.location?.origin ?? '';

export function readWatchToken(storage: KeyValueStorage | null = browserStorage()): string | null {
  try {
    const t = storage?.getItem(tokenKey(origin())) ?? null;
    return t !== null && TOKEN_PATTERN.test(t) ? t : null;
  } catch {
    return null;
  }
}

export function writeWatchToken(
  token: string | null,
  storage: KeyValueStorage | null = browserStorage(),
): void {
  try {
    if (token === null) storage?.removeItem(tokenKey(origin()));
    else storage?.setItem(tokenKey(origin()), token);
  } catch {
    // disabled storage: the token stays in memory for this page
  }
}

/** The ids of `now` not in `seen` (a rule's new deliveries since the last refresh), oldest first. */
export function newDeliveryIds(seen: ReadonlySet<string>, now: readonly { id: string }[]): string[] {
  return now
    .filter((d) => !seen.has(d.id))
    .map((d) => d.id)
    .reverse();
}
