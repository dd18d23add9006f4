import { sql } from 'kysely';
import type { Db } from '../schema';
import { preparedQuery } from './prepared';

/** An account row (`accounts`), counters as numbers. */
export interface AccountRow {
  id: number;
  network: string;
  address: string;
  type: string;
  level: number;
  last_action: Date;
  operations_count: number;
  migrations_count: number;
  events_count: number;
  ticket_updates_count: number;
}

export async function getAccount(db: Db, network: string, address: string): Promise<AccountRow | undefined> {
  const row = await db
    .selectFrom('accounts')
    .selectAll()
    .where('network', '=', network)
    .where('address', '=', address)
    .executeTakeFirst();
  return row ? { ...row, last_action: toDate(row.last_action) } : undefined;
}

/** Contracts by last activity, then operations count (`/stats/{network}/recently_called_contracts`). */
export async function recentlyCalledContracts(
  db: Db,
  network: string,
  size: number,
  offset: number,
): Promise<AccountRow[]> {
  const rows = await db
    .selectFrom('accounts')
    .selectAll()
    .where('network', '=', network)
    .where('type', '=', 'contract')
    .orderBy('last_action', 'desc')
    .orderBy('operations_count', 'desc')
    .orderBy('id', 'desc')
    .limit(size)
    .offset(offset)
    .execute();
  return rows.map((r) => ({ ...r, last_action: toDate(r.last_action) }));
}

/** A contract with its current script and its account's last activity. */
export interface ContractRow {
  id: number;
  network: string;
  address: string;
  level: number;
  timestamp: Date;
  manager: string | null;
  delegate: string | null;
  tags: number;
  script_id: number;
  script_hash: string;
  last_action: Date | null;
  entrypoints: string[];
  fail_strings: string[];
  annotations: string[];
  hardcoded: string[];
}

export interface ScriptParts {
  parameter: unknown;
  storage: unknown;
  code: unknown;
  views: unknown[];
}

function contractQuery(db: Db) {
  return db
    .selectFrom('contracts as c')
    .innerJoin('scripts as s', 's.id', 'c.script_id')
    .leftJoin('accounts as a', (j) =>
      j.onRef('a.network', '=', 'c.network').onRef('a.address', '=', 'c.address'),
    )
    .select([
      'c.id',
      'c.network',
      'c.address',
      'c.level',
      'c.timestamp',
      'c.manager',
      'c.delegate',
      'c.tags',
      'c.script_id',
      'c.script_hash',
      'a.last_action',
      's.entrypoints',
      's.fail_strings',
      's.annotations',
      's.hardcoded',
    ]);
}

function toContract(
  r: Omit<ContractRow, 'timestamp' | 'last_action'> & { timestamp: unknown; last_action: unknown },
): ContractRow {
  return {
    ...r,
    timestamp: toDate(r.timestamp),
    last_action: r.last_action == null ? null : toDate(r.last_action),
  };
}

/** {@link contractQuery} for one address, in plain SQL (a prepared statement, no query building). */
const contractByAddress = preparedQuery<Parameters<typeof toContract>[0]>(`
  SELECT c.id, c.network, c.address, c.level, c.timestamp, c.manager, c.delegate, c.tags, c.script_id,
    c.script_hash, a.last_action, s.entrypoints, s.fail_strings, s.annotations, s.hardcoded
  FROM contracts c JOIN scripts s ON s.id = c.script_id
  LEFT JOIN accounts a ON a.network = c.network AND a.address = c.address
  WHERE c.network = $1 AND c.address = $2`);

export async function getContract(
  db: Db,
  network: string,
  address: string,
): Promise<ContractRow | undefined> {
  const [row] = await contractByAddress(db, [network, address]);
  return row ? toContract(row) : undefined;
}

/** The tags mask of each of `addresses` that is a contract of `network`, in one statement (a flow graph's nodes). */
export async function contractTagsOf(
  db: Db,
  network: string,
  addresses: readonly string[],
): Promise<Map<string, number>> {
  if (addresses.length === 0) return new Map();
  const rows = await db
    .selectFrom('contracts')
    .select(['address', 'tags'])
    .where('network', '=', network)
    .where('address', 'in', [...new Set(addresses)])
    .execute();
  return new Map(rows.map((r) => [r.address, Number(r.tags)]));
}

/** The script sections of a contract (types, code, views), or undefined for an unknown contract. */
export async function getContractScript(
  db: Db,
  network: string,
  address: string,
): Promise<ScriptParts | undefined> {
  return db
    .selectFrom('contracts as c')
    .innerJoin('scripts as s', 's.id', 'c.script_id')
    .select(['s.parameter', 's.storage', 's.code', 's.views'])
    .where('c.network', '=', network)
    .where('c.address', '=', address)
    .executeTakeFirst() as Promise<ScriptParts | undefined>;
}

