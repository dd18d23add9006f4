/** An operation receipt's errors, as the node writes them (`{ kind, id, … }`, newest protocol first). */

/** The receipt's FAILWITH error (`…michelson_v1.script_rejected`): its `location` and `with` value, if any. */
export function scriptRejected(errors: unknown): { location?: unknown; with?: unknown } | undefined {
  if (!Array.isArray(errors)) return undefined;
  return (
    (errors as Array<{ id?: unknown; location?: unknown; with?: unknown } | null>).find(
      (e) => typeof e?.id === 'string' && e.id.endsWith('michelson_v1.script_rejected'),
    ) ?? undefined
  );
}
