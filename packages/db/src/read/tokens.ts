import type { Db } from '../schema';
import { preparedQuery } from './prepared';

/** A row of `token_metadata` as the legacy tokens route reads it. */
export interface TokenMetadataRow {
  contract: string;
  token_id: string;
  level: number;
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  metadata: unknown;
  token_info: unknown;
}

/** Which token metadata rows: one token, a level range (`minLevel` ≤ level < `maxLevel`), one page by token id. */
export interface TokenMetadataFilter {
  size: number;
  offset: number;
  tokenId?: number;
  minLevel?: number;
  maxLevel?: number;
  /**
   * Keyset paging: the tokens whose id is above this one (the last id of the previous page, a decimal string),
   * a range of the primary key at any depth; `offset` is then not used.
   */
  afterTokenId?: string;
}

/** The token metadata rows of a contract, by token id. */
export async function tokenMetadataRows(
  db: Db,
  network: string,
  contract: string,
  f: TokenMetadataFilter,
): Promise<TokenMetadataRow[]> {
  // the pages every tokens tab asks for (no token id, no level range): fixed texts, prepared once a connection
  if (f.tokenId === undefined && f.minLevel === undefined && f.maxLevel === undefined) {
    if (f.afterTokenId !== undefined) return afterPageQuery(db, [network, contract, f.afterTokenId, f.size]);
    if (f.offset < DEEP_TOKEN_OFFSET) return firstPagesQuery(db, [network, contract, f.size, f.offset]);
  }
  let q = db.selectFrom('token_metadata').where('network', '=', network).where('contract', '=', contract);
  if (f.tokenId !== undefined) q = q.where('token_id', '=', String(f.tokenId));
  if (f.minLevel !== undefined) q = q.where('level', '>=', f.minLevel);
  if (f.maxLevel !== undefined) q = q.where('level', '<', f.maxLevel);
  if (f.afterTokenId !== undefined) q = q.where('token_id', '>', f.afterTokenId);
  if (f.afterTokenId !== undefined || f.offset < DEEP_TOKEN_OFFSET)
    return q
      .select(COLUMNS)
      .orderBy('token_id')
      .limit(f.size)
      .offset(f.afterTokenId === undefined ? f.offset : 0)
      .execute();
  // a deep page: the skipped tokens walked in the primary key alone (an index-only scan), the page's rows read
  // from the table (the plain query reads every skipped row's metadata: 100,000-token FA2, issue 36)
  const page = q.select('token_id').orderBy('token_id').limit(f.size).offset(f.offset);
  return db
    .selectFrom('token_metadata')
    .select(COLUMNS)
    .where('network', '=', network)
    .where('contract', '=', contract)
    .where('token_id', 'in', page)
    .orderBy('token_id')
    .execute();
}

const COLUMNS = [
  'contract',
  'token_id',
  'level',
  'name',
  'symbol',
  'decimals',
  'metadata',
  'token_info',
] as const;
const TOKEN_COLUMNS = COLUMNS.join(', ');
/** A page of a contract's tokens at an offset below {@link DEEP_TOKEN_OFFSET}. */
const firstPagesQuery = preparedQuery<TokenMetadataRow>(
  `SELECT ${TOKEN_COLUMNS} FROM token_metadata WHERE network = $1 AND contract = $2
    ORDER BY token_id LIMIT $3 OFFSET $4`,
);
/** A page of a contract's tokens after a token id (keyset). */
const afterPageQuery = preparedQuery<TokenMetadataRow>(
  `SELECT ${TOKEN_COLUMNS} FROM token_metadata WHERE network = $1 AND contract = $2 AND token_id > $3
    ORDER BY token_id LIMIT $4`,
);

/** From this offset on, token pages skip rows in the primary key alone (deferred join). */
export const DEEP_TOKEN_OFFSET = 1000;

/** How many token metadata rows a contract has. */
export async function countTokenMetadata(db: Db, network: string, contract: string): Promise<number> {
  const r = await db
    .selectFrom('token_metadata')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('network', '=', network)
    .where('contract', '=', contract)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The resolved (status 3) TZIP-16 metadata JSON of a contract, or null. */
export async function resolvedContractMetadata(db: Db, network: string, address: string): Promise<unknown> {
  const row = await db
    .selectFrom('contract_metadata')
    .select(['metadata'])
    .where('network', '=', network)
    .where('address', '=', address)
    .where('status', '=', 3)
    .executeTakeFirst();
  return row?.metadata ?? null;
}
