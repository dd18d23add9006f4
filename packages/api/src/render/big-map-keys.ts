/**
 * Types of a big map (key, value, the map) built from its stored type JSON, and the readable text of a key
 * (`key_string` of the BCD API, `Name` of a search service `bigmapkey` item).
 */
import type { BigMapRow } from '@michelscope/db/read';
import { buildTypeTree, keyText, toMicheline, type MiguelNode, type TypeNode } from '@michelscope/michelson';
import { LRUCache } from 'lru-cache';

export interface Types {
  key: TypeNode;
  value: TypeNode;
  map: TypeNode;
}

export function typesOf(row: Pick<BigMapRow, 'key_type' | 'value_type'> | undefined): Types | undefined {
  if (!row) return undefined;
  try {
    const map = buildTypeTree({
      prim: 'big_map',
      args: [toMicheline(row.key_type), toMicheline(row.value_type)],
    });
    return { key: map.args[0]!, value: map.args[1]!, map };
  } catch {
    return undefined;
  }
}

/**
 * Types built from the JSON text of a big map's key and value types (bounded; keyed by the text itself, so
 * an entry stays right whatever big map, or reorg, the text comes from).
 */
const typesByText = new LRUCache<string, { types: Types | undefined }>({ max: 1000 });

export function typesOfText(keyType: string, valueType: string): Types | undefined {
  const k = `${keyType}\u0000${valueType}`;
  let hit = typesByText.get(k);
  if (!hit) {
    hit = { types: typesOf({ key_type: JSON.parse(keyType), value_type: JSON.parse(valueType) }) };
    typesByText.set(k, hit);
  }
  return hit.types;
}

/** The key's scalar value (string, decimal) or readable inline Michelson; its JSON when the type is unknown. */
export function keyString(t: TypeNode | undefined, key: unknown): string {
  try {
    if (t) return keyText(t, toMicheline(key));
  } catch {
    /* fall through */
  }
  return JSON.stringify(key).slice(0, 1000);
}

/** Marks a whole Miguel tree as created or deleted (a key or value present at one end only). */
export function stampAll(n: MiguelNode, diffType: 'create' | 'delete'): MiguelNode {
  return {
    ...n,
    diff_type: diffType,
    ...(n.children ? { children: n.children.map((c) => stampAll(c, diffType)) } : {}),
  };
}
