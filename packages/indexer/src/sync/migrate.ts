/**
 * `update` migrations (§6.12): at a protocol change that changes the script generation (the registry's
 * `scriptMigration`), every stored contract's script is read again from the node at the first block of the new
 * protocol and hashed as origination scripts are; a contract whose hash changed gets the new script and one
 * `update` migration. The reference re-reads a fixed list of mainnet contracts at Jakarta; reading them all
 * finds exactly the ones that changed on any network. At Babylon, the single big map of pre-Babylon contracts
 * (stored with pointer -1) takes the pointer its storage holds at that level.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { globalConstantsOf, type Micheline, type MichelinePrim } from '@michelscope/michelson';
import type {
  ContractScriptUpdate,
  MigrationBigMap,
  ScriptMigration,
  ScriptRow,
} from '@michelscope/db/write';
import { contractSearchBody } from '../parse/builder';
import { LEGACY_PTR } from '../parse/era';
import { isObj, micheline } from '../parse/read';
import { buildScript, type ContractInfo } from '../parse/scripts';
import { fieldName, mapBigMaps } from '../parse/storage-walk';
import { InvalidNodeDataError } from '../protocols/validate';
import { RpcError } from '../rpc/client';
import type { ChainContext } from './chain-context';

/** Contracts read from the database per query, and scripts requested from the node at once. */
const PAGE = 1000;
const PARALLEL = 8;
/** Attempts per script request, and the delay before the next one (× the attempt number). */
const RETRIES = 4;
const RETRY_DELAY_MS = 250;
/** A progress line every this many contracts (unless the context says otherwise). */
export const MIGRATION_PROGRESS_EVERY = 1000;

export interface MigrationResult {
  migration: ScriptMigration;
  /** The new script of each contract whose script changed (for the parser of this block and the next). */
  changed: Map<string, ContractInfo>;
}

interface StoredContract {
  id: number;
  address: string;
  script_hash: string;
}

/** Big maps of a pointer-form storage value, in type order. */
function storageBigMaps(storageType: Micheline, storage: Micheline, contract: string): MigrationBigMap[] {
  const out: MigrationBigMap[] = [];
  mapBigMaps(storageType, storage, (t: MichelinePrim, v: Micheline) => {
    if (!Array.isArray(v) && 'int' in v && t.args?.length === 2) {
      const ptr = Number(v.int);
      if (Number.isSafeInteger(ptr) && ptr >= 0)
        out.push({ contract, ptr, key_type: t.args[0], value_type: t.args[1], name: fieldName(t) });
    }
    return v;
  });
  return out;
}

/**
 * Re-reads the scripts of every contract stored for the network at `level` (the first block of the new
 * protocol; the caller made sure every block below it is stored). Logs a progress line every
 * MIGRATION_PROGRESS_EVERY contracts and a summary.
 */
