/**
 * The API names an unannotated type by its prim and a counter ('@nat_1', '@pair_25', '@or_3'), as the
 * reference does (bcd-api.md §5): an internal id, not a name a user gave. The pages show the field's
 * annotation, else its type, never such an id.
 */
import type { Typedef } from '../../api/contract-types';

const GENERATED = /^@([a-z_]+)_\d+$/;

/** True for a name the API generated for an unannotated type ('@nat_1'), false for an annotation. */
export function isGeneratedName(name: string | undefined | null): boolean {
  return typeof name === 'string' && GENERATED.test(name);
}

/** One typedef entry as shown: its name (null when it has none to show), its type and its arguments. */
export interface TypedefRow {
  name: string | null;
  type: string;
  args: { key: string | null; value: string }[];
}

/** `$name` references in a typedef's type texts. */
export const TYPE_REFERENCE = /(\$[A-Za-z0-9_@%.:#-]+)/;

/**
 * A typedef (the root entry, then the sub-types referenced as `$name`) without generated names: the root entry
 * and unannotated arguments show their type only; a referenced sub-type with a generated name is named by its
 * type (numbered when several sub-types of one type have no name), in its entry and in its references.
 */
export function readableTypedef(typedef: readonly Typedef[]): TypedefRow[] {
  const labels = new Map<string, string>();
  const generated = typedef.slice(1).filter((t) => isGeneratedName(t.name));
  const prims = generated.map((t) => GENERATED.exec(t.name)![1]!);
  const seen = new Map<string, number>();
  generated.forEach((t, i) => {
    const prim = prims[i]!;
    const several = prims.filter((p) => p === prim).length > 1;
    const n = (seen.get(prim) ?? 0) + 1;
    seen.set(prim, n);
    labels.set(t.name.slice(1), several ? `${prim}#${n}` : prim);
  });
  const text = (s: string) =>
    s
      .split(TYPE_REFERENCE)
      .map((part) =>
        part.startsWith('$') && labels.has(part.slice(1)) ? `$${labels.get(part.slice(1))}` : part,
      )
      .join('');
  return typedef.map((t, i) => {
    const name = !isGeneratedName(t.name) ? t.name : i === 0 ? null : (labels.get(t.name.slice(1)) ?? null);
    return {
      name,
      type: text(t.type ?? ''),
      args: (t.args ?? []).map((a) => ({
        key: a.key === undefined || a.key === '' || isGeneratedName(a.key) ? null : a.key,
        value: text(a.value),
      })),
    };
  });
}
