/**
 * Adoption of addresses the index did not hold (issue 32, capability 1; migrations/0230_address_requests.sql).
 * The indexer reads what its node knows of an address at its stored head and writes it here, in one
 * transaction that first checks the head has not moved (the state read must be the state at the stored head,
 * so that the next block's operations apply on top of it). Every row carries the head's level: a revert of
 * that block deletes them (and undoes the account's change) like the block's own rows, and puts the request
 * back to pending so that it is read again on the new branch.
 */
import { sql, type Transaction } from 'kysely';
import type { Db, Database } from '../schema';
import type { ScriptRow } from './block-data';
import { deferred } from './copy';
import { insertScripts } from './script-migration';
import { snapshot } from './undo';

type Trx = Transaction<Database>;

const json = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;

/** What the node knows of one address at the stored head, in the rows a forward index writes for it. */
export interface Adoption {
  address: string;
  /** accounts.type: 'contract' for a KT1 with its script, 'account' for tz1–tz4, 'smart_rollup' for sr1. */
  type: string;
  contract?: {
    script: ScriptRow;
    /** Contract tags bit mask (script tags plus `delegator`). */
    tags: number;
    delegate: string | null;
    /** Big maps its storage points to, with their types and field names. */
    bigMaps: { ptr: number; key_type: unknown; value_type: unknown; name: string | null }[];
    /** The searchable words of the contract (indexer's contractSearchBody). */
    searchBody: string;
    /** TZIP-16 link under key "" of its `metadata` big map, queued for the metadata resolver. */
    metadataLink: string | null;
    /**
     * What forward indexing derives from the script, for the rows it stored while the contract was not held
     * (its calls and big-map writes from the forward floor on, parsed without the script): the operation tags
     * of every call, the entrypoints a call named `default` resolves to, the readable texts of its keys.
     */
    reparsed?: Reparsed;
  };
}

/** The script-derived columns of rows stored before an adoption (see `Adoption.contract.reparsed`). */
export interface Reparsed {
  /** Operation tags of a call to the contract (its tags masked as forward parsing masks them). */
  tags: number;
  /** Calls whose entrypoint resolves to another name than the stored one. */
  entrypoints: { id: number; entrypoint: string }[];
  /** Key texts of big-map key states stored without one. */
  keyTexts: { ptr: number; key_hash: string; key_text: string }[];
}

/**
 * The rows forward indexing stored for `address` without its script (from the network's forward floor on):
 * the applied calls named `default` (which the script may resolve to another entrypoint) and the key states
 * of `ptrs` without a readable text. Read before an adoption, which rewrites them from the script.
 */
export async function parsedWithoutScript(
  db: Db,
  network: string,
  address: string,
  ptrs: number[],
): Promise<{
  calls: { id: number; entrypoint: string | null; parameters: unknown }[];
  keys: { ptr: number; key_hash: string; key: unknown }[];
}> {
  // the forward floor: the history's (fixed once a backfill asked for it), else the lowest stored block
  const { rows } = await sql<{ floor: number | null }>`SELECT coalesce(
      (SELECT floor_level FROM history_floor WHERE network = ${network}),
      (SELECT min(level) FROM blocks WHERE network = ${network})) AS floor`.execute(db);
  const floor = rows[0]?.floor;
  if (floor == null) return { calls: [], keys: [] };
  const calls = await db
    .selectFrom('operations')
    .select(['id', 'entrypoint', 'parameters'])
    .where('network', '=', network)
    .where('destination', '=', address)
    .where('kind', '=', 'transaction')
    .where('status', '=', 'applied')
    .where('entrypoint', '=', 'default')
    .where('parameters', 'is not', null)
    .where('level', '>=', floor)
    .execute();
  const keys =
    ptrs.length === 0
      ? []
      : (
          await sql<{ ptr: string | number; key_hash: string; key: unknown }>`SELECT ptr, key_hash, key
          FROM big_map_states WHERE network = ${network} AND ptr = ANY(${ptrs}::bigint[]) AND key_text IS NULL
          ORDER BY ptr, key_hash`.execute(db)
        ).rows;
  return {
    calls: calls.map((c) => ({ id: Number(c.id), entrypoint: c.entrypoint, parameters: c.parameters })),
    keys: keys.map((k) => ({ ptr: Number(k.ptr), key_hash: k.key_hash, key: k.key })),
  };
}

