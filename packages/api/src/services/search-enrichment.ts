/**
 * What a page of search items gets after the search, one read per kind for the whole page: the contracts'
 * metadata names and verified flags, the big-map keys' readable text and the tokens' metadata fields.
 */
import type { SearchItem, TokenFileFormat, TokenSearchBody } from '@michelscope/api-types';
import { getBigMap, searchAccountFields, tokenMetadataOf } from '@michelscope/db/read';
import type { ApiContext } from '../context';
import { keyString, typesOf } from '../render/big-map-keys';
import { highlights } from './search-highlight';

const KEY_TYPE_TTL_MS = 30_000;

/**
 * `Name` of each `bigmapkey` item: the readable key (`key_string` of `GET /bigmap/…/keys`: the string, the
 * decimal, else inline Michelson), from its big map's key type; a highlight of it when the text matched.
 */
export async function withKeyNames(ctx: ApiContext, items: SearchItem[], query: string): Promise<void> {
  const keys = items.flatMap((i) => (i.type === 'bigmapkey' ? [i] : []));
  if (keys.length === 0) return;
  const types = new Map<string, Promise<ReturnType<typeof typesOf>>>();
  const typeOf = (network: string, ptr: number) => {
    const k = `${network}\0${ptr}`;
    let t = types.get(k);
    if (!t) {
      t = ctx.cache
        .get(`search:bigmap:${network}:${ptr}`, KEY_TYPE_TTL_MS, () => getBigMap(ctx.readDb, network, ptr))
        .then(typesOf);
      types.set(k, t);
    }
    return t;
  };
  await Promise.all(
    keys.map(async (item) => {
      const b = item.body;
      const t = await typeOf(b.Network, b.BigMapID);
      const name = keyString(t?.key, b.Key);
      b.Name = name;
      if (item.found_by === 'Key' && item.highlights) item.highlights = { Key: highlights(name, query) };
    }),
  );
}

/**
 * The names of the contracts among `account` items, in the reference shape the BCD frontend reads
 * (`getAccountAlias`: `TzKT.Name`, then `TZIP.Name`, `Profiles.Name`, `Domains.Name`), as
 * `GET /search/v1/account/{network}/{address}` answers: `TZIP` the contract's TZIP-16 metadata name. No
 * `TzKT` (this server keeps no TzKT alias list) and no token's name (a token is not its contract, issue 33).
 * And `verified: true` on those whose script has a verified source (issue 38), absent otherwise, so the
 * reference shape is unchanged. One statement for the page.
 */
export async function withAccountFields(ctx: ApiContext, items: SearchItem[]): Promise<void> {
  const accounts = items.flatMap((i) => (i.type === 'account' && i.body.IsContract === true ? [i] : []));
  if (accounts.length === 0) return;
  const rows = await searchAccountFields(
    ctx.readDb,
    accounts.map((i) => ({ network: i.body.Network, address: i.value })),
  );
  const byKey = new Map(rows.map((r) => [`${r.network}\0${r.address}`, r]));
  for (const item of accounts) {
    const a = byKey.get(`${item.body.Network}\0${item.value}`);
    if (a?.metadata) item.body.TZIP = { Name: a.metadata };
    if (a?.verified) item.body.verified = true;
  }
}

/** Longest text and list taken from a token's metadata into a search item (the metadata is untrusted). */
const TOKEN_TEXT_MAX = 2000;
const TOKEN_LIST_MAX = 20;

const metaText = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.slice(0, TOKEN_TEXT_MAX) : undefined;
const metaTexts = (v: unknown): string[] | undefined => {
  const out = Array.isArray(v) ? v.flatMap((x) => metaText(x) ?? []).slice(0, TOKEN_LIST_MAX) : [];
  return out.length ? out : undefined;
};
function fileFormats(v: unknown): TokenFileFormat[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: TokenFileFormat[] = [];
  for (const f of v.slice(0, TOKEN_LIST_MAX)) {
    if (!f || typeof f !== 'object') continue;
    const o = f as Record<string, unknown>;
    const uri = metaText(o.uri);
    if (!uri) continue;
    const size = typeof o.fileSize === 'string' ? Number(o.fileSize) : o.fileSize;
    out.push({
      uri,
      ...(metaText(o.fileName) ? { fileName: metaText(o.fileName) } : {}),
      ...(typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? { fileSize: size } : {}),
      ...(metaText(o.mimeType) ? { mimeType: metaText(o.mimeType) } : {}),
    });
  }
  return out.length ? out : undefined;
}

/** The fields of a token's resolved metadata (TZIP-12/21) its search card shows; absent when not given. */
export function tokenFields(metadata: unknown): Partial<TokenSearchBody> {
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  const m = metadata as Record<string, unknown>;
  const fields: Partial<TokenSearchBody> = {
    Symbol: metaText(m.symbol),
    Description: metaText(m.description),
    Minter: metaText(m.minter),
    Creators: metaTexts(m.creators),
    Tags: metaTexts(m.tags),
    Formats: fileFormats(m.formats),
    ThumbnailURI: metaText(m.thumbnailUri),
    Homepage: metaText(m.homepage),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** The metadata fields of each `token` item (one statement for the page). */
export async function withTokenFields(ctx: ApiContext, items: SearchItem[]): Promise<void> {
  const tokens = items.flatMap((i) => (i.type === 'token' ? [i] : []));
  if (tokens.length === 0) return;
  const rows = await tokenMetadataOf(
    ctx.readDb,
    tokens.map((t) => ({ network: t.body.Network, contract: t.body.Address, tokenId: t.body.TokenID })),
  );
  const byKey = new Map(rows.map((r) => [`${r.network}\0${r.contract}\0${r.tokenId}`, r.metadata]));
  for (const t of tokens) {
    const metadata = byKey.get(`${t.body.Network}\0${t.body.Address}\0${t.body.TokenID}`);
    if (metadata !== undefined) Object.assign(t.body, tokenFields(metadata));
  }
}
