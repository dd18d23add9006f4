/**
 * @michelscope/db/verified — verified source code (issue 38; migrations/0320_verified_sources.sql): the third
 * table set the API writes, after `db/shares` and `db/watch`. A row is a submission's result for one script
 * hash, keyed by the submission's content id and that hash: written once (`ON CONFLICT DO NOTHING`, so two
 * API replicas compiling the same sources keep one row), never updated, never reverted by a reorg. Contracts
 * with the same script hash, in any network, read the same rows.
 */
import type { Db } from './schema';

export type VerificationStatus = 'verified' | 'failed';

/** A stored file: its name, size in bytes (UTF-8) and SHA-256 (hex); its text is in `contents`, same index. */
export interface StoredSourceFile {
  name: string;
  size: number;
  sha256: string;
}

export interface VerificationRow {
  id: string;
  script_hash: string;
  network: string;
  address: string;
  status: VerificationStatus;
  compiler: string;
  version: string;
  options: Record<string, string | boolean>;
  main: string;
  files: StoredSourceFile[];
  contents: string[];
  source_map: unknown[] | null;
  difference: unknown;
  compiled: string | null;
  created_at: Date;
}

/** A row without its sources, compiled text and source map. */
export type VerificationSummaryRow = Omit<VerificationRow, 'compiled' | 'source_map' | 'contents'>;

/** The script hash of a contract, or undefined when the index does not hold it. */
export async function contractScriptHash(
  db: Db,
  network: string,
  address: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('contracts')
    .select('script_hash')
    .where('network', '=', network)
    .where('address', '=', address)
    .executeTakeFirst();
  return row?.script_hash;
}

/** A row's columns without the sources and the compiled text (what an attempts list reads). */
const SUMMARY_COLUMNS = [
  'id',
  'script_hash',
  'network',
  'address',
  'status',
  'compiler',
  'version',
  'options',
  'main',
  'files',
  'difference',
  'created_at',
] as const;
const COLUMNS = [...SUMMARY_COLUMNS, 'contents', 'source_map', 'compiled'] as const;

/** The row of a submission's content for a script hash, if stored. */
export async function getVerification(
  db: Db,
  id: string,
  scriptHash: string,
): Promise<VerificationRow | undefined> {
  return (await db
    .selectFrom('verified_sources')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('script_hash', '=', scriptHash)
    .executeTakeFirst()) as VerificationRow | undefined;
}

/**
 * Stores a result; a row already stored for the same id and script hash is kept (the first writer's), and is
 * what this answers.
 */
export async function storeVerification(
  db: Db,
  row: Omit<VerificationRow, 'created_at'>,
): Promise<VerificationRow> {
  await db
    .insertInto('verified_sources')
    .values({
      ...row,
      options: JSON.stringify(row.options),
      files: JSON.stringify(row.files),
      contents: JSON.stringify(row.contents),
      source_map: row.source_map === null ? null : JSON.stringify(row.source_map),
      difference:
        row.difference === null || row.difference === undefined ? null : JSON.stringify(row.difference),
    })
    .onConflict((oc) => oc.columns(['id', 'script_hash']).doNothing())
    .execute();
  return (await getVerification(db, row.id, row.script_hash))!;
}

/** The latest verified row of a script hash (submitted for any contract of any network), if any. */
export async function latestVerified(db: Db, scriptHash: string): Promise<VerificationRow | undefined> {
  return (await db
    .selectFrom('verified_sources')
    .select(COLUMNS)
    .where('script_hash', '=', scriptHash)
    .where('status', '=', 'verified')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()) as VerificationRow | undefined;
}

/** The last `limit` attempts for a script hash, failed included, newest first, without sources. */
export async function verificationsOf(
  db: Db,
  scriptHash: string,
  limit = 20,
): Promise<VerificationSummaryRow[]> {
  const rows = await db
    .selectFrom('verified_sources')
    .select(SUMMARY_COLUMNS)
    .where('script_hash', '=', scriptHash)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows as VerificationSummaryRow[];
}

/** Which of these script hashes have a verified row (for search results' `verified` flag). */
export async function verifiedScriptHashes(db: Db, scriptHashes: string[]): Promise<Set<string>> {
  if (scriptHashes.length === 0) return new Set();
  const rows = await db
    .selectFrom('verified_sources')
    .select('script_hash')
    .distinct()
    .where('script_hash', 'in', scriptHashes)
    .where('status', '=', 'verified')
    .execute();
  return new Set(rows.map((r) => r.script_hash));
}
