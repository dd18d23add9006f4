/** Parsers for the big-map endpoints (bcd-api.md §3.14). */
import { invalid, isObject } from './parse';
import { num, optStr, str } from './json-fields';
import { listOf, parseMiguel, parseTypedefs } from './contract-parse';
import type { MiguelNode, Typedef } from './contract-types';

export interface BigMapDetails {
  network: string;
  address: string;
  ptr: number;
  active_keys: number;
  total_keys: number;
  typedef: Typedef[];
}

export interface BigMapAction {
  action: string;
  source_ptr: number | null;
  destination_ptr: number | null;
  timestamp: string;
  level: number;
}

export interface BigMapKeyItem {
  key: MiguelNode | null;
  key_hash: string;
  key_string: string;
  level: number;
  timestamp: string;
  is_active: boolean;
  /** Number of updates of the key. */
  count: number;
}

export interface BigMapKeyState {
  key: MiguelNode | null;
  key_hash: string;
  key_string: string;
  value: MiguelNode | null;
  last_update_level: number;
  last_update_time: string;
  removed: boolean;
  updates_count: number;
}

export interface BigMapKeyHistory {
  key: MiguelNode | null;
  key_hash: string;
  values: { value: MiguelNode | null; level: number; timestamp: string }[];
  total: number;
}

const optNum = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

export function parseBigMapDetails(body: unknown): BigMapDetails | null {
  if (body === null) return null;
  if (!isObject(body)) throw invalid('big map', 'not an object');
  return {
    network: str(body, 'network'),
    address: str(body, 'address'),
    ptr: num(body, 'ptr'),
    active_keys: num(body, 'active_keys'),
    total_keys: num(body, 'total_keys'),
    typedef: parseTypedefs(body.typedef),
  };
}

export function parseBigMapHistory(body: unknown): BigMapAction[] {
  if (body === null) return [];
  if (!isObject(body)) throw invalid('big map history', 'not an object');
  return listOf(body.items ?? [], 'big map history', (o) => ({
    action: str(o, 'action'),
    source_ptr: optNum(o.source_ptr),
    destination_ptr: optNum(o.destination_ptr),
    timestamp: str(o, 'timestamp'),
    level: num(o, 'level'),
  }));
}

export function parseBigMapKeys(body: unknown): BigMapKeyItem[] {
  return listOf(body, 'big map keys', (o) => {
    const data = isObject(o.data) ? o.data : o;
    const keyHash = optStr(data, 'key_hash');
    if (keyHash === null) return null;
    return {
      key: parseMiguel(data.key),
      key_hash: keyHash,
      key_string: str(data, 'key_string'),
      level: num(data, 'level'),
      timestamp: str(data, 'timestamp'),
      is_active: data.is_active !== false,
      count: num(o, 'count'),
    };
  });
}

export function parseBigMapKeyState(body: unknown): BigMapKeyState {
  if (!isObject(body)) throw invalid('big map key', 'not an object');
  return {
    key: parseMiguel(body.key),
    key_hash: str(body, 'key_hash'),
    key_string: str(body, 'key_string'),
    value: parseMiguel(body.value),
    last_update_level: num(body, 'last_update_level'),
    last_update_time: str(body, 'last_update_time'),
    removed: body.removed === true,
    updates_count: num(body, 'updates_count'),
  };
}

/** Key history; 204 (no diffs) is an empty history. */
export function parseBigMapKeyHistory(body: unknown): BigMapKeyHistory {
  if (body === null) return { key: null, key_hash: '', values: [], total: 0 };
  if (!isObject(body)) throw invalid('big map key history', 'not an object');
  return {
    key: parseMiguel(body.key),
    key_hash: str(body, 'key_hash'),
    values: listOf(body.values ?? [], 'big map key history', (v) => ({
      value: parseMiguel(v.value),
      level: num(v, 'level'),
      timestamp: str(v, 'timestamp'),
    })),
    total: num(body, 'total'),
  };
}
