import type { TokenMetadata } from '@michelscope/api-types';
import type { ApiContext } from '../context';

type Meta = Record<string, unknown>;
const str = (m: Meta, k: string) => (typeof m[k] === 'string' ? m[k] : undefined);
const bool = (m: Meta, k: string) => (typeof m[k] === 'boolean' ? m[k] : undefined);
const strs = (m: Meta, k: string) =>
  Array.isArray(m[k]) ? (m[k] as unknown[]).filter((x): x is string => typeof x === 'string') : undefined;

/** Resolved token metadata of a contract in the historical `TokenMetadata` shape (reference §4.4). */
export async function contractTokens(
  ctx: ApiContext,
  network: string,
  contract: string,
  f: { size: number; offset: number; tokenId?: number; minLevel?: number; maxLevel?: number },
): Promise<TokenMetadata[]> {
  let q = ctx.db
    .selectFrom('token_metadata')
    .select(['contract', 'token_id', 'level', 'name', 'symbol', 'decimals', 'metadata', 'token_info'])
    .where('network', '=', network)
    .where('contract', '=', contract);
  if (f.tokenId !== undefined) q = q.where('token_id', '=', String(f.tokenId));
  if (f.minLevel !== undefined) q = q.where('level', '>=', f.minLevel);
  if (f.maxLevel !== undefined) q = q.where('level', '<', f.maxLevel);
  const rows = await q.orderBy('token_id').limit(f.size).offset(f.offset).execute();
  return rows.map((r) => {
    const m = (r.metadata && typeof r.metadata === 'object' ? r.metadata : {}) as Meta;
    const t: TokenMetadata = { contract: r.contract, network, level: r.level, token_id: Number(r.token_id) };
    const set = <K extends keyof TokenMetadata>(k: K, v: TokenMetadata[K] | undefined) => {
      if (v !== undefined && v !== null) t[k] = v;
    };
    set('symbol', r.symbol ?? str(m, 'symbol'));
    set('name', r.name ?? str(m, 'name'));
    set('decimals', r.decimals ?? (Number.isInteger(Number(m.decimals)) ? Number(m.decimals) : undefined));
    set('description', str(m, 'description'));
    set('artifact_uri', str(m, 'artifactUri'));
    set('display_uri', str(m, 'displayUri'));
    set('thumbnail_uri', str(m, 'thumbnailUri'));
    set('external_uri', str(m, 'externalUri'));
    set('minter', str(m, 'minter'));
    set('is_transferable', bool(m, 'isTransferable'));
    set('is_boolean_amount', bool(m, 'isBooleanAmount'));
    set('should_prefer_symbol', bool(m, 'shouldPreferSymbol'));
    set('creators', strs(m, 'creators'));
    set('tags', strs(m, 'tags'));
    if (m.formats !== undefined) t.formats = m.formats;
    if (r.token_info != null) t.token_info = r.token_info;
    return t;
  });
}

export async function countTokens(ctx: ApiContext, network: string, contract: string): Promise<number> {
  const r = await ctx.db
    .selectFrom('token_metadata')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('network', '=', network)
    .where('contract', '=', contract)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The resolved TZIP-16 metadata JSON of a contract, or null. */
export async function contractMetadataOf(
  ctx: ApiContext,
  network: string,
  address: string,
): Promise<unknown> {
  const row = await ctx.db
    .selectFrom('contract_metadata')
    .select(['metadata'])
    .where('network', '=', network)
    .where('address', '=', address)
    .where('status', '=', 3)
    .executeTakeFirst();
  return row?.metadata ?? null;
}
