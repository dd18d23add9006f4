/**
 * Storage side of the background metadata resolver (TZIP-16 contract metadata, TZIP-12 token metadata):
 * due rows of the queue tables, the outcome of one attempt (resolved / retry later / failed), and the
 * chain data a resolution reads (big-map values, a contract's script and storage).
 *
 * The resolver runs beside the indexer, so every outcome is written only if the row is still the one that
 * was attempted (same link, token_info and retry_count, still pending): a block that re-queued or
 * reverted the row in the meantime wins.
 */
import { sql } from 'kysely';
import type { Db } from '../schema';

/** A Micheline value as stored (jsonb). */
type M = object | string | number | boolean;

/** 1 = pending, 2 = failed (given up, retried only after a long back-off). */
export type MetadataJobStatus = 1 | 2;

export interface ContractMetadataJob {
  kind: 'contract';
  address: string;
  level: number;
  link: string | null;
  retryCount: number;
  status: MetadataJobStatus;
}

export interface TokenMetadataJob {
  kind: 'token';
  contract: string;
  tokenId: string;
  level: number;
  link: string | null;
  /** The on-chain token_info map (key -> hex bytes) from the token_metadata big map. */
  tokenInfo: Record<string, string> | null;
  retryCount: number;
  status: MetadataJobStatus;
}

export type MetadataJob = ContractMetadataJob | TokenMetadataJob;

/**
 * Rows whose next attempt is due, contracts first (token resolution may read its contract's views):
 * pending rows (status 1), then, to fill `limit`, failed rows (status 2) due for their retry.
 */
export async function dueMetadata(db: Db, network: string, limit: number): Promise<MetadataJob[]> {
  const contracts: ContractMetadataJob[] = [];
  const tokens: TokenMetadataJob[] = [];
  for (const status of [1, 2] as const) {
    const left = limit - contracts.length;
    const c =
      left <= 0
        ? { rows: [] }
        : await sql<{ address: string; level: number; link: string | null; retry_count: number }>`
      SELECT address, level, link, retry_count FROM contract_metadata
      WHERE network = ${network} AND status = ${status} AND next_attempt_at <= now() ORDER BY next_attempt_at, address LIMIT ${left}`.execute(
            db,
          );
    for (const r of c.rows)
      contracts.push({
        kind: 'contract',
        address: r.address,
        level: r.level,
        link: r.link,
        retryCount: r.retry_count,
        status,
      });
    const leftTokens = limit - tokens.length;
    const t =
      leftTokens <= 0
        ? { rows: [] }
        : await sql<{
            contract: string;
            token_id: string;
            level: number;
            link: string | null;
            token_info: unknown;
            retry_count: number;
          }>`
      SELECT contract, token_id::text AS token_id, level, link, token_info, retry_count FROM token_metadata
      WHERE network = ${network} AND status = ${status} AND next_attempt_at <= now() ORDER BY next_attempt_at, contract, token_id LIMIT ${leftTokens}`.execute(
            db,
          );
    for (const r of t.rows)
      tokens.push({
        kind: 'token',
        contract: r.contract,
        tokenId: r.token_id,
        level: r.level,
        link: r.link,
        tokenInfo: isStringRecord(r.token_info) ? r.token_info : null,
        retryCount: r.retry_count,
        status,
      });
  }
  return [...contracts, ...tokens];
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every((x) => typeof x === 'string')
  );
}

/** Matches the row of a job only while it is still the attempted one. */
function jobRow(network: string, job: MetadataJob) {
  return job.kind === 'contract'
    ? sql`network = ${network} AND address = ${job.address} AND status = ${job.status} AND retry_count = ${job.retryCount} AND link IS NOT DISTINCT FROM ${job.link}`
    : sql`network = ${network} AND contract = ${job.contract} AND token_id = ${job.tokenId}::numeric AND status = ${job.status}
        AND retry_count = ${job.retryCount} AND link IS NOT DISTINCT FROM ${job.link}
        AND token_info IS NOT DISTINCT FROM ${job.tokenInfo === null ? null : JSON.stringify(job.tokenInfo)}::jsonb`;
}

export interface ResolvedMetadata {
  metadata: Record<string, unknown>;
  name: string | null;
  /** Tokens only. */
  symbol?: string | null;
  decimals?: number | null;
  /** Search document: title (name) and body (symbol, description, …). */
  searchTitle: string;
  searchBody: string;
}

/**
 * Stores a resolution (status 3) and the search document of the contract (`contract_metadata`, key =
 * address) or token (`token`, key = `contract:token_id`), in one transaction. Returns false when the row
 * changed since it was read (nothing is written).
 */
export async function saveResolvedMetadata(
  db: Db,
  network: string,
  job: MetadataJob,
  r: ResolvedMetadata,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const meta = JSON.stringify(r.metadata);
    const updated =
      job.kind === 'contract'
        ? await sql`UPDATE contract_metadata SET status = 3, error = NULL, metadata = ${meta}::jsonb, name = ${r.name}, updated_at = now()
            WHERE ${jobRow(network, job)}`.execute(trx)
        : await sql`UPDATE token_metadata SET status = 3, error = NULL, metadata = ${meta}::jsonb, name = ${r.name},
            symbol = ${r.symbol ?? null}, decimals = ${r.decimals ?? null}, updated_at = now() WHERE ${jobRow(network, job)}`.execute(
            trx,
          );
    if (Number(updated.numAffectedRows ?? 0) === 0) return false;
    const [kind, key] =
      job.kind === 'contract'
        ? ['contract_metadata', job.address]
        : ['token', `${job.contract}:${job.tokenId}`];
    // The document carries the level of the row's block, so reverting that block removes both.
    await sql`INSERT INTO search_documents (network, kind, key, level, title, body)
      VALUES (${network}, ${kind}, ${key}, ${job.level}, ${r.searchTitle}, ${r.searchBody})
      ON CONFLICT (network, kind, key) DO UPDATE SET title = excluded.title, body = excluded.body, level = excluded.level`.execute(
      trx,
    );
    return true;
  });
}