/**
 * The script a contract ran under a protocol of its network: the script kept by the first `update` migration
 * after that protocol started (`migration`: its level; `script` undefined when the row predates 0166 and kept
 * none), or `{ migration: null }` when no later migration changed it (its current script is that code).
 */
export async function scriptUnderProtocol(
  db: Db,
  network: string,
  address: string,
  protocol: string,
): Promise<{ migration: null } | { migration: number; script: ScriptParts | undefined }> {
  const row = await db
    .selectFrom('migrations as m')
    .leftJoin('scripts as s', 's.id', 'm.prev_script_id')
    .select(['m.level', 'm.prev_script_id', 's.parameter', 's.storage', 's.code', 's.views'])
    .where('m.network', '=', network)
    .where('m.contract', '=', address)
    .where('m.kind', '=', 'update')
    .where('m.level', '>', (eb) =>
      eb
        .selectFrom('protocols')
        .select('start_level')
        .where('network', '=', network)
        .where('hash', '=', protocol),
    )
    .orderBy('m.level')
    .orderBy('m.id')
    .limit(1)
    .executeTakeFirst();
  if (!row) return { migration: null };
  const script =
    row.prev_script_id == null || row.code == null
      ? undefined
      : {
          parameter: row.parameter,
          storage: row.storage,
          code: row.code,
          views: (row.views ?? []) as unknown[],
        };
  return { migration: row.level, script };
}

/** The storage type of a contract (without its code and views), or undefined for an unknown contract. */
export async function getStorageType(
  db: Db,
  network: string,
  address: string,
): Promise<{ storage: unknown } | undefined> {
  return db
    .selectFrom('contracts as c')
    .innerJoin('scripts as s', 's.id', 'c.script_id')
    .select(['s.storage'])
    .where('c.network', '=', network)
    .where('c.address', '=', address)
    .executeTakeFirst();
}

/** Parameter and storage types of several contracts of a network, by address. */
export async function getScriptTypes(
  db: Db,
  network: string,
  addresses: readonly string[],
): Promise<Map<string, { parameter: unknown; storage: unknown }>> {
  if (addresses.length === 0) return new Map();
  const rows = await db
    .selectFrom('contracts as c')
    .innerJoin('scripts as s', 's.id', 'c.script_id')
    .select(['c.address', 's.parameter', 's.storage'])
    .where('c.network', '=', network)
    .where('c.address', 'in', [...new Set(addresses)])
    .execute();
  return new Map(rows.map((r) => [r.address, { parameter: r.parameter, storage: r.storage }]));
}

