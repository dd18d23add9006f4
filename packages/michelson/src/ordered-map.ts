/**
 * A map keyed by Michelson values, kept in Michelson comparison order (the order of `map` / `big_map`
 * entries on chain). Adding an existing key replaces its value. Lookups and inserts are O(log n) searches.
 */
import { compareValues } from './compare';
import type { Micheline } from './micheline-core';
import { buildTypeTree } from './type-tree';
import type { TypeNode } from './type-tree';

export class OrderedMap<V> {
  private readonly keyType: TypeNode;
  private readonly keyList: Micheline[] = [];
  private readonly valueList: V[] = [];

  /** `keyType`: a comparable Michelson type (Micheline or an already built tree). */
  constructor(keyType: Micheline | TypeNode) {
    this.keyType = 'id' in (keyType as object) ? (keyType as TypeNode) : buildTypeTree(keyType);
  }

  /** Index of `key`, or `-(insertion point) - 1` when absent. Throws when the key does not fit the type. */
  private search(key: Micheline): number {
    let lo = 0;
    let hi = this.keyList.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compareValues(this.keyType, this.keyList[mid]!, key);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -lo - 1;
  }

  /** Adds or replaces the value of `key`. */
  add(key: Micheline, value: V): this {
    const i = this.search(key);
    if (i >= 0) this.valueList[i] = value;
    else {
      this.keyList.splice(-i - 1, 0, key);
      this.valueList.splice(-i - 1, 0, value);
    }
    return this;
  }

  get(key: Micheline): V | undefined {
    const i = this.search(key);
    return i >= 0 ? this.valueList[i] : undefined;
  }

  has(key: Micheline): boolean {
    return this.search(key) >= 0;
  }

  /** Removes `key`; returns whether it was present. */
  remove(key: Micheline): boolean {
    const i = this.search(key);
    if (i < 0) return false;
    this.keyList.splice(i, 1);
    this.valueList.splice(i, 1);
    return true;
  }

  get size(): number {
    return this.keyList.length;
  }

  /** Keys in comparison order. */
  keys(): Micheline[] {
    return [...this.keyList];
  }

  /** `[key, value]` pairs in comparison order. */
  entries(): [Micheline, V][] {
    return this.keyList.map((k, i) => [k, this.valueList[i]!]);
  }
}
