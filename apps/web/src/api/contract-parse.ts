/**
 * What is left of the contract answers' checks: the Miguel trees of a view's answer (issue 23: moves to the
 * resource registry).
 */
import { isObject } from './parse';
import type { MiguelNode } from './contract-types';

/** A Miguel array (a view's result); a single node is accepted as a one-item list. */
export function parseMiguelList(value: unknown): MiguelNode[] {
  if (Array.isArray(value)) return value.filter(isObject);
  return isObject(value) ? [value] : [];
}
