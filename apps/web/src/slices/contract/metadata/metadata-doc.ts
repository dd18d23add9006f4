/**
 * Reads a TZIP-16 contract metadata document (untrusted JSON) into what the Metadata tab shows.
 * Unknown or ill-typed fields are dropped; strings are cut so a hostile document cannot flood the page.
 */
import { isObject } from '../../../api/parse';

const MAX_TEXT = 2000;
const MAX_ITEMS = 100;

export interface MetadataView {
  name: string;
  description: string;
  /** Implementation kinds: 'Michelson storage view', 'REST API query'. */
  implementations: string[];
  pure: boolean;
}

export interface MetadataSummary {
  name: string | null;
  description: string | null;
  version: string | null;
  license: string | null;
  homepage: string | null;
  authors: string[];
  interfaces: string[];
  views: MetadataView[];
}

const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.slice(0, MAX_TEXT) : null;
const texts = (v: unknown): string[] =>
  Array.isArray(v)
    ? v
        .slice(0, MAX_ITEMS)
        .map(text)
        .filter((s): s is string => s !== null)
    : [];

const IMPLEMENTATION_KINDS: Record<string, string> = {
  michelsonStorageView: 'Michelson storage view',
  restApiQuery: 'REST API query',
};

function implementationKinds(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const kinds: string[] = [];
  for (const impl of v.slice(0, MAX_ITEMS)) {
    if (!isObject(impl)) continue;
    for (const key of Object.keys(impl)) {
      const kind = IMPLEMENTATION_KINDS[key];
      if (kind && !kinds.includes(kind)) kinds.push(kind);
    }
  }
  return kinds;
}

/** Only http(s) homepages become links. */
export function safeHomepage(v: unknown): string | null {
  const s = text(v);
  if (s === null) return null;
  try {
    const url = new URL(s);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

export function metadataSummary(doc: unknown): MetadataSummary {
  const d = isObject(doc) ? doc : {};
  const license = isObject(d.license) ? text(d.license.name) : text(d.license);
  const views = Array.isArray(d.views)
    ? d.views
        .slice(0, MAX_ITEMS)
        .filter(isObject)
        .map((v) => ({
          name: text(v.name) ?? 'NO NAME',
          description: text(v.description) ?? '',
          implementations: implementationKinds(v.implementations),
          pure: v.pure === true,
        }))
    : [];
  return {
    name: text(d.name),
    description: text(d.description),
    version: text(d.version),
    license,
    homepage: safeHomepage(d.homepage),
    authors: texts(d.authors),
    interfaces: texts(d.interfaces),
    views,
  };
}

/** The resolving error line: 'Resolving metadata error' with '(after N attempts)' when retried. */
export function resolvingErrorText(base: string, retryCount: number): string {
  return retryCount > 0 ? `${base} (after ${retryCount} attempts)` : base;
}
