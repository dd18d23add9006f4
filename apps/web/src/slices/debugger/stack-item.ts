/** A recorded stack item (an index into the trace's items) read for display: decoded text, type label, tree node. */
import {
  buildTypeTree,
  formatMichelsonInline,
  readableText,
  toMiguelNode,
  type MiguelNode,
} from '@michelscope/michelson';
import type { DebugResult } from '@michelscope/api-types';

/** One stack item decoded as the storage viewer reads values (addresses, timestamps, …), with its type. */
export function itemText(d: DebugResult, id: number): { type: string; value: string } {
  const [t, value] = d.trace.items[id] ?? [0, { prim: '…' }];
  const type = d.trace.types[t] ?? { prim: '?' };
  let text: string;
  try {
    text = readableText(type, value);
  } catch {
    text = formatMichelsonInline(value);
  }
  return { type: formatMichelsonInline(type), value: text };
}

/** The type text shown next to a stack item (long types shortened). */
export const typeLabel = (d: DebugResult, id: number) => {
  const text = formatMichelsonInline(d.trace.types[d.trace.items[id]?.[0] ?? -1] ?? { prim: '?' });
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
};

/** A stack item as the storage viewer's typed tree node (a pair stays one node: its fields below it). */
export function itemNode(d: DebugResult, id: number): MiguelNode {
  const [t, value] = d.trace.items[id] ?? [0, { prim: '…' }];
  const type = d.trace.types[t] ?? { prim: '?' };
  try {
    const node = toMiguelNode(buildTypeTree(type), value);
    return node.type === 'namedtuple' ? { ...node, type: 'pair' } : node;
  } catch {
    return { value: formatMichelsonInline(value) };
  }
}
