/**
 * Writes a protocol migration's script changes (§6.12 `update` migrations) inside the first block of the new
 * protocol, before the block's own big-map rows: new scripts, contracts re-pointed to them with their before-
 * images (reverted with the block), one `update` migration per changed contract, and the Babylon re-pointing of
 * pre-Babylon big-map rows (pointer -1) to the pointer the migration gave them. The search documents of the
 * changed contracts take the words of their new scripts.
 */
import { sql, type Transaction } from 'kysely';
import { deferred } from './copy';
import type { Database } from '../schema';
import type { ScriptMigration, ScriptRow } from './block-data';
import { snapshot, snapshotColumns } from './undo';

type Trx = Transaction<Database>;

/** The pointer of a pre-Babylon contract's single big map (as the alpha-era parser stores it). */
const LEGACY_PTR = -1;

const json = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;

export interface MigrationContext {
  network: string;
  level: number;
  timestamp: Date;
  protocolId: number;
}

/** Scripts first seen at `level` (stored once per hash) and the global constants each uses. */
export async function insertScripts(
  trx: Trx,
  network: string,
  level: number,
  scripts: ScriptRow[],
): Promise<void> {
  if (scripts.length === 0) return;
  await deferred(sql`INSERT INTO scripts (network, hash, level, code, parameter, storage, views, entrypoints, fail_strings, annotations, hardcoded, constants, tags)
      SELECT ${network}, r.hash, ${level}, r.code, r.parameter, r.storage, r.views, r.entrypoints, r.fail_strings, r.annotations, r.hardcoded, r.constants, r.tags
      FROM jsonb_populate_recordset(NULL::scripts, ${json(scripts)}) r
      ON CONFLICT (network, hash) DO NOTHING`).execute(trx);
  await deferred(sql`INSERT INTO script_constants (network, script_id, constant_address)
      SELECT ${network}, s.id, c FROM scripts s, unnest(s.constants) c WHERE s.network = ${network} AND s.level = ${level}
      ON CONFLICT DO NOTHING`).execute(trx);
}

export async function writeScriptMigration(trx: Trx, b: MigrationContext, m: ScriptMigration): Promise<void> {
  const { network, level } = b;
  const ts = b.timestamp.toISOString();
  await insertScripts(trx, network, level, m.scripts);
  if (m.contracts.length > 0) {
    const addrs = m.contracts.map((c) => c.address);
    await snapshotColumns(trx, network, level, 'contracts.script', sql`t.address = ANY(${addrs}::text[])`);
    // the migration rows first: each keeps the script the contract had until now
    await deferred(sql`INSERT INTO migrations (network, level, timestamp, protocol_id, prev_protocol_id, kind, contract, prev_script_id)
      SELECT ${network}, ${level}, ${ts}::timestamptz, ${b.protocolId},
        (SELECT id FROM protocols WHERE network = ${network} AND hash = ${m.prevProtocol}), 'update', r.address,
        (SELECT c.script_id FROM contracts c WHERE c.network = ${network} AND c.address = r.address)
      FROM unnest(${addrs}::text[]) WITH ORDINALITY AS r(address, n) ORDER BY r.n`).execute(trx);
    await deferred(sql`UPDATE contracts c SET script_id = s.id, script_hash = r.script_hash, tags = r.tags
      FROM jsonb_to_recordset(${json(m.contracts)}) AS r(address text, script_hash text, tags integer)
      JOIN scripts s ON s.network = ${network} AND s.hash = r.script_hash
      WHERE c.network = ${network} AND c.address = r.address`).execute(trx);
    const docs = sql`t.kind = 'contract' AND t.key = ANY(${addrs}::text[])`;
    await snapshotColumns(trx, network, level, 'search_documents.body', docs);
    await deferred(sql`UPDATE search_documents t SET body = r.search_body
      FROM jsonb_to_recordset(${json(m.contracts)}) AS r(address text, search_body text)
      WHERE t.network = ${network} AND t.kind = 'contract' AND t.key = r.address`).execute(trx);
    await snapshot(trx, network, level, 'accounts', sql`t.address = ANY(${addrs}::text[])`);
    await deferred(sql`UPDATE accounts SET migrations_count = migrations_count + 1
      WHERE network = ${network} AND address = ANY(${addrs}::text[])`).execute(trx);
  }
  if (m.legacyPointers.length > 0) {
    const owners = m.legacyPointers.map((p) => p.contract);
    const pointers = json(m.legacyPointers);
    const legacy = sql`t.contract = ANY(${owners}::text[]) AND t.ptr = ${LEGACY_PTR} AND t.level < ${level}`;
    await snapshotColumns(trx, network, level, 'big_map_diffs.ptr', legacy);
    await deferred(sql`UPDATE big_map_diffs t SET ptr = r.ptr FROM jsonb_to_recordset(${pointers}) AS r(contract text, ptr bigint)
      WHERE t.network = ${network} AND t.contract = r.contract AND t.ptr = ${LEGACY_PTR} AND t.level < ${level}`).execute(
      trx,
    );
    await snapshot(trx, network, level, 'big_map_states', legacy);
    await deferred(sql`UPDATE big_map_states t SET ptr = r.ptr FROM jsonb_to_recordset(${pointers}) AS r(contract text, ptr bigint)
      WHERE t.network = ${network} AND t.contract = r.contract AND t.ptr = ${LEGACY_PTR} AND t.level < ${level}`).execute(
      trx,
    );
    const actions = sql`t.address = ANY(${owners}::text[]) AND (t.source_ptr = ${LEGACY_PTR} OR t.destination_ptr = ${LEGACY_PTR}) AND t.level < ${level}`;
    await snapshotColumns(trx, network, level, 'big_map_actions.ptr', actions);
    await deferred(sql`UPDATE big_map_actions t SET
        source_ptr = CASE WHEN t.source_ptr = ${LEGACY_PTR} THEN r.ptr ELSE t.source_ptr END,
        destination_ptr = CASE WHEN t.destination_ptr = ${LEGACY_PTR} THEN r.ptr ELSE t.destination_ptr END
      FROM jsonb_to_recordset(${pointers}) AS r(contract text, ptr bigint)
      WHERE t.network = ${network} AND t.address = r.contract AND (t.source_ptr = ${LEGACY_PTR} OR t.destination_ptr = ${LEGACY_PTR}) AND t.level < ${level}`).execute(
      trx,
    );
  }
  if (m.bigMaps.length > 0) {
    // Created by this block (deleted with it on a revert); a pointer already stored keeps its row.
    await deferred(sql`INSERT INTO big_maps (network, ptr, contract, key_type, value_type, level, timestamp, operation_id, name)
      SELECT ${network}, r.ptr, r.contract, r.key_type, r.value_type, ${level}, ${ts}::timestamptz, NULL, r.name
      FROM jsonb_to_recordset(${json(m.bigMaps)}) AS r(contract text, ptr bigint, key_type jsonb, value_type jsonb, name text)
      ON CONFLICT (network, ptr) DO NOTHING`).execute(trx);
  }
}
