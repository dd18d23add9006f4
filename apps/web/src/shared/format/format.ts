/** Display formats used across the discovery pages (discovery spec §9). Pure functions, no locale surprises. */

/** Cuts a text to `max` characters, ending with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}

/** Alias cut in tables (24) and on home (20). */
export const ALIAS_MAX_TABLE = 24;
export const ALIAS_MAX_HOME = 20;

const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const plainFormat = new Intl.NumberFormat('en-US');

/** Numbers above 1000 in compact form (1.2K, 3.4M); smaller ones as they are. */
export function formatCompact(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return Math.abs(value) > 1000 ? compactFormat.format(value) : plainFormat.format(value);
}

/** formatNumber's formats by their number of decimals: setting one up costs tens of µs in Chromium. */
const numberFormats = new Map<number, Intl.NumberFormat>();

/** A number with thousands separators. */
export function formatNumber(value: number, maximumFractionDigits = 0): string {
  if (!Number.isFinite(value)) return '—';
  let format = numberFormats.get(maximumFractionDigits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits });
    numberFormats.set(maximumFractionDigits, format);
  }
  return format.format(value);
}

/**
 * An amount in millionths of a unit (mutez) as tez: divided by 1e6 with up to 6 decimals, exact for
 * integers of any size (string or number input).
 */
export function formatTez(mutez: number | string | bigint): string {
  let value: bigint;
  try {
    value =
      typeof mutez === 'bigint'
        ? mutez
        : BigInt(typeof mutez === 'number' ? Math.trunc(mutez) : mutez.trim());
  } catch {
    return '—';
  }
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = plainFormat.format(abs / 1_000_000n);
  const fraction = (abs % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''} ꜩ`;
}

/** File sizes in KiB units (1 KiB = 1024 bytes). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${formatNumber(value, 2)} ${units[unit]}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 86_400_000;
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** Parses an RFC 3339 time; null for empty, invalid or Go's zero time. */
export function parseTime(value: string): Date | null {
  if (!value || value.startsWith('0001-01-01')) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Absolute form `D MMM'YY HH:mm` (local time). */
export function formatAbsolute(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const year = String(date.getFullYear() % 100).padStart(2, '0');
  return `${date.getDate()} ${MONTHS[date.getMonth()]}'${year} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Relative within one day ("5 minutes ago"), absolute otherwise; '—' when there is no time. */
export function formatTime(value: string, now: number = Date.now()): string {
  const date = parseTime(value);
  if (date === null) return '—';
  const diff = date.getTime() - now;
  if (Math.abs(diff) >= DAY_MS) return formatAbsolute(date);
  const seconds = Math.round(diff / 1000);
  if (Math.abs(seconds) < 60) return relative.format(seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return relative.format(minutes, 'minute');
  return relative.format(Math.round(minutes / 60), 'hour');
}

/** `KT1Ab…xyz9`-style short form of a long hash or address. */
export function shorten(value: string, head = 7, tail = 4): string {
  return value.length > head + tail + 1 ? `${value.slice(0, head)}…${value.slice(-tail)}` : value;
}
