/** Parsers for search-service answers: items of unknown type or without a body are dropped. */
import { invalid, isObject, type Json } from './parse';
import { num, str, strList } from './json-fields';
import type { FileFormat, SearchBody, SearchItem, SearchItemType, SearchResponse } from './search-types';

const ITEM_TYPES: ReadonlySet<string> = new Set(['account', 'operation', 'bigmapkey', 'token']);

function optNum(obj: Json, key: string): number | null {
  const value = obj[key];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return null;
}

function formats(value: unknown): FileFormat[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((f) => ({
    uri: str(f, 'uri'),
    fileName: str(f, 'fileName'),
    fileSize: optNum(f, 'fileSize'),
    mimeType: str(f, 'mimeType'),
  }));
}

/**
 * A body's fields. `Name` of an account is its alias from the sources the search service gives it
 * (`TzKT.Name`, `TZIP.Name`, `Profiles.Name`, `Domains.Name`, as the account alias answers), or a plain `Name`.
 */
export function parseSearchBody(b: Json): SearchBody {
  const tokenId = b.TokenID;
  return {
    Network: str(b, 'Network'),
    Address: str(b, 'Address'),
    IsContract: b.IsContract === true,
    Hash: str(b, 'Hash'),
    Destination: str(b, 'Destination'),
    Entrypoint: str(b, 'Entrypoint'),
    Type: str(b, 'Type'),
    Status: str(b, 'Status'),
    BigMapID: optNum(b, 'BigMapID'),
    KeyHash: str(b, 'KeyHash'),
    IsActive: b.IsActive === true,
    TokenID: typeof tokenId === 'number' || typeof tokenId === 'string' ? String(tokenId) : '',
    Name: str(b, 'Name') || aliasFromSources(b) || '',
    Symbol: str(b, 'Symbol'),
    Minter: str(b, 'Minter'),
    Creators: strList(b, 'Creators'),
    Tags: strList(b, 'Tags'),
    Formats: formats(b.Formats),
    ThumbnailURI: str(b, 'ThumbnailURI'),
    Description: str(b, 'Description'),
    Homepage: str(b, 'Homepage'),
    Interfaces: strList(b, 'Interfaces'),
    Authors: strList(b, 'Authors'),
    Timestamp: str(b, '@timestamp'),
    mempool: b.mempool === true,
    Counter: optNum(b, 'Counter'),
    Level: optNum(b, 'Level'),
    TotalCost: optNum(b, 'TotalCost'),
    Flow: optNum(b, 'Flow'),
    Internals: optNum(b, 'Internals'),
  };
}

function highlights(value: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!isObject(value)) return out;
  for (const [field, fragments] of Object.entries(value)) {
    if (Array.isArray(fragments)) out[field] = fragments.filter((f): f is string => typeof f === 'string');
  }
  return out;
}

export function parseSearchItems(value: unknown): SearchItem[] {
  if (!Array.isArray(value)) return [];
  const items: SearchItem[] = [];
  for (const raw of value) {
    if (!isObject(raw) || typeof raw.type !== 'string' || !ITEM_TYPES.has(raw.type) || !isObject(raw.body)) {
      continue;
    }
    items.push({
      type: raw.type as SearchItemType,
      value: str(raw, 'value'),
      body: parseSearchBody(raw.body),
      highlights: highlights(raw.highlights),
      found_by: str(raw, 'found_by'),
    });
  }
  return items;
}

export function parseSearchResponse(body: unknown): SearchResponse {
  if (!isObject(body)) throw invalid('search answer', 'not an object');
  return { items: parseSearchItems(body.items), total: num(body, 'total'), took: num(body, 'took') };
}

/** POST /v1/suggest answers `{items}` (a bare list is accepted too). */
export function parseSuggestResponse(body: unknown): SearchItem[] {
  if (Array.isArray(body)) return parseSearchItems(body);
  if (!isObject(body)) throw invalid('suggestions', 'not an object');
  return parseSearchItems(body.items);
}

export function parseMimeTypes(body: unknown): string[] {
  if (!Array.isArray(body)) throw invalid('mime types', 'not a list');
  const names = body.map((m) => (isObject(m) ? m.name : m)).filter((n): n is string => typeof n === 'string');
  return [...new Set(names)];
}

/** The account alias: first present of the indexer name, token-metadata name, profile name, domain name. */
export function aliasFromSources(body: unknown): string | null {
  if (!isObject(body)) return null;
  for (const source of ['TzKT', 'TZIP', 'Profiles', 'Domains']) {
    const entry = body[source];
    if (isObject(entry) && typeof entry.Name === 'string' && entry.Name.trim() !== '') return entry.Name;
  }
  return null;
}
