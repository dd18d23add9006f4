/**
 * Micheline as canonical text, for comparing values whatever their annotations and key order: the replay's
 * comparison (replay.ts) and the FAILWITH lookup in a contract's TZIP-16 errors (error-meaning.ts).
 */

/** Micheline without annotations, as JSON with sorted keys: equal values write the same. */
export function canonical(e: unknown): string {
  return JSON.stringify(e, (k, v: unknown) =>
    k === 'annots'
      ? undefined
      : v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
  );
}