/**
 * Records a failed attempt: retry_count + 1 and the error. `retryAt` = when to try again while pending
 * (status 1), or null to give up (status 2); a failed row is tried again at `failedRetryAt` (null = never).
 * Returns false when the row changed since it was read.
 */
export async function saveMetadataFailure(
  db: Db,
  network: string,
  job: MetadataJob,
  error: string,
  retryAt: Date | null,
  failedRetryAt: Date | null = null,
): Promise<boolean> {
  const status = retryAt === null ? 2 : 1;
  const next = retryAt ?? failedRetryAt;
  const at = next === null ? 'infinity' : next.toISOString();
  const tbl = job.kind === 'contract' ? sql.table('contract_metadata') : sql.table('token_metadata');
  const res =
    await sql`UPDATE ${tbl} SET status = ${status}, error = ${error.slice(0, 1000)}, retry_count = retry_count + 1,
    next_attempt_at = ${at}::timestamptz, updated_at = now() WHERE ${jobRow(network, job)}`.execute(db);
  return Number(res.numAffectedRows ?? 0) > 0;
}

/** Status and JSON of a contract's TZIP-16 metadata, or null when it has no row. */
export async function contractMetadataOf(
  db: Db,
  network: string,
  address: string,
): Promise<{ status: number; metadata: unknown } | null> {
  const r = await sql<{ status: number; metadata: unknown }>`SELECT status, metadata FROM contract_metadata
    WHERE network = ${network} AND address = ${address}`.execute(db);
  return r.rows[0] ?? null;
}

/** The pointer of a contract's big map named `name` (field annotation), the most recent one. */
export async function bigMapPtrByName(
  db: Db,
  network: string,
  contract: string,
  name: string,
): Promise<number | null> {
  const r = await sql<{
    ptr: number;
  }>`SELECT ptr FROM big_maps WHERE network = ${network} AND contract = ${contract} AND name = ${name}
    ORDER BY level DESC, ptr DESC LIMIT 1`.execute(db);
  return r.rows[0] ? Number(r.rows[0].ptr) : null;
}

/** Current value of a big-map key by its script-expression hash: the value, null (removed), undefined (never seen). */
export async function bigMapValue(
  db: Db,
  network: string,
  ptr: number,
  keyHash: string,
): Promise<M | null | undefined> {
  const r = await sql<{ value: M | null; removed: boolean }>`SELECT value, removed FROM big_map_states
    WHERE network = ${network} AND ptr = ${ptr} AND key_hash = ${keyHash}`.execute(db);
  const row = r.rows[0];
  if (!row) return undefined;
  return row.removed ? null : row.value;
}

export async function bigMapTypes(
  db: Db,
  network: string,
  ptr: number,
): Promise<{ keyType: M; valueType: M } | null> {
  const r = await sql<{
    key_type: M;
    value_type: M;
  }>`SELECT key_type, value_type FROM big_maps WHERE network = ${network} AND ptr = ${ptr}`.execute(db);
  const row = r.rows[0];
  return row ? { keyType: row.key_type, valueType: row.value_type } : null;
}

export interface ContractState {
  /** Parameter and storage types, full code section (Micheline). */
  parameter: M;
  storageType: M;
  code: M;
  /** Latest stored storage (pointer form: big maps are ids), or null when none is known. */
  storage: M | null;
  level: number | null;
}

/** A contract's script and its latest storage (from the latest applied call or its origination). */
export async function contractState(db: Db, network: string, address: string): Promise<ContractState | null> {
  const s = await sql<{
    parameter: M;
    storage: M;
    code: M;
  }>`SELECT s.parameter, s.storage, s.code FROM contracts c
    JOIN scripts s ON s.id = c.script_id WHERE c.network = ${network} AND c.address = ${address}`.execute(db);
  const script = s.rows[0];
  if (!script) return null;
  const st = await sql<{ storage: M; level: number }>`SELECT storage, level FROM operations
    WHERE network = ${network} AND destination = ${address} AND status = 'applied' AND storage IS NOT NULL
    ORDER BY id DESC LIMIT 1`.execute(db);
  return {
    parameter: script.parameter,
    storageType: script.storage,
    code: script.code,
    storage: st.rows[0]?.storage ?? null,
    level: st.rows[0]?.level ?? null,
  };
}

/**
 * Queues token ids found by the resolver (the `all_tokens` off-chain view of a contract whose tokens have
 * no token_metadata big map) as pending rows of `level` (the contract metadata row's); existing rows are
 * left alone. Returns how many were added.
 */
export async function queueTokens(
  db: Db,
  network: string,
  contract: string,
  level: number,
  tokenIds: string[],
): Promise<number> {
  if (tokenIds.length === 0) return 0;
  const res =
    await sql`INSERT INTO token_metadata (network, contract, token_id, level, status, retry_count, next_attempt_at)
    SELECT ${network}, ${contract}, t::numeric, ${level}, 1, 0, now() FROM unnest(${tokenIds}::text[]) AS t
    WHERE EXISTS (SELECT 1 FROM contract_metadata c WHERE c.network = ${network} AND c.address = ${contract} AND c.level = ${level})
    ON CONFLICT (network, contract, token_id) DO NOTHING`.execute(db);
  return Number(res.numAffectedRows ?? 0);
}
