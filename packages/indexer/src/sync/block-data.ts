/**
 * Turns a fetched block into BlockData: loads from the database what the parser needs (scripts of the
 * contracts the block calls, global constants its originations use), reads scripts of implicit originations
 * from the node, then parses. Contract scripts are cached across blocks (cleared on reorgs).
 */
import { toMicheline, type Micheline } from '@michelscope/michelson';
import type { Db } from '@michelscope/db';
import type { BlockData } from '@michelscope/db/write';
import { blockReferences, parseBlockOperationsInSlices } from '../parse/block';
import type { ContractInfo } from '../parse/scripts';
import type { EraHandler } from '../parse/era';
import type { NodeRpc } from '../rpc/client';

const MAX_CACHED = 20_000;

export class ContractCache {
  private readonly contracts = new Map<string, ContractInfo | null>();
  private readonly constants = new Map<string, Micheline>();
  /**
   * Contracts and constants of blocks parsed but not yet committed (the writer runs behind the parser),
   * with the level that created them: the database cannot answer for them yet, and the size limit of
   * the cache never drops them. Forgotten once that level is stored (`stored`).
   */
  private readonly pendingContracts = new Map<string, { level: number; info: ContractInfo }>();
  private readonly pendingConstants = new Map<string, { level: number; value: Micheline }>();

  constructor(
    private readonly db: Db,
    private readonly network: string,
  ) {}

  clear(): void {
    this.contracts.clear();
    this.constants.clear();
    this.pendingContracts.clear();
    this.pendingConstants.clear();
  }

  /** An address the database now holds (adopted from the node): its 'unknown' answer is dropped. */
  forget(address: string): void {
    this.contracts.delete(address);
  }

  /** A contract's script read elsewhere (the history backfill reads it from the node at a block's level). */
  put(address: string, info: ContractInfo | null): void {
    this.contracts.set(address, info);
  }

  /** A global constant read elsewhere (from the node). */
  putConstant(address: string, value: Micheline): void {
    this.constants.set(address, value);
  }

  /** Records what a parsed block originated and registered, for the blocks parsed after it. */
  remember(level: number, data: BlockData): void {
    const scripts = new Map(data.scripts.map((s) => [s.hash, s]));
    for (const c of data.contracts) {
      const s = scripts.get(c.script_hash);
      if (s)
        this.pendingContracts.set(c.address, {
          level,
          info: { parameter: s.parameter as Micheline, storage: s.storage as Micheline, tags: c.tags },
        });
    }
    for (const g of data.globalConstants)
      this.pendingConstants.set(g.address, { level, value: g.value as Micheline });
  }

  /** Contracts whose script a protocol migration at `level` changed (pending until that level is stored). */
  migrated(level: number, changed: ReadonlyMap<string, ContractInfo>): void {
    for (const [address, info] of changed) this.pendingContracts.set(address, { level, info });
  }

  /** Levels up to `level` are committed: their contracts and constants are ordinary cache entries now. */
  stored(level: number): void {
    for (const [a, p] of this.pendingContracts) {
      if (p.level > level) continue;
      this.pendingContracts.delete(a);
      this.contracts.set(a, p.info);
    }
    for (const [a, p] of this.pendingConstants) {
      if (p.level > level) continue;
      this.pendingConstants.delete(a);
      this.constants.set(a, p.value);
    }
  }

  async load(addresses: Iterable<string>, constants: Iterable<string>): Promise<void> {
    const missing = [...addresses].filter((a) => !this.contracts.has(a) && !this.pendingContracts.has(a));
    if (this.contracts.size + missing.length > MAX_CACHED) this.contracts.clear();
    if (missing.length > 0) {
      const rows = await this.db
        .selectFrom('contracts as c')
        .innerJoin('scripts as s', 's.id', 'c.script_id')
        .select(['c.address', 'c.tags', 's.parameter', 's.storage'])
        .where('c.network', '=', this.network)
        .where('c.address', 'in', missing)
        .execute();
      for (const a of missing) this.contracts.set(a, null);
      for (const r of rows)
        this.contracts.set(r.address, {
          parameter: toMicheline(r.parameter),
          storage: toMicheline(r.storage),
          tags: r.tags,
        });
    }
    const missingConstants = [...constants].filter(
      (a) => !this.constants.has(a) && !this.pendingConstants.has(a),
    );
    for (let round = 0; missingConstants.length > 0 && round < 10; round++) {
      const rows = await this.db
        .selectFrom('global_constants')
        .select(['address', 'value'])
        .where('network', '=', this.network)
        .where('address', 'in', missingConstants)
        .execute();
      missingConstants.length = 0;
      for (const r of rows) {
        const v = toMicheline(r.value);
        this.constants.set(r.address, v);
        // constants may use constants
        JSON.stringify(v).replace(/"prim":"constant","args":\[\{"string":"(expr\w+)"\}/g, (_m, a: string) => {
          if (!this.constants.has(a) && !this.pendingConstants.has(a)) missingConstants.push(a);
          return '';
        });
      }
    }
  }

  contract = (a: string): ContractInfo | undefined =>
    this.pendingContracts.get(a)?.info ?? this.contracts.get(a) ?? undefined;
  constant = (a: string): Micheline | undefined =>
    this.pendingConstants.get(a)?.value ?? this.constants.get(a);
}

export interface BlockInput {
  level: number;
  timestamp: Date;
  raw: unknown;
}

export async function buildBlockData(
  rpc: NodeRpc,
  cache: ContractCache,
  era: EraHandler,
  costPerByte: number,
  block: BlockInput,
): Promise<BlockData> {
  const refs = blockReferences(block.raw);
  await cache.load(refs.contracts, refs.constants);
  const implicit = new Map<string, { code: unknown; storage: unknown }>();
  for (const a of refs.implicitOriginations) {
    const script = (await rpc.get(`/chains/main/blocks/${block.level}/context/contracts/${a}/script`)) as {
      code: unknown;
      storage: unknown;
    };
    implicit.set(a, script);
  }
  return parseBlockOperationsInSlices(
    block.raw,
    {
      level: block.level,
      timestamp: block.timestamp,
      costPerByte,
      era,
      contract: cache.contract,
      constant: cache.constant,
      implicitScript: (a) => implicit.get(a),
    },
    `block ${block.level}`,
  );
}
