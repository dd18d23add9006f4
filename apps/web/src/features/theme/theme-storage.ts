/**
 * The theme flag in the browser's local storage: key `dark`, value `true` or `false`, default dark
 * (discovery spec §3 "dark flag (default true)"). Storage may be missing or throw (private mode):
 * the app then simply does not remember the choice.
 */
export const DARK_FLAG_KEY = 'dark';

export type FlagStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Reads the flag; on a first visit (or an unreadable value) writes and returns the default, true. */
export function readDarkFlag(storage: FlagStorage | null | undefined): boolean {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(DARK_FLAG_KEY) ?? null;
  } catch {
    return true;
  }
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  writeDarkFlag(storage, true);
  return true;
}

export function writeDarkFlag(storage: FlagStorage | null | undefined, dark: boolean): void {
  try {
    storage?.setItem(DARK_FLAG_KEY, dark ? 'true' : 'false');
  } catch {
    // storage full or forbidden: keep the choice for this visit only
  }
}

/** window.localStorage when it can be reached, else null. */
export function browserStorage(): FlagStorage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

/** The same choice as a cookie (`1` dark, `0` light), read by the server to render a page in it (issue 18). */
export const DARK_COOKIE = 'ms_dark';

export function writeDarkCookie(dark: boolean): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${DARK_COOKIE}=${dark ? 1 : 0}; path=/; max-age=31536000; samesite=lax`;
}