export async function migrateScripts(
  ctx: ChainContext,
  level: number,
  prevProtocol: string,
  nextProtocol: string,
  opts: { legacyBigMaps: boolean },
): Promise<MigrationResult> {
  const { db, network } = ctx;
  const total = Number(
    (
      await db
        .selectFrom('contracts')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('network', '=', network)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const legacyOwners = new Set<string>();
  if (opts.legacyBigMaps) {
    const rows = await db
      .selectFrom('big_map_diffs')
      .select('contract')
      .distinct()
      .where('network', '=', network)
      .where('ptr', '=', LEGACY_PTR)
      .execute();
    for (const r of rows) legacyOwners.add(r.contract);
  }
  ctx.line(
    `protocol migration at level ${level} (${prevProtocol} -> ${nextProtocol}): re-reading the scripts of ${total} contract(s)`,
  );

  const scripts = new Map<string, ScriptRow>();
  const contracts: Array<ContractScriptUpdate & { id: number }> = [];
  const changed = new Map<string, ContractInfo>();
  const bigMaps = new Map<number, MigrationBigMap>();
  const legacyPointers: Array<{ contract: string; ptr: number }> = [];
  let done = 0;
  let skipped = 0;
  const every = Math.max(1, ctx.migrationProgressEvery ?? MIGRATION_PROGRESS_EVERY);

  /** The node's script of `address` (undefined: the node has none); a failed request is tried again a few times. */
  const readScript = async (address: string): Promise<unknown> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await ctx.rpc.get(`/chains/main/blocks/${level}/context/contracts/${address}/script`);
      } catch (err) {
        if (!(err instanceof RpcError)) throw err;
        if (err.kind === 'not_found') return undefined;
        // One failure among many thousand requests should not restart the whole migration.
        if (attempt >= RETRIES || err.kind === 'invalid') throw err;
        await sleep(RETRY_DELAY_MS * attempt);
      }
    }
  };

  const migrateOne = async (c: StoredContract): Promise<void> => {
    const where = `script of ${c.address} at level ${level}`;
    const raw = await readScript(c.address);
    if (raw === undefined) {
      skipped++;
      ctx.line(
        `protocol migration at level ${level}: the node has no script for ${c.address}; it keeps its script`,
      );
      return;
    }
    if (!isObj(raw)) throw new InvalidNodeDataError(`${where}: not an object`);
    const code = micheline(raw.code, `${where} code`);
    const storage = micheline(raw.storage, `${where} storage`);
    await ctx.cache.load([], globalConstantsOf(code));
    const built = buildScript(code, ctx.cache.constant, where);
    if (!built) {
      skipped++;
      ctx.line(
        `protocol migration at level ${level}: ${c.address} uses a global constant unknown here; it keeps its script`,
      );
      return;
    }
    if (built.row.hash !== c.script_hash) {
      scripts.set(built.row.hash, built.row);
      contracts.push({
        id: c.id,
        address: c.address,
        script_hash: built.row.hash,
        tags: built.info.tags,
        search_body: contractSearchBody(built.row, built.info.tags),
      });
      changed.set(c.address, built.info);
    }
    if (!opts.legacyBigMaps) return;
    const found = storageBigMaps(built.info.storage, storage, c.address);
    for (const m of found) if (!bigMaps.has(m.ptr)) bigMaps.set(m.ptr, m);
    if (!legacyOwners.has(c.address)) return;
    if (found.length === 1) legacyPointers.push({ contract: c.address, ptr: found[0]!.ptr });
    else
      ctx.line(
        `protocol migration at level ${level}: ${c.address} has pre-Babylon big-map rows but ${found.length} big maps in its storage; they keep pointer -1`,
      );
  };

  let after = 0;
  for (;;) {
    const page: StoredContract[] = await db
      .selectFrom('contracts')
      .select(['id', 'address', 'script_hash'])
      .where('network', '=', network)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (page.length === 0) break;
    after = page[page.length - 1]!.id;
    let next = 0;
    const worker = async () => {
      while (next < page.length) {
        const c = page[next++]!;
        await migrateOne(c);
        done++;
        if (done % every === 0)
          ctx.line(
            `protocol migration at level ${level}: ${done}/${total} contract scripts re-read, ${contracts.length} changed`,
          );
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, page.length) }, worker));
  }
  // In contract order whatever order the node answered in (the rows and their ids do not depend on timing).
  contracts.sort((a, b) => a.id - b.id);
  legacyPointers.sort((a, b) => a.ptr - b.ptr);
  ctx.line(
    `protocol migration at level ${level}: ${done} contract scripts re-read, ${contracts.length} changed (update migrations)` +
      (opts.legacyBigMaps ? `, ${legacyPointers.length} pre-Babylon big map(s) re-pointed` : '') +
      (skipped > 0 ? `, ${skipped} kept (see above)` : ''),
  );
  return {
    migration: {
      prevProtocol,
      scripts: [...scripts.values()].sort((a, b) => (a.hash < b.hash ? -1 : 1)),
      contracts: contracts.map(({ id: _, ...c }) => c),
      bigMaps: [...bigMaps.values()].sort((a, b) => a.ptr - b.ptr),
      legacyPointers,
    },
    changed,
  };
}