/** Number of contracts in the given networks whose script has this hash. */
export async function countByScriptHash(db: Db, networks: readonly string[], hash: string): Promise<number> {
  if (networks.length === 0) return 0;
  const row = await db
    .selectFrom('contracts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('script_hash', '=', hash)
    .where('network', 'in', networks)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Other contracts (any of the networks) with the same script hash, ordered by network then id. */
export async function sameContracts(
  db: Db,
  networks: readonly string[],
  hash: string,
  self: { network: string; address: string },
  size: number,
  offset: number,
): Promise<ContractRow[]> {
  if (networks.length === 0) return [];
  const rows = await contractQuery(db)
    .where('c.script_hash', '=', hash)
    .where('c.network', 'in', networks)
    .where((eb) => eb.not(eb.and([eb('c.network', '=', self.network), eb('c.address', '=', self.address)])))
    .orderBy('c.network')
    .orderBy('c.id', 'desc')
    .limit(size)
    .offset(offset)
    .execute();
  return rows.map(toContract);
}

/** The newest contract whose tags intersect the mask (`/helpers/contracts/{network}?tags=`). */
export async function contractByTags(
  db: Db,
  network: string,
  mask: number,
): Promise<ContractRow | undefined> {
  const row = await contractQuery(db)
    .where('c.network', '=', network)
    .where(sql<boolean>`(c.tags & ${mask}) <> 0`)
    .orderBy('c.id', 'desc')
    .executeTakeFirst();
  return row ? toContract(row) : undefined;
}

/** Contracts whose script uses the global constant, newest first. */
export async function contractsUsingConstant(
  db: Db,
  network: string,
  constant: string,
  size: number,
  offset: number,
): Promise<ContractRow[]> {
  const rows = await contractQuery(db)
    .where('c.network', '=', network)
    .where('c.script_id', 'in', (eb) =>
      eb
        .selectFrom('script_constants')
        .select('script_id')
        .where('network', '=', network)
        .where('constant_address', '=', constant),
    )
    .orderBy('c.id', 'desc')
    .limit(size)
    .offset(offset)
    .execute();
  return rows.map(toContract);
}

export function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

const LATEST_STORAGE = `SELECT o.storage FROM operations o
  WHERE o.network = $1 AND o.destination = $2 AND o.status = 'applied' AND o.storage IS NOT NULL`;
const storageQuery = preparedQuery<{ type: unknown; value: unknown }>(`
  SELECT s.storage AS type, (${LATEST_STORAGE} ORDER BY o.id DESC LIMIT 1) AS value
  FROM contracts c JOIN scripts s ON s.id = c.script_id WHERE c.network = $1 AND c.address = $2`);
const storageAtLevelQuery = preparedQuery<{ type: unknown; value: unknown }>(`
  SELECT s.storage AS type, (${LATEST_STORAGE} AND o.level = $3 ORDER BY o.id DESC LIMIT 1) AS value
  FROM contracts c JOIN scripts s ON s.id = c.script_id WHERE c.network = $1 AND c.address = $2`);

/**
 * The storage type of a contract and its latest stored storage (of an applied operation, at block `level`
 * when given; null when none is stored) in one statement, or undefined for an unknown contract.
 */
export async function storageAndType(
  db: Db,
  network: string,
  address: string,
  level?: number,
): Promise<{ type: unknown; value: unknown } | undefined> {
  const rows =
    level === undefined
      ? await storageQuery(db, [network, address])
      : await storageAtLevelQuery(db, [network, address, level]);
  return rows[0];
}

/** A level at which a contract's stored storage changed (`/contract/{network}/{address}/storage/levels`). */
export interface StorageLevelRow {
  level: number;
  timestamp: Date;
}

/**
 * The levels of {@link storageLevels} among the contract's newest $5 stored storages (all when null), with how
 * many rows the window read and its oldest level: that level's storage is compared with nothing older, so it
 * counts as a change only when the window read every row.
 */
const storageLevelsQuery = preparedQuery<{
  n: string | number;
  oldest: number | null;
  level: number | null;
  timestamp: unknown;
}>(`
  WITH w AS (
    SELECT id, level, timestamp, storage::text AS storage FROM operations
    WHERE network = $1 AND destination = $2 AND status = 'applied' AND storage IS NOT NULL AND level < $3
    ORDER BY id DESC LIMIT $5
  ), t AS (
    SELECT level, timestamp, storage, lead(storage) OVER (ORDER BY level DESC) AS older FROM (
      SELECT DISTINCT ON (level) level, timestamp, storage FROM w ORDER BY level DESC, id DESC
    ) per_level
  )
  SELECT (SELECT count(*) FROM w) AS n, (SELECT min(level) FROM w) AS oldest, x.level, x.timestamp
  FROM (SELECT 1) one LEFT JOIN LATERAL (
    SELECT level, timestamp FROM t WHERE older IS NULL OR storage IS DISTINCT FROM older
    ORDER BY level DESC LIMIT $4 + 1
  ) x ON true
  ORDER BY x.level DESC`);

/**
 * The levels (below `beforeLevel`, newest first, at most `size`) at whose end the contract's stored storage
 * differs from the level before: the storage of the last applied operation of each level with a stored storage,
 * compared (as stored JSON text) with the previous such level (the oldest one, its origination, always counts). Big-map contents
 * are not part of the storage value (a big map is a pointer), so a level that only changed big-map keys is not
 * listed.
 *
 * The newest 2,000 stored storages are read first, then 50,000, then all of them: a contract with a million
 * operations compared them all on every request (3–8 s on the 10m benchmark data, bench/RESULTS.md session 39).
 */
export async function storageLevels(
  db: Db,
  network: string,
  address: string,
  size: number,
  beforeLevel = 2147483647,
): Promise<StorageLevelRow[]> {
  for (const window of [2_000, 50_000, null]) {
    const rows = await storageLevelsQuery(db, [network, address, beforeLevel, size, window]);
    const n = Number(rows[0]?.n ?? 0);
    const levels = rows.flatMap((r) =>
      r.level === null ? [] : [{ level: Number(r.level), timestamp: toDate(r.timestamp) }],
    );
    // every stored storage read: the oldest level is the first one stored, a change
    if (window === null || n < window) return levels.slice(0, size);
    // else the window's oldest level is compared with nothing: the levels above it are exact
    const oldest = Number(rows[0]?.oldest);
    const exact = levels.filter((l) => l.level > oldest);
    if (exact.length >= size) return exact.slice(0, size);
  }
  throw new Error('unreachable');
}