export interface AddressOutcome {
  address: string;
  state: 'adopted' | 'unknown' | 'failed';
  message?: string;
}

/** How long an answer 'unknown' or 'failed' is kept: made-up addresses do not pile up. */
export const ANSWER_KEPT_MS = 60 * 60_000;

/** Deletes the 'unknown' and 'failed' answers older than ANSWER_KEPT_MS (asked again, they are read again). */
export async function pruneAddressRequests(db: Db, network: string): Promise<number> {
  const before = new Date(Date.now() - ANSWER_KEPT_MS);
  const r = await db
    .deleteFrom('address_requests')
    .where('network', '=', network)
    .where('state', 'in', ['unknown', 'failed'])
    .where('updated_at', '<', before)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The oldest pending requests of a network (at most `limit`). */
export async function pendingAddressRequests(db: Db, network: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('address_requests')
    .select('address')
    .where('network', '=', network)
    .where('state', '=', 'pending')
    .orderBy('requested_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.address);
}

/**
 * Writes adoptions read at the stored head `at` and the outcome of every request served; returns false (and
 * writes nothing) when the stored head is no longer `at` (a block was stored or reverted meanwhile).
 */
export async function writeAdoptions(
  db: Db,
  network: string,
  at: { level: number; hash: string },
  adoptions: Adoption[],
  outcomes: AddressOutcome[],
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const head = (
      await sql<{
        level: number;
        hash: string;
        timestamp: Date;
      }>`SELECT level, hash, timestamp FROM indexer_state WHERE network = ${network} FOR UPDATE`.execute(trx)
    ).rows[0];
    if (!head || head.level !== at.level || head.hash !== at.hash) return false;
    const { level } = head;
    const ts = new Date(head.timestamp).toISOString();
    if (adoptions.length > 0) await writeRows(trx, network, level, ts, adoptions);
    for (const o of outcomes) {
      await sql`UPDATE address_requests SET state = ${o.state}, level = ${level}, message = ${o.message ?? null}, updated_at = now()
        WHERE network = ${network} AND address = ${o.address}`.execute(trx);
    }
    return true;
  });
}

