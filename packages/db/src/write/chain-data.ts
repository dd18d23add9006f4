/**
 * Stores a block's parsed data (BlockData) inside the block's transaction, in the reference's order
 * (accounts → operations → big maps → contracts/scripts → constants → tickets → rollups → migrations →
 * search → metadata → stats), and reverts it. Bulk inserts go through one JSON parameter per table
 * (jsonb_populate_recordset), so a block costs a fixed number of statements whatever its size.
 *
 * Over ~400 lines because it is one write path whose statement order is the contract (each table after the
 * ones it references, ids from one sequence draw) and revertBlockData undoes it table by table; split per
 * table, that order would live in no one place.
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { canCopy, copyRows, copyValue, deferred } from './copy';
import type { Database } from '../schema';
import type { BigMapDiffRow, BlockContext, BlockData, OperationRow } from './block-data';
import { reopenAddressRequests } from './adopt';
import { setGroupTotals } from './group-totals';
import { queueMetadata } from './metadata-queue';
import { insertScripts, writeScriptMigration } from './script-migration';
import {
  pruneSnapshots,
  RESTORED_BEFORE_DELETE,
  restoreSnapshots,
  snapshot,
  snapshotColumns,
  type UndoTable,
} from './undo';

type Trx = Transaction<Database>;

export type { BlockContext } from './block-data';

const json = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;

/** INSERT of rows whose keys are column names of `tbl` (network/level/timestamp/protocol added when listed). */
async function insert(trx: Trx, tbl: string, columns: string[], rows: object[]): Promise<void> {
  if (rows.length === 0) return;
  const cols = sql.join(columns.map((c) => sql.ref(c)));
  await deferred(
    sql`INSERT INTO ${sql.table(tbl)} (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(NULL::${sql.table(tbl)}, ${json(rows)})`,
  ).execute(trx);
}

async function nextIds(trx: Trx, seq: string, n: number): Promise<number[]> {
  if (n === 0) return [];
  const r = await sql<{
    id: number;
  }>`SELECT nextval(${seq}::regclass)::int8 AS id FROM generate_series(1, ${n})`.execute(trx);
  return r.rows.map((x) => Number(x.id));
}

const OP_COLUMNS = [
  'id',
  'network',
  'level',
  'timestamp',
  'protocol_id',
  'hash',
  'counter',
  'content_index',
  'nonce',
  'internal',
  'kind',
  'status',
  'source',
  'destination',
  'initiator',
  'delegate',
  'fee',
  'gas_limit',
  'storage_limit',
  'amount',
  'consumed_gas',
  'storage_size',
  'paid_storage_size_diff',
  'burned',
  'allocated_destination_contract_burned',
  'allocated_destination_contract',
  'entrypoint',
  'tag',
  'tags',
  'parameters',
  'storage',
  'payload',
  'payload_type',
  'errors',
  'big_map_diffs_count',
  'ticket_updates_count',
  'group_cost',
  'group_internals',
];
/** The columns of OP_COLUMNS that an OperationRow holds (after id, network, level, timestamp, protocol_id). */
const ROW_OP_COLUMNS = OP_COLUMNS.slice(5) as Array<keyof OperationRow>;

/** A block's context and parsed data, as given to `writeBlocksData`. */
export interface BlockDataWrite {
  b: BlockContext;
  d: BlockData;
}

/**
 * The JSON parameter of a multi-block insert: one object per block with its context, the ids of its
 * operations and its rows, serialised as they are (no per-row copy with the block's columns added: that
 * copy cost more than the serialisation itself). SQL adds network, level, timestamp, protocol and ids.
 */
function blocksJson(
  items: Array<{ b: BlockContext; ids: number[]; rows: readonly object[] }>,
  type: 'json' | 'jsonb' = 'jsonb',
): RawBuilder<unknown> {
  const parts = items.map(
    ({ b, ids, rows }) =>
      `{"level":${b.level},"timestamp":${JSON.stringify(b.timestamp.toISOString())},"protocol_id":${b.protocolId},"ids":${JSON.stringify(ids)},"rows":${JSON.stringify(rows)}}`,
  );
  return sql`${`[${parts.join(',')}]`}::${sql.raw(type)}`;
}

type RowsOf<R> = Array<{ b: BlockContext; ids: number[]; rows: readonly R[] }>;

/** The columns of a row that the block context gives. */
const blockColumns = (network: string, b: BlockContext) =>
  `${copyValue(network)}\t${b.level}\t${b.timestamp.toISOString()}\t${b.protocolId}`;

/** An operation's COPY columns after id and the block's columns, each after a tab. */
function operationText(r: OperationRow): string {
  let line = '';
  for (const c of ROW_OP_COLUMNS) line += `\t${copyValue(r[c])}`;
  return line;
}

