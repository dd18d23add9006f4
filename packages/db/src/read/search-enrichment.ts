/** What a search page shows beside its hits: account names, token metadata, and the mime types to filter by. */
import { sql } from 'kysely';
import type { Db } from '../schema';
import { prepared } from './prepared';

export interface AccountAliases {
  network: string;
  address: string;
  /** The contract's own name: its TZIP-16 contract metadata `name` (a token's name is not the contract's). */
  metadata?: string;
}

/** {@link aliasOf} for several accounts in one statement (the accounts of a search page). */
export async function aliasesOf(
  db: Db,
  accounts: ReadonlyArray<{ network: string; address: string }>,
): Promise<AccountAliases[]> {
  // one statement for both (the verified mark costs an index lookup an account)
  return (await searchAccountFields(db, accounts)).map(({ verified: _, ...alias }) => alias);
}

/** A search page's contract: its name (as {@link aliasesOf}) and whether its script has a verified source. */
export interface SearchAccountFields extends AccountAliases {
  verified: boolean;
}

/**
 * {@link aliasesOf} and the verified mark (the script hash has a verified source, ../verified.ts, submitted for
 * any contract of any network) in one statement: what a search page's contracts show (issue
 * 36: a statement fewer per /search request).
 */
export async function searchAccountFields(
  db: Db,
  accounts: ReadonlyArray<{ network: string; address: string }>,
): Promise<SearchAccountFields[]> {
  if (accounts.length === 0) return [];
  // a plpgsql function with a generic plan (migration 0360): as a prepared statement it was planned at every call
  const r = await prepared<{ network: string; address: string; metadata: string | null; verified: boolean }>`
    SELECT * FROM search_account_fields(${accounts.map((a) => a.network)}::text[],
      ${accounts.map((a) => a.address)}::text[])`.execute(db);
  return r.rows.map((x) => ({
    network: x.network,
    address: x.address,
    ...(x.metadata !== null ? { metadata: x.metadata } : {}),
    verified: x.verified === true,
  }));
}

/**
 * The name of an address: its TZIP-16 contract metadata `name`. The names of its tokens (TZIP-12/21) are
 * theirs, not the contract's: a token's name never names the contract (issue 33).
 */
export async function aliasOf(db: Db, network: string, address: string): Promise<{ metadata?: string }> {
  const meta = await db
    .selectFrom('contract_metadata')
    .select('name')
    .where('network', '=', network)
    .where('address', '=', address)
    .where('name', 'is not', null)
    .executeTakeFirst();
  return meta?.name ? { metadata: meta.name } : {};
}

/** Mime types seen in resolved token metadata (`formats[].mimeType`). */
export async function tokenMimeTypes(db: Db, limit = 500): Promise<string[]> {
  const r = await sql<{ m: string }>`
    SELECT DISTINCT f->>'mimeType' AS m
    FROM token_metadata t, jsonb_array_elements(CASE WHEN jsonb_typeof(t.metadata->'formats') = 'array' THEN t.metadata->'formats' ELSE '[]'::jsonb END) f
    WHERE t.status = 3 AND f->>'mimeType' IS NOT NULL
    ORDER BY 1 LIMIT ${limit}`.execute(db);
  return r.rows.map((x) => x.m);
}

/** A token of a search page: its network, contract and decimal id. */
export interface TokenRef {
  network: string;
  contract: string;
  tokenId: string;
}

/** The resolved metadata (TZIP-12/21 JSON, untrusted) of the tokens of a search page, in one statement. */
export async function tokenMetadataOf(
  db: Db,
  tokens: readonly TokenRef[],
): Promise<Array<TokenRef & { metadata: unknown }>> {
  const refs = tokens.filter((t) => /^\d{1,78}$/.test(t.tokenId));
  if (refs.length === 0) return [];
  // a plpgsql function with a generic plan (migration 0360)
  const r = await prepared<{ network: string; contract: string; token_id: string; metadata: unknown }>`
    SELECT * FROM search_token_metadata(${refs.map((x) => x.network)}::text[],
      ${refs.map((x) => x.contract)}::text[], ${refs.map((x) => x.tokenId)}::numeric[])`.execute(db);
  return r.rows.map((x) => ({
    network: x.network,
    contract: x.contract,
    tokenId: x.token_id,
    metadata: x.metadata,
  }));
}