async function writeRows(
  trx: Trx,
  network: string,
  level: number,
  ts: string,
  list: Adoption[],
): Promise<void> {
  const contracts = list.flatMap((a) => (a.contract ? [{ address: a.address, ...a.contract }] : []));
  await insertScripts(
    trx,
    network,
    level,
    contracts.map((c) => c.script),
  );
  const addrs = list.map((a) => a.address);
  await snapshot(trx, network, level, 'accounts', sql`t.address = ANY(${addrs}::text[])`);
  await deferred(sql`INSERT INTO accounts (network, address, type, level, last_action)
    SELECT ${network}, r.address, r.type, ${level}, ${ts}::timestamptz FROM jsonb_to_recordset(${json(
      list.map((a) => ({ address: a.address, type: a.type })),
    )}) AS r(address text, type text)
    ON CONFLICT (network, address) DO UPDATE SET
      type = CASE WHEN accounts.type = 'ghost' THEN excluded.type ELSE accounts.type END`).execute(trx);
  if (contracts.length === 0) return;
  await deferred(sql`INSERT INTO contracts (network, address, level, timestamp, manager, delegate, script_id, script_hash, tags)
    SELECT ${network}, r.address, ${level}, ${ts}::timestamptz, NULL, r.delegate, s.id, r.script_hash, r.tags
    FROM jsonb_to_recordset(${json(
      contracts.map((c) => ({
        address: c.address,
        delegate: c.delegate,
        script_hash: c.script.hash,
        tags: c.tags,
      })),
    )}) AS r(address text, delegate text, script_hash text, tags integer)
    JOIN scripts s ON s.network = ${network} AND s.hash = r.script_hash
    ON CONFLICT (network, address) DO NOTHING`).execute(trx);
  const bigMaps = contracts.flatMap((c) => c.bigMaps.map((m) => ({ ...m, contract: c.address })));
  if (bigMaps.length > 0)
    await deferred(sql`INSERT INTO big_maps (network, ptr, contract, key_type, value_type, level, timestamp, name)
      SELECT ${network}, r.ptr, r.contract, r.key_type, r.value_type, ${level}, ${ts}::timestamptz, r.name
      FROM jsonb_to_recordset(${json(bigMaps)}) AS r(ptr bigint, contract text, key_type jsonb, value_type jsonb, name text)
      ON CONFLICT (network, ptr) DO NOTHING`).execute(trx);
  await deferred(sql`INSERT INTO search_documents (network, kind, key, level, title, body)
    SELECT ${network}, 'contract', r.address, ${level}, r.address, r.body
    FROM jsonb_to_recordset(${json(contracts.map((c) => ({ address: c.address, body: c.searchBody })))}) AS r(address text, body text)
    ON CONFLICT (network, kind, key) DO NOTHING`).execute(trx);
  const links = contracts.flatMap((c) =>
    c.metadataLink ? [{ address: c.address, link: c.metadataLink }] : [],
  );
  if (links.length > 0)
    await deferred(sql`INSERT INTO contract_metadata (network, address, level, link, status, retry_count, next_attempt_at)
      SELECT ${network}, r.address, ${level}, r.link, 1, 0, now() FROM jsonb_to_recordset(${json(links)}) AS r(address text, link text)
      ON CONFLICT (network, address) DO NOTHING`).execute(trx);
  for (const c of contracts) if (c.reparsed) await writeReparsed(trx, network, c.address, c.reparsed);
}

/**
 * The script-derived columns of the rows stored for `address` while it was not held, as forward indexing
 * writes them with the script (db/write `Reparsed`): operation tags, resolved entrypoints, key texts.
 */
async function writeReparsed(trx: Trx, network: string, address: string, r: Reparsed): Promise<void> {
  await deferred(sql`UPDATE operations SET tags = ${r.tags}
    WHERE network = ${network} AND destination = ${address} AND kind = 'transaction' AND tags <> ${r.tags}
      AND level >= coalesce((SELECT floor_level FROM history_floor WHERE network = ${network}),
        (SELECT min(level) FROM blocks WHERE network = ${network}))`).execute(trx);
  if (r.entrypoints.length > 0)
    await deferred(sql`UPDATE operations o SET entrypoint = r.entrypoint
      FROM jsonb_to_recordset(${json(r.entrypoints)}) AS r(id bigint, entrypoint text)
      WHERE o.network = ${network} AND o.id = r.id AND o.destination = ${address}`).execute(trx);
  if (r.keyTexts.length > 0)
    await deferred(sql`UPDATE big_map_states t SET key_text = r.key_text
      FROM jsonb_to_recordset(${json(r.keyTexts)}) AS r(ptr bigint, key_hash text, key_text text)
      WHERE t.network = ${network} AND t.ptr = r.ptr AND t.key_hash = r.key_hash AND t.key_text IS NULL`).execute(
      trx,
    );
}

/** A revert of `level` (inside its transaction): requests answered at that level are asked again. */
export async function reopenAddressRequests(trx: Trx, network: string, level: number): Promise<void> {
  await deferred(sql`UPDATE address_requests SET state = 'pending', level = NULL, message = NULL, updated_at = now()
    WHERE network = ${network} AND level = ${level} AND state IN ('adopted', 'unknown')`).execute(trx);
}
