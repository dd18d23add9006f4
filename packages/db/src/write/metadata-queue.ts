/**
 * Queues metadata for the background resolver when a block writes the `metadata` big map (TZIP-16: the
 * link under key "") or the `token_metadata` big map (TZIP-12: token id -> token_info map) of a contract.
 * Rows go back to pending (status 1, retry_count 0) whenever the link or token_info changes. `link` is the
 * UTF-8 text of the URI (token_info[""] decoded for tokens), NUL characters removed.
 */
import { sql, type Transaction } from 'kysely';
import { deferred } from './copy';
import type { Database } from '../schema';
import type { BlockContext, BlockData } from './block-data';
import { snapshot } from './undo';

type Trx = Transaction<Database>;
type M = { prim?: string; args?: M[]; int?: string; string?: string; bytes?: string } | M[];

const hexToText = (hex: string): string => Buffer.from(hex, 'hex').toString('utf8');

/** token_info map (Micheline list of Elt string bytes) -> { key: hex }. */
function tokenInfo(v: M | undefined): Record<string, string> | null {
  if (!Array.isArray(v)) return null;
  const out: Record<string, string> = {};
  for (const e of v) {
    if (Array.isArray(e) || e.prim !== 'Elt') continue;
    const [k, val] = e.args ?? [];
    if (
      k &&
      !Array.isArray(k) &&
      typeof k.string === 'string' &&
      !k.string.includes('\u0000') &&
      val &&
      !Array.isArray(val) &&
      typeof val.bytes === 'string'
    )
      out[k.string] = val.bytes;
  }
  return out;
}

const NAMES = ['metadata', 'token_metadata'];

/** One write of a block to a big map named in NAMES. */
type MetadataWrite = { contract: string; key: M; value: M | null; name: string };

/**
 * The block's writes to `metadata` / `token_metadata` big maps, in id order. The block's own diffs are in
 * memory; only the names of the pointers they touch are read (a small lookup by primary key), so a block
 * that writes no such big map costs one short statement instead of reading its diffs back. A copy of a
 * stored big map into one of them (its keys are copied by the server) reads the level's diffs back.
 */
async function metadataWrites(
  trx: Trx,
  b: BlockContext,
  d: Pick<BlockData, 'bigMapDiffs' | 'bigMapActions'>,
): Promise<MetadataWrite[]> {
  const { network, level } = b;
  const copied = d.bigMapActions.filter(
    (a) => a.action === 'copy' && a.source_ptr !== null && a.source_ptr >= 0,
  );
  const touched = new Set(d.bigMapDiffs.map((r) => r.ptr));
  for (const a of copied) if (a.destination_ptr !== null) touched.add(a.destination_ptr);
  if (touched.size === 0) return [];
  const named = await sql<{ ptr: string; name: string }>`
    SELECT ptr::text AS ptr, name FROM big_maps
    WHERE network = ${network} AND ptr = ANY(${[...touched]}::bigint[]) AND name = ANY(${NAMES}::text[])`.execute(
    trx,
  );
  if (named.rows.length === 0) return [];
  const names = new Map(named.rows.map((r) => [Number(r.ptr), r.name]));
  if (copied.some((a) => a.destination_ptr !== null && names.has(a.destination_ptr))) {
    const rows = await sql<MetadataWrite>`
      SELECT d.contract, d.key, d.value, m.name FROM big_map_diffs d
      JOIN big_maps m ON m.network = d.network AND m.ptr = d.ptr
      WHERE d.network = ${network} AND d.level = ${level} AND d.ptr = ANY(${[...names.keys()]}::bigint[]) ORDER BY d.id`.execute(
      trx,
    );
    return rows.rows;
  }
  const out: MetadataWrite[] = [];
  for (const r of d.bigMapDiffs) {
    const name = names.get(r.ptr);
    if (name !== undefined)
      out.push({ contract: r.contract, key: r.key as M, value: r.value as M | null, name });
  }
  return out;
}

export async function queueMetadata(
  trx: Trx,
  b: BlockContext,
  d: Pick<BlockData, 'bigMapDiffs' | 'bigMapActions'>,
  /**
   * A block older than the stored rows (the history backfill, issue 32): it queues only what is not there
   * yet, and dates the rows that are there from itself (their first write); their link stays the newer one.
   */
  backfill = false,
): Promise<void> {
  const { network, level } = b;
  const rows = await metadataWrites(trx, b, d);
  const contracts = new Map<string, string>();
  const tokens = new Map<
    string,
    { contract: string; token_id: string; token_info: Record<string, string>; link: string | null }
  >();
  for (const r of rows) {
    const key = Array.isArray(r.key) ? undefined : r.key;
    const value = r.value && !Array.isArray(r.value) ? r.value : undefined;
    if (r.name === 'metadata' && key?.string === '' && typeof value?.bytes === 'string') {
      contracts.set(r.contract, hexToText(value.bytes).replaceAll('\u0000', '').slice(0, 2000));
    } else if (r.name === 'token_metadata' && typeof key?.int === 'string' && value?.prim === 'Pair') {
      const info = tokenInfo(value.args?.[1]);
      if (info) {
        const link =
          info[''] === undefined ? null : hexToText(info['']).replaceAll('\u0000', '').slice(0, 2000);
        tokens.set(`${r.contract}:${key.int}`, {
          contract: r.contract,
          token_id: key.int,
          token_info: info,
          link,
        });
      }
    }
  }
  if (contracts.size > 0) {
    const list = [...contracts].map(([address, link]) => ({ address, link }));
    await snapshot(
      trx,
      network,
      level,
      'contract_metadata',
      sql`t.address = ANY(${list.map((x) => x.address)}::text[])`,
    );
    await deferred(sql`INSERT INTO contract_metadata (network, address, level, link, status, retry_count, next_attempt_at)
      SELECT ${network}, r.address, ${level}, r.link, 1, 0, now() FROM jsonb_to_recordset(${JSON.stringify(list)}::jsonb) AS r(address text, link text)
      ${
        backfill
          ? sql`ON CONFLICT (network, address) DO UPDATE SET level = excluded.level WHERE contract_metadata.level > excluded.level`
          : sql`ON CONFLICT (network, address) DO UPDATE SET link = excluded.link, status = 1, retry_count = 0, error = NULL, next_attempt_at = now(), updated_at = now()`
      }`).execute(trx);
  }
  if (tokens.size > 0) {
    const list = [...tokens.values()];
    await snapshot(
      trx,
      network,
      level,
      'token_metadata',
      sql`(t.contract, t.token_id) IN (SELECT r.contract, r.token_id FROM jsonb_to_recordset(${JSON.stringify(list)}::jsonb) AS r(contract text, token_id numeric))`,
    );
    await deferred(sql`INSERT INTO token_metadata (network, contract, token_id, level, token_info, link, status, retry_count, next_attempt_at)
      SELECT ${network}, r.contract, r.token_id, ${level}, r.token_info, r.link, 1, 0, now()
      FROM jsonb_to_recordset(${JSON.stringify(list)}::jsonb) AS r(contract text, token_id numeric, token_info jsonb, link text)
      ${
        backfill
          ? sql`ON CONFLICT (network, contract, token_id) DO UPDATE SET level = excluded.level WHERE token_metadata.level > excluded.level`
          : sql`ON CONFLICT (network, contract, token_id) DO UPDATE SET token_info = excluded.token_info, link = excluded.link, status = 1, retry_count = 0,
        error = NULL, next_attempt_at = now(), updated_at = now()`
      }`).execute(trx);
  }
}
