/**
 * What-if answers show the big maps a bundle allocated as new big maps (issue 33), not as the run's temporary
 * ids: on the chain a new big map gets its id only when the operation is applied.
 */
import { buildTypeTree, toMiguel, type MiguelNode } from '@michelscope/michelson';
import { keyString, stampAll } from '../render/big-map-keys';
import type { Overlay } from './whatif-overlay';

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/**
 * A storage diff with the big maps the bundle allocated shown as such (issue 33): on the chain a new big map
 * only gets its id when the operation is applied, so the run's temporary id (-1, -2…) means nothing to a
 * reader. Each becomes a created big map with its keys as children (a map with data, reference §5.4), or,
 * when it is a copy of a chain big map whose keys the answer does not hold, a created node saying so. The
 * field names of the new maps are noted in `names` (by id) for the big-map changes.
 */
export function withNewBigMaps(
  node: MiguelNode | null | undefined,
  overlay: Overlay,
  names: Map<string, string>,
): MiguelNode | null {
  if (!node) return null;
  const v = node.value;
  if (node.type === 'big_map' && !node.children?.length && typeof v === 'number' && v < 0) {
    const id = BigInt(v);
    if (node.name && !node.name.startsWith('@') && !names.has(String(id))) names.set(String(id), node.name);
    const made = overlay.newMapEntries(id);
    if (made) {
      const { prim, type, name } = node;
      const base = { ...(prim ? { prim } : {}), ...(type ? { type } : {}), ...(name ? { name } : {}) };
      if (made.copyOf !== null)
        return { ...base, value: `new copy of Big Map ${made.copyOf}`, diff_type: 'create' };
      const types = overlay.typesOf(id);
      const kt = types && safe(() => buildTypeTree(types.key));
      const vt = types && safe(() => buildTypeTree(types.value));
      const children = made.entries.flatMap(({ key, value }) => {
        const child = vt && safe(() => toMiguel(vt, value)[0]);
        return child ? [stampAll({ ...child, name: keyString(kt ?? undefined, key) }, 'create')] : [];
      });
      return { ...base, diff_type: 'create', children };
    }
  }
  if (!node.children?.length) return node;
  return { ...node, children: node.children.map((c) => withNewBigMaps(c, overlay, names)!) };
}