/** A diff's COPY columns after its block's columns and operation id, each after a tab. */
const diffText = (r: BigMapDiffRow): string =>
  `\t${r.ptr}\t${copyValue(r.contract)}\t${copyValue(r.key)}\t${copyValue(r.key_hash)}\t${copyValue(r.value)}`;

/** Rows already in COPY text (prepareRows), by their array in BlockData. */
const encoded = new WeakMap<readonly object[], string[]>();

function textOf<R extends object>(rows: readonly R[], encode: (r: R) => string): string[] {
  const done = encoded.get(rows);
  return done && done.length === rows.length ? done : rows.map(encode);
}

/** Longest run of COPY text encoding between two turns of the event loop (see the indexer's PARSE_SLICE_MS). */
const ENCODE_SLICE_MS = 0.5;

async function encodeInSlices<R extends object>(rows: readonly R[], encode: (r: R) => string): Promise<void> {
  const out: string[] = [];
  let since = performance.now();
  for (const r of rows) {
    out.push(encode(r));
    if ((out.length & 15) === 0 && performance.now() - since > ENCODE_SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
  encoded.set(rows, out);
}

/**
 * Turns a block's operations and big-map diffs into COPY text ahead of its write, in slices of ~0.5 ms
 * (PostgreSQL only, a no-op on PGlite): called by the indexer once the block is parsed, so that the
 * writer's transaction does not hold the database idle while its rows are serialised. The rows must not
 * change afterwards.
 */
export async function prepareRows(db: Kysely<Database>, d: BlockData): Promise<void> {
  if (!(await canCopy(db))) return;
  setGroupTotals(d.operations);
  await encodeInSlices(d.operations, operationText);
  await encodeInSlices(d.bigMapDiffs, diffText);
}

/** Operations of consecutive blocks in one statement, in order, with the ids allocated for them. */
async function insertOperations(
  trx: Trx,
  network: string,
  items: RowsOf<OperationRow>,
  copy: boolean,
): Promise<void> {
  if (!items.some((i) => i.rows.length > 0)) return;
  for (const { rows } of items) setGroupTotals(rows);
  if (copy) {
    const chunks = items.map(({ b, ids, rows }) => {
      const head = blockColumns(network, b);
      let chunk = '';
      for (const [i, text] of textOf(rows, operationText).entries()) chunk += `${ids[i]!}\t${head}${text}\n`;
      return chunk;
    });
    await copyRows(trx, 'operations', OP_COLUMNS, chunks);
    return;
  }
  const select = OP_COLUMNS.map((c) =>
    c === 'id'
      ? sql`(x.ids->>(r.ordinality::int - 1))::bigint`
      : c === 'network'
        ? sql`${network}`
        : c === 'level' || c === 'timestamp' || c === 'protocol_id'
          ? sql`x.${sql.ref(c)}`
          : sql`r.${sql.ref(c)}`,
  );
  await deferred(sql`INSERT INTO operations (${sql.join(OP_COLUMNS.map((c) => sql.ref(c)))})
    SELECT ${sql.join(select)}
    FROM json_to_recordset(${blocksJson(items, 'json')}) AS x(level integer, timestamp timestamptz, protocol_id integer, ids json, rows json)
    CROSS JOIN LATERAL json_populate_recordset(NULL::operations, x.rows) WITH ORDINALITY AS r`).execute(trx);
}

const DIFF_COLUMNS = [
  'network',
  'level',
  'timestamp',
  'protocol_id',
  'operation_id',
  'ptr',
  'contract',
  'key',
  'key_hash',
  'value',
];

/** Big-map diffs of consecutive blocks in one statement, in order (their ids follow the row order). */
async function insertDiffs(
  trx: Trx,
  network: string,
  items: RowsOf<BigMapDiffRow>,
  copy: boolean,
  backfill?: Backfill,
): Promise<void> {
  if (!items.some((i) => i.rows.length > 0)) return;
  if (backfill) {
    // a block's own diffs after the keys it copied (ids from the block's half of its id range)
    await deferred(sql`INSERT INTO big_map_diffs (id, network, level, timestamp, protocol_id, operation_id, ptr, contract, key, key_hash, value)
      SELECT (x.level - ${backfill.idBase}) * ${ID_RANGE}::bigint + ${backfill.idOffset}::bigint + ${ID_RANGE / 2}::bigint + e.n - 1, ${network}, x.level, x.timestamp, x.protocol_id, (x.ids->>r.op)::bigint, r.ptr, r.contract, r.key, r.key_hash, r.value
      FROM jsonb_to_recordset(${blocksJson(items)}) AS x(level integer, timestamp timestamptz, protocol_id integer, ids jsonb, rows jsonb)
      CROSS JOIN LATERAL jsonb_array_elements(x.rows) WITH ORDINALITY AS e(row, n)
      CROSS JOIN LATERAL jsonb_to_record(e.row) AS r(op integer, ptr bigint, contract text, key jsonb, key_hash text, value jsonb)`).execute(
      trx,
    );
    return;
  }
  if (copy) {
    const chunks = items.map(({ b, ids, rows }) => {
      const head = blockColumns(network, b);
      const texts = textOf(rows, diffText);
      let chunk = '';
      for (const [i, r] of rows.entries()) chunk += `${head}\t${ids[r.op]!}${texts[i]!}\n`;
      return chunk;
    });
    await copyRows(trx, 'big_map_diffs', DIFF_COLUMNS, chunks);
    return;
  }
  await deferred(sql`INSERT INTO big_map_diffs (network, level, timestamp, protocol_id, operation_id, ptr, contract, key, key_hash, value)
    SELECT ${network}, x.level, x.timestamp, x.protocol_id, (x.ids->>r.op)::bigint, r.ptr, r.contract, r.key, r.key_hash, r.value
    FROM jsonb_to_recordset(${blocksJson(items)}) AS x(level integer, timestamp timestamptz, protocol_id integer, ids jsonb, rows jsonb)
    CROSS JOIN LATERAL jsonb_to_recordset(x.rows) AS r(op integer, ptr bigint, contract text, key jsonb, key_hash text, value jsonb)`).execute(
    trx,
  );
}

const hasCopies = (d: BlockData) => d.bigMapActions.some((a) => a.action === 'copy');

/**
 * Ids of one block's rows written by a backfill (issue 32): a block owns the range
 * `[(level - idBase) × 2^20, (level - idBase + 1) × 2^20)`, its operations by position from the start, the
 * big-map diffs from the middle (copied keys first). `idBase` is the network's forward floor (history_floor),
 * so backfilled rows (below it) take negative ids: ids still sort by chain order, and a block written again
 * would take the same ones.
 */
export const ID_RANGE = 2 ** 20;

/** A block written by the history backfill, below the forward range (db/write/backfill.ts). */
export interface Backfill {
  /** The network's forward floor: its blocks' ranges start at (level − idBase) × ID_RANGE … */
  idBase: number;
  /** … plus this (−slot × 2^49, the network's own: operation and diff ids are unique across networks). */
  idOffset: number;
}

/**
 * Writes the data of consecutive blocks (in level order) inside one transaction, with the same rows, ids
 * and before-images as `writeBlockData` block by block: the append-only rows of every block (operations,
 * and big-map diffs when no block copies a stored big map, whose copied keys come before the block's own
 * diffs) go in one statement each, then each block's remaining rows and counters follow in level order.
 */
export async function writeBlocksData(
  trx: Trx,
  blocks: BlockDataWrite[],
  backfill?: Backfill,
): Promise<void> {
  if (blocks.length === 0) return;
  const opIds: number[][] = [];
  if (backfill) {
    for (const { b, d } of blocks) {
      if (d.operations.length >= ID_RANGE / 2)
        throw new Error(`block ${b.level}: ${d.operations.length} operations do not fit its id range`);
      opIds.push(d.operations.map((_, i) => (b.level - backfill.idBase) * ID_RANGE + backfill.idOffset + i));
    }
  } else {
    const ids = await nextIds(
      trx,
      'operations_id_seq',
      blocks.reduce((n, { d }) => n + d.operations.length, 0),
    );
    let at = 0;
    for (const { d } of blocks) {
      opIds.push(ids.slice(at, at + d.operations.length));
      at += d.operations.length;
    }
  }
  const network = blocks[0]!.b.network;
  // a backfill writes with explicit ids, through the JSON statements
  const copy = backfill ? false : await canCopy(trx);
  await insertOperations(
    trx,
    network,
    blocks.map(({ b, d }, i) => ({ b, ids: opIds[i]!, rows: d.operations })),
    copy,
  );
  const mergeDiffs = !blocks.some(({ d }) => hasCopies(d));
  if (mergeDiffs) {
    await insertDiffs(
      trx,
      network,
      blocks.map(({ b, d }, i) => ({ b, ids: opIds[i]!, rows: d.bigMapDiffs })),
      copy,
      backfill,
    );
  }
  for (const [i, { b, d }] of blocks.entries())
    await writeBlockRest(trx, b, d, opIds[i]!, !mergeDiffs, copy, backfill);
}

/** Stores one block's data (operations included) inside the block's transaction. */
export async function writeBlockData(trx: Trx, b: BlockContext, d: BlockData): Promise<void> {
  await writeBlocksData(trx, [{ b, d }]);
}

/** Everything of a block but its operations (already stored with ids `opIds`) and, unless `withDiffs`, its diffs. */
async function writeBlockRest(
  trx: Trx,
  b: BlockContext,
  d: BlockData,
  opIds: number[],
  withDiffs: boolean,
  copy: boolean,
  backfill?: Backfill,
): Promise<void> {
  const { network, level } = b;
  const ts = b.timestamp.toISOString();
  const base = { network, level, timestamp: ts };
  // A backfilled block is older than rows already stored: counters add up as in any order, but what is "the
  // latest" (a last action, a key's value) is taken only from a newer block, and what is "the first" (a
  // row's level, a contract's origination) from an older one. It keeps before-images as a forward block does:
  // a revert of a forward block written before it reverts it first (backfill-undo.ts).
  const before = (tbl: UndoTable, where: RawBuilder<unknown>) => snapshot(trx, network, level, tbl, where);

  // a protocol migration happens before the block's operations (their big-map rows use the new pointers)
  if (d.scriptMigration && !backfill) await writeScriptMigration(trx, b, d.scriptMigration);

  // accounts
  if (d.accounts.length > 0) {
    const addrs = d.accounts.map((a) => a.address);
    await before('accounts', sql`t.address = ANY(${addrs}::text[])`);
    await deferred(sql`INSERT INTO accounts (network, address, type, level, last_action, operations_count, events_count, migrations_count, ticket_updates_count)
      SELECT ${network}, r.address, r.type, ${level}, ${ts}::timestamptz, r.operations_count, r.events_count, r.migrations_count, r.ticket_updates_count
      FROM jsonb_to_recordset(${json(d.accounts)}) AS r(address text, type text, operations_count bigint, events_count bigint, migrations_count bigint, ticket_updates_count bigint)
      ON CONFLICT (network, address) DO UPDATE SET
        operations_count = accounts.operations_count + excluded.operations_count,
        events_count = accounts.events_count + excluded.events_count,
        migrations_count = accounts.migrations_count + excluded.migrations_count,
        ticket_updates_count = accounts.ticket_updates_count + excluded.ticket_updates_count,
        ${
          backfill
            ? // an adopted account's last action is the level it was read at (address_requests), no action: a
              // backfilled block's replaces it while no operation of it is counted
              sql`last_action = CASE WHEN accounts.operations_count = 0 AND EXISTS (SELECT 1 FROM address_requests q
                  WHERE q.network = ${network} AND q.address = accounts.address AND q.state = 'adopted' AND q.level = accounts.level)
                THEN excluded.last_action ELSE GREATEST(accounts.last_action, excluded.last_action) END,
              level = LEAST(accounts.level, excluded.level),`
            : sql`last_action = excluded.last_action,`
        }
        type = CASE WHEN accounts.type = 'ghost' THEN excluded.type ELSE accounts.type END`).execute(trx);
  }

  const opId = (i: number | null) => (i === null ? null : opIds[i]!);

  // big maps: rows, actions, copies of stored big maps, diffs, removals, key states
  const copySource = new Map(
    d.bigMapActions.filter((a) => a.action === 'copy').map((a) => [a.destination_ptr, a.source_ptr]),
  );
  if (d.bigMaps.length > 0) {
    const rows = d.bigMaps.map((m) => ({
      ...m,
      operation_id: opId(m.op),
      source_ptr: copySource.get(m.ptr) ?? null,
    }));
    if (backfill)
      await snapshotColumns(
        trx,
        network,
        level,
        'big_maps.first',
        sql`t.ptr = ANY(${rows.map((r) => r.ptr)}::bigint[]) AND t.level > ${level}`,
      );
    await deferred(sql`INSERT INTO big_maps (network, ptr, contract, key_type, value_type, level, timestamp, operation_id, name)
      SELECT ${network}, r.ptr, r.contract, COALESCE(r.key_type, s.key_type, '{"prim":"unknown"}'), COALESCE(r.value_type, s.value_type, '{"prim":"unknown"}'),
        ${level}, ${ts}::timestamptz, r.operation_id, COALESCE(r.name, s.name)
      FROM jsonb_to_recordset(${json(rows)}) AS r(ptr bigint, contract text, key_type jsonb, value_type jsonb, operation_id bigint, name text, source_ptr bigint)
      LEFT JOIN big_maps s ON s.network = ${network} AND s.ptr = r.source_ptr
      ${
        backfill
          ? sql`ON CONFLICT (network, ptr) DO UPDATE SET level = excluded.level, timestamp = excluded.timestamp,
              operation_id = excluded.operation_id, contract = excluded.contract WHERE big_maps.level > excluded.level`
          : sql`ON CONFLICT (network, ptr) DO NOTHING`
      }`).execute(trx);
  }
  await insert(
    trx,
    'big_map_actions',
    ['network', 'level', 'timestamp', 'operation_id', 'action', 'source_ptr', 'destination_ptr', 'address'],
    d.bigMapActions.map((a) => ({ ...a, ...base, operation_id: opId(a.op) })),
  );
  let copied = 0;
  for (const a of d.bigMapActions) {
    if (a.action !== 'copy' || a.source_ptr === null || a.source_ptr < 0) continue;
    if (backfill) {
      // the source's keys as they were at this block (its diffs below it), not its current ones
      const first = (level - backfill.idBase) * ID_RANGE + backfill.idOffset + copied;
      copied += (
        await sql<{ n: number }>`WITH keys AS (
          SELECT DISTINCT ON (key_hash) key, key_hash, value, id FROM big_map_diffs
          WHERE network = ${network} AND ptr = ${a.source_ptr} AND level < ${level} ORDER BY key_hash, id DESC),
        ins AS (INSERT INTO big_map_diffs (id, network, operation_id, level, timestamp, protocol_id, ptr, contract, key, key_hash, value)
          SELECT ${first}::bigint + row_number() OVER (ORDER BY id) - 1, ${network}, ${opId(a.op)}, ${level}, ${ts}::timestamptz,
            ${b.protocolId}, ${a.destination_ptr}, ${a.address}, key, key_hash, value FROM keys WHERE value IS NOT NULL
          RETURNING 1)
        SELECT count(*)::int AS n FROM ins`.execute(trx)
      ).rows[0]!.n;
      continue;
    }
    await deferred(sql`INSERT INTO big_map_diffs (network, operation_id, level, timestamp, protocol_id, ptr, contract, key, key_hash, value)
      SELECT network, ${opId(a.op)}, ${level}, ${ts}::timestamptz, ${b.protocolId}, ${a.destination_ptr}, ${a.address}, key, key_hash, value
      FROM big_map_states WHERE network = ${network} AND ptr = ${a.source_ptr} AND NOT removed ORDER BY id`).execute(
      trx,
    );
  }
  if (withDiffs) await insertDiffs(trx, network, [{ b, ids: opIds, rows: d.bigMapDiffs }], copy, backfill);
  const removed = d.bigMapActions.filter((a) => a.action === 'remove').map((a) => a.source_ptr!);
  if (d.bigMapDiffs.length > 0 || removed.length > 0 || copySource.size > 0)
    await writeStates(trx, b, d, removed, backfill);

  // scripts and contracts
  if (backfill && d.scripts.length > 0) {
    // a script first stored later (by an adoption, or a later backfilled block) dates from here
    const hashes = d.scripts.map((s) => s.hash);
    await snapshotColumns(
      trx,
      network,
      level,
      'scripts.first',
      sql`t.hash = ANY(${hashes}::text[]) AND t.level > ${level}`,
    );
    await deferred(sql`UPDATE scripts SET level = ${level} WHERE network = ${network}
      AND hash = ANY(${d.scripts.map((s) => s.hash)}::text[]) AND level > ${level}`).execute(trx);
  }
  await insertScripts(trx, network, level, d.scripts);
  if (d.contracts.length > 0) {
    if (backfill)
      await snapshotColumns(
        trx,
        network,
        level,
        'contracts.first',
        sql`t.address = ANY(${d.contracts.map((c) => c.address)}::text[]) AND t.level > ${level}`,
      );
    await deferred(sql`INSERT INTO contracts (network, address, level, timestamp, manager, delegate, script_id, script_hash, tags, operation_id)
      SELECT ${network}, r.address, ${level}, ${ts}::timestamptz, r.manager, r.delegate, s.id, r.script_hash, r.tags, r.operation_id
      FROM jsonb_to_recordset(${json(d.contracts.map((c) => ({ ...c, operation_id: opId(c.op) })))})
        AS r(address text, manager text, delegate text, script_hash text, tags integer, operation_id bigint)
      JOIN scripts s ON s.network = ${network} AND s.hash = r.script_hash
      ${
        // an adopted contract (read at a later level) takes its origination's level, manager and operation;
        // its delegate, script and tags stay the ones read at that later level
        backfill
          ? sql`ON CONFLICT (network, address) DO UPDATE SET level = excluded.level, timestamp = excluded.timestamp,
              manager = excluded.manager, operation_id = excluded.operation_id WHERE contracts.level > excluded.level`
          : sql`ON CONFLICT (network, address) DO NOTHING`
      }`).execute(trx);
  }

  // global constants, tickets, rollups, migrations, search documents
  await insert(
    trx,
    'global_constants',
    ['network', 'level', 'timestamp', 'address', 'value', 'operation_id'],
    d.globalConstants.map((g) => ({ ...g, ...base, operation_id: opId(g.op) })),
  );
  await writeTickets(trx, b, d, opId, backfill);
  await insert(
    trx,
    'smart_rollups',
    [
      'network',
      'level',
      'timestamp',
      'address',
      'size',
      'genesis_commitment_hash',
      'pvm_kind',
      'kernel',
      'type',
      'operation_id',
    ],
    d.smartRollups.map((r) => ({ ...r, ...base, operation_id: opId(r.op) })),
  );
  await insert(
    trx,
    'migrations',
    ['network', 'level', 'timestamp', 'protocol_id', 'kind', 'contract', 'hash', 'operation_id'],
    d.migrations.map((m) => ({ ...m, ...base, protocol_id: b.protocolId, operation_id: opId(m.op) })),
  );
  if (d.searchDocuments.length > 0) {
    if (backfill)
      await snapshotColumns(
        trx,
        network,
        level,
        'search_documents.first',
        sql`(t.kind, t.key) IN (SELECT r.kind, r.key FROM jsonb_to_recordset(${json(d.searchDocuments)}) AS r(kind text, key text)) AND t.level > ${level}`,
      );
    await deferred(sql`INSERT INTO search_documents (network, kind, key, level, title, body)
      SELECT ${network}, r.kind, r.key, ${level}, r.title, r.body FROM jsonb_to_recordset(${json(d.searchDocuments)}) AS r(kind text, key text, title text, body text)
      ${
        backfill
          ? sql`ON CONFLICT (network, kind, key) DO UPDATE SET level = excluded.level WHERE search_documents.level > excluded.level`
          : sql`ON CONFLICT (network, kind, key) DO NOTHING`
      }`).execute(trx);
  }
  await queueMetadata(trx, b, d, !!backfill);
  await writeStats(trx, b, d, !!backfill);
  if (!backfill) await pruneSnapshots(trx, network, level);
}

/**
 * Current key states, one per pointer, key and contract (pre-Babylon big maps of every contract share
 * pointer -1, as in the reference, whose states are per contract too). `count` is the reference's: 0 when a
 * key is first written, then one more for each later block that writes it (bcdhub's upsert), reproduced
 * exactly so existing clients read the same numbers.
 */
async function writeStates(
  trx: Trx,
  b: BlockContext,
  d: BlockData,
  removedPtrs: number[],
  backfill?: Backfill,
): Promise<void> {
  const { network, level } = b;
  await snapshot(
    trx,
    network,
    level,
    'big_map_states',
    sql`((t.ptr, t.key_hash) IN (SELECT ptr, key_hash FROM big_map_diffs WHERE network = ${network} AND level = ${level}) OR t.ptr = ANY(${removedPtrs}::bigint[]))`,
  );
  // A backfilled (older) write counts (count is one per block after the first, in any order) and dates the
  // key's first write, but its value is the key's only while no newer block wrote it.
  const newer = sql`excluded.last_update_level > big_map_states.last_update_level`;
  await deferred(sql`INSERT INTO big_map_states (network, ptr, key_hash, contract, key, value, removed, last_update_level, last_update_time, count, level)
    SELECT DISTINCT ON (ptr, key_hash, contract) network, ptr, key_hash, contract, key, value, value IS NULL, level, timestamp, 0, level
    FROM big_map_diffs WHERE network = ${network} AND level = ${level}
    ORDER BY ptr, key_hash, contract, id DESC
    ON CONFLICT (network, ptr, key_hash, contract) DO UPDATE SET
      ${
        backfill
          ? sql`value = CASE WHEN ${newer} AND NOT excluded.removed THEN excluded.value
                WHEN big_map_states.value IS NULL THEN excluded.value ELSE big_map_states.value END,
              removed = CASE WHEN ${newer} THEN excluded.removed ELSE big_map_states.removed END,
              last_update_time = CASE WHEN ${newer} THEN excluded.last_update_time ELSE big_map_states.last_update_time END,
              last_update_level = GREATEST(big_map_states.last_update_level, excluded.last_update_level),
              level = LEAST(big_map_states.level, excluded.level),`
          : sql`value = CASE WHEN excluded.removed THEN big_map_states.value ELSE excluded.value END,
              removed = excluded.removed,
              last_update_level = excluded.last_update_level, last_update_time = excluded.last_update_time,`
      }
      count = big_map_states.count + 1`).execute(trx);
  await writeKeyTexts(trx, b, d);
  if (removedPtrs.length > 0) {
    await deferred(sql`UPDATE big_map_states SET removed = true, last_update_level = ${level}, last_update_time = ${b.timestamp.toISOString()}::timestamptz
      WHERE network = ${network} AND ptr = ANY(${removedPtrs}::bigint[])${
        backfill ? sql` AND last_update_level <= ${level}` : sql``
      }`).execute(trx);
  }
}

/**
 * The readable key texts of the block's diffs (the indexer's), and those of keys copied from another big map
 * (the source's), on states that lack them.
 */
async function writeKeyTexts(trx: Trx, b: BlockContext, d: BlockData): Promise<void> {
  const { network } = b;
  const texts = new Map<string, { ptr: number; key_hash: string; key_text: string }>();
  for (const r of d.bigMapDiffs)
    if (r.key_text)
      texts.set(`${r.ptr}:${r.key_hash}`, { ptr: r.ptr, key_hash: r.key_hash, key_text: r.key_text });
  if (texts.size > 0) {
    await deferred(sql`UPDATE big_map_states t SET key_text = r.key_text
      FROM jsonb_to_recordset(${json([...texts.values()])}) AS r(ptr bigint, key_hash text, key_text text)
      WHERE t.network = ${network} AND t.ptr = r.ptr AND t.key_hash = r.key_hash AND t.key_text IS NULL`).execute(
      trx,
    );
  }
  for (const a of d.bigMapActions) {
    if (a.action !== 'copy' || a.source_ptr === null || a.source_ptr < 0) continue;
    await deferred(sql`UPDATE big_map_states t SET key_text = s.key_text FROM big_map_states s
      WHERE t.network = ${network} AND t.ptr = ${a.destination_ptr} AND t.key_text IS NULL
        AND s.network = ${network} AND s.ptr = ${a.source_ptr} AND s.key_hash = t.key_hash AND s.key_text IS NOT NULL`).execute(
      trx,
    );
  }
}

async function writeTickets(
  trx: Trx,
  b: BlockContext,
  d: BlockData,
  opId: (i: number) => number | null,
  backfill?: Backfill,
): Promise<void> {
  if (d.tickets.length === 0) return;
  const { network, level } = b;
  const hashes = d.tickets.map((t) => t.hash);
  const counts = new Map<string, number>();
  for (const u of d.ticketUpdates) counts.set(u.ticket_hash, (counts.get(u.ticket_hash) ?? 0) + 1);
  const first = (tbl: string) =>
    backfill ? sql`, level = LEAST(${sql.ref(`${tbl}.level`)}, excluded.level)` : sql``;
  await snapshot(trx, network, level, 'tickets', sql`t.hash = ANY(${hashes}::text[])`);
  await deferred(sql`INSERT INTO tickets (network, hash, ticketer, content_type, content, level, updates_count)
    SELECT ${network}, r.hash, r.ticketer, r.content_type, r.content, ${level}, r.updates_count
    FROM jsonb_to_recordset(${json(d.tickets.map((t) => ({ ...t, updates_count: counts.get(t.hash) ?? 0 })))})
      AS r(hash text, ticketer text, content_type jsonb, content jsonb, updates_count bigint)
    ON CONFLICT (network, hash) DO UPDATE SET updates_count = tickets.updates_count + excluded.updates_count${first('tickets')}`).execute(
    trx,
  );
  if (d.ticketUpdates.length === 0) return;
  const rows = d.ticketUpdates.map((u, n) => ({ ...u, n, operation_id: opId(u.op) }));
  await deferred(sql`INSERT INTO ticket_updates (network, operation_id, level, timestamp, ticket_id, account, amount)
    SELECT ${network}, r.operation_id, ${level}, ${b.timestamp.toISOString()}::timestamptz, t.id, r.account, r.amount
    FROM jsonb_to_recordset(${json(rows)}) AS r(operation_id bigint, ticket_hash text, account text, amount numeric, n bigint)
    JOIN tickets t ON t.network = ${network} AND t.hash = r.ticket_hash ORDER BY r.n`).execute(trx);
  await snapshot(
    trx,
    network,
    level,
    'ticket_balances',
    sql`(t.ticket_id, t.account) IN (SELECT ticket_id, account FROM ticket_updates WHERE network = ${network} AND level = ${level})`,
  );
  await deferred(sql`INSERT INTO ticket_balances (network, ticket_id, account, amount, level)
    SELECT ${network}, ticket_id, account, sum(amount), ${level} FROM ticket_updates WHERE network = ${network} AND level = ${level} GROUP BY ticket_id, account
    ON CONFLICT (network, ticket_id, account) DO UPDATE SET amount = ticket_balances.amount + excluded.amount${first('ticket_balances')}`).execute(
    trx,
  );
}

async function writeStats(trx: Trx, b: BlockContext, d: BlockData, backfill: boolean): Promise<void> {
  const { network, level } = b;
  const count = (k: string) => d.operations.filter((o) => o.kind === k).length;
  const applied = d.operations.filter((o) => o.status === 'applied');
  const deltas = {
    contracts_count: d.contracts.length,
    smart_rollups_count: d.smartRollups.length,
    global_constants_count: d.globalConstants.length,
    operations_count: d.operations.length,
    events_count: count('event'),
    tx_count: count('transaction'),
    originations_count: count('origination'),
    sr_originations_count: count('smart_rollup_originate'),
    sr_executes_count: count('smart_rollup_execute_outbox_message'),
    register_global_constants_count: count('register_global_constant'),
    transfer_tickets_count: count('transfer_ticket'),
  };
  await snapshot(trx, network, level, 'stats', sql`true`);
  if (Object.values(deltas).some((v) => v > 0)) {
    const sets = sql.join(Object.entries(deltas).map(([k, v]) => sql`${sql.ref(k)} = ${sql.ref(k)} + ${v}`));
    await deferred(sql`UPDATE stats SET ${sets} WHERE network = ${network}`).execute(trx);
  }
  const day = b.timestamp.toISOString().slice(0, 10);
  const daily = {
    blocks: 1,
    operations: d.operations.length,
    contract_calls: d.operations.filter((o) => o.kind === 'transaction' && o.destination?.startsWith('KT1'))
      .length,
    originations: deltas.originations_count,
    new_contracts: d.contracts.length,
    events: deltas.events_count,
    global_constants: d.globalConstants.length,
    smart_rollups: d.smartRollups.length,
    ticket_updates: d.ticketUpdates.length,
    fees: d.operations.reduce((s, o) => s + o.fee, 0),
    burned: applied.reduce((s, o) => s + o.burned, 0),
    consumed_gas: d.operations.reduce((s, o) => s + o.consumed_gas, 0),
  };
  const volume = applied
    .filter((o) => o.kind === 'transaction')
    .reduce((s, o) => s + BigInt(o.amount), 0n)
    .toString();
  await snapshot(trx, network, level, 'stats_daily', sql`t.day = ${day}::date`);
  const cols = Object.keys(daily);
  const sets = sql.join(
    cols.map((k) => sql`${sql.ref(k)} = stats_daily.${sql.ref(k)} + excluded.${sql.ref(k)}`),
  );
  await deferred(sql`INSERT INTO stats_daily (network, day, level, volume, ${sql.join(cols.map((c) => sql.ref(c)))})
    VALUES (${network}, ${day}::date, ${level}, ${volume}::numeric, ${sql.join(Object.values(daily))})
    ON CONFLICT (network, day) DO UPDATE SET ${sets}, volume = stats_daily.volume + excluded.volume${
      backfill ? sql`, level = LEAST(stats_daily.level, excluded.level)` : sql``
    }`).execute(trx);
}

/**
 * Tables whose rows carry the level of the block that created them, deleted first on revert. The metadata
 * queue goes before search_documents: deleting a queue row waits for a metadata resolver transaction that
 * is writing it (and the search document of that level), so the next statement also removes that document.
 */
const CREATED_BY_LEVEL = [
  'contract_metadata',
  'token_metadata',
  'search_documents',
  'migrations',
  'smart_rollups',
  'ticket_balances',
  'ticket_updates',
  'tickets',
  'big_map_states',
  'big_map_diffs',
  'big_map_actions',
  'big_maps',
  'contracts',
  'global_constants',
  'scripts',
  'operations',
  'accounts',
  'stats_daily',
];

/** Undoes everything `writeBlockData` did for `level` (call from the top block down, inside its transaction). */
export async function revertBlockData(trx: Trx, network: string, level: number): Promise<void> {
  // Contracts a protocol migration re-pointed go back to their scripts before this block's scripts are deleted,
  // rows a backfilled block dated from its level to theirs (they are not this block's).
  await restoreSnapshots(trx, network, level, RESTORED_BEFORE_DELETE);
  for (const tbl of CREATED_BY_LEVEL) {
    await deferred(
      sql`DELETE FROM ${sql.table(tbl)} WHERE network = ${network} AND level = ${level}`,
    ).execute(trx);
  }
  await restoreSnapshots(trx, network, level);
  await reopenAddressRequests(trx, network, level);
}
