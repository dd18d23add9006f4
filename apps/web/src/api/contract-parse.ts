/**
 * Parsers for the account / contract / storage answers. Everything is untrusted: malformed items are
 * dropped, malformed answers give a clear ApiError, never a crash in a component.
 */
import { invalid, isObject, listItems, type Json } from './parse';
import { num, optStr, str, strList } from './json-fields';
import type {
  ContractConstant,
  ContractInfo,
  MiguelNode,
  SameContracts,
  StorageSchema,
  Typedef,
} from './contract-types';

/** A list answer's items; `null` (an empty list the way the reference writes it) is no item. */
export function listOf<T>(body: unknown, what: string, item: (obj: Json) => T | null): T[] {
  return body === null ? [] : listItems(body, what, item);
}

/** One Miguel node, or null when the value is not an object. */
export function parseMiguel(value: unknown): MiguelNode | null {
  return isObject(value) ? value : null;
}

/** A Miguel array (storage roots, parameters, payloads); a single node is accepted as a one-item list. */
export function parseMiguelList(value: unknown): MiguelNode[] {
  if (Array.isArray(value)) return value.filter(isObject);
  const one = parseMiguel(value);
  return one ? [one] : [];
}

function typedefAt(o: Json, depth: number): Typedef {
  const out: Typedef = { name: str(o, 'name') };
  const type = optStr(o, 'type');
  if (type !== null) out.type = type;
  if (Array.isArray(o.args)) {
    out.args = o.args
      .filter(isObject)
      .map((a) => ({ ...(typeof a.key === 'string' ? { key: a.key } : {}), value: str(a, 'value') }));
  }
  if (depth < 32 && Array.isArray(o.typedef)) {
    out.typedef = o.typedef.filter(isObject).map((t) => typedefAt(t, depth + 1));
  }
  return out;
}

export function parseTypedefs(value: unknown): Typedef[] {
  return Array.isArray(value) ? value.filter(isObject).map((t) => typedefAt(t, 0)) : [];
}

/** The contract, or null for a 204 (unknown contract) / empty answer. */
export function parseContractInfo(body: unknown): ContractInfo | null {
  if (body === null) return null;
  if (!isObject(body) || typeof body.address !== 'string') throw invalid('contract', 'no address');
  return {
    address: body.address,
    network: str(body, 'network'),
    alias: optStr(body, 'alias'),
    level: num(body, 'level'),
    timestamp: str(body, 'timestamp'),
    hash: optStr(body, 'hash'),
    tags: strList(body, 'tags'),
    entrypoints: strList(body, 'entrypoints'),
    manager: optStr(body, 'manager'),
    delegate: optStr(body, 'delegate'),
    last_action: optStr(body, 'last_action'),
    same_count: num(body, 'same_count'),
  };
}

export function parseSameContracts(body: unknown): SameContracts {
  if (body === null) return { count: 0, contracts: [] };
  if (!isObject(body)) throw invalid('same contracts', 'not an object');
  return {
    count: num(body, 'count'),
    contracts: listOf(body.contracts ?? [], 'same contracts', (o) => {
      const address = optStr(o, 'address');
      return address === null
        ? null
        : {
            address,
            network: str(o, 'network'),
            last_action: optStr(o, 'last_action'),
            alias: optStr(o, 'alias'),
          };
    }),
  };
}

export function parseStorageSchema(body: unknown): StorageSchema {
  if (!isObject(body)) throw invalid('storage schema', 'not an object');
  return { name: str(body, 'name'), typedef: parseTypedefs(body.typedef) };
}

export function parseContractConstants(body: unknown): ContractConstant[] {
  return listOf(body, 'global constants', (o) => {
    const address = optStr(o, 'address');
    return address === null ? null : { address, timestamp: str(o, 'timestamp'), level: num(o, 'level') };
  });
}

/** A JSON string answer (Michelson text of /code and /storage/raw). */
export function parseText(body: unknown, what: string): string {
  if (typeof body !== 'string') throw invalid(what, 'not a string');
  return body;
}
