/**
 * Live notifications: the indexer announces each committed block (and each reverted one) with a PostgreSQL
 * `NOTIFY` sent in the block's own transaction, so a listener hears of a block only once it is readable and
 * never of a block that was rolled back. Every API process LISTENs once (`DbHandle.listen`) and fans the
 * notification out to its live subscribers in memory. The channel is per schema (`ms_live_<schema>`), so
 * deployments or test suites sharing one database in separate schemas do not hear each other.
 *
 * The payload is small JSON: the network, the new head and, when they fit, the addresses, big-map pointers and
 * operation hashes the block(s) touched (a cheap filter for the listener). PostgreSQL refuses payloads of
 * 8,000 bytes and more: above {@link LIVE_PAYLOAD_MAX} the lists are left out and `x` is set, and the listener
 * then treats every subscription as possibly touched and asks the database.
 */

/** Channel name prefix; the channel is this + the schema (`current_schema()`). */
export const LIVE_CHANNEL_PREFIX = 'ms_live_';
/** Largest payload sent with its lists (bytes of JSON; PostgreSQL's limit is 8,000). */
export const LIVE_PAYLOAD_MAX = 7_800;

/** Blocks `from`..`level` (one block: from = level) were stored; `hash`/`time`/`protocol` are the new head's. */
export interface LiveBlockNotice {
  kind: 'block';
  network: string;
  level: number;
  from: number;
  hash: string;
  time: string;
  protocol: string;
  /** Absent when the lists did not fit (`expand`). */
  addresses?: string[];
  bigMaps?: number[];
  operations?: string[];
  /** The lists were left out: the listener must ask the database. */
  expand?: boolean;
}

/** The block at `level + 1` was reverted: the head is now `level` (`hash`), or nothing (level -1). */
export interface LiveRevertNotice {
  kind: 'revert';
  network: string;
  level: number;
  hash: string;
}

export type LiveNotice = LiveBlockNotice | LiveRevertNotice;

interface Wire {
  k: 'b' | 'r';
  n: string;
  l: number;
  f?: number;
  h: string;
  t?: string;
  p?: string;
  a?: string[];
  b?: number[];
  o?: string[];
  x?: 1;
}

/** The payload of a notice: its lists dropped (and `x` set) when the JSON would be too long. */
export function encodeLiveNotice(n: LiveNotice): string {
  if (n.kind === 'revert')
    return JSON.stringify({ k: 'r', n: n.network, l: n.level, h: n.hash } satisfies Wire);
  const base: Wire = { k: 'b', n: n.network, l: n.level, f: n.from, h: n.hash, t: n.time, p: n.protocol };
  if (!n.expand) {
    const full = JSON.stringify({
      ...base,
      a: n.addresses ?? [],
      b: n.bigMaps ?? [],
      o: n.operations ?? [],
    } satisfies Wire);
    if (Buffer.byteLength(full) <= LIVE_PAYLOAD_MAX) return full;
  }
  return JSON.stringify({ ...base, x: 1 } satisfies Wire);
}

/** A payload back as a notice; null when it is not one of ours. */
export function decodeLiveNotice(payload: string): LiveNotice | null {
  let w: Partial<Wire>;
  try {
    w = JSON.parse(payload) as Partial<Wire>;
  } catch {
    return null;
  }
  if (typeof w !== 'object' || w === null || typeof w.n !== 'string' || typeof w.l !== 'number') return null;
  if (typeof w.h !== 'string') return null;
  if (w.k === 'r') return { kind: 'revert', network: w.n, level: w.l, hash: w.h };
  if (w.k !== 'b') return null;
  const notice: LiveBlockNotice = {
    kind: 'block',
    network: w.n,
    level: w.l,
    from: typeof w.f === 'number' ? w.f : w.l,
    hash: w.h,
    time: typeof w.t === 'string' ? w.t : '',
    protocol: typeof w.p === 'string' ? w.p : '',
  };
  if (w.x || !Array.isArray(w.a) || !Array.isArray(w.b) || !Array.isArray(w.o)) notice.expand = true;
  else {
    notice.addresses = w.a.filter((v) => typeof v === 'string');
    notice.bigMaps = w.b.filter((v) => typeof v === 'number');
    notice.operations = w.o.filter((v) => typeof v === 'string');
  }
  return notice;
}
