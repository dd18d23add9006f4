/**
 * Turns a fetched block into BlockData: loads from the database what the parser needs (scripts of the
 * contracts the block calls, global constants its originations use), reads scripts of implicit originations
 * from the node, then parses. Contract scripts are cached across blocks (cleared on reorgs).
 */
import { toMicheline, type Micheline } from '@michelscope/michelson';
import type { Db } from '@michelscope/db';
import type { BlockData } from '@michelscope/db/write';
import { blockReferences, parseBlockOperations } from '../parse/block';
import type { ContractInfo } from '../parse/scripts';
import type { EraHandler } from '../parse/era';
import type { NodeRpc } from '../rpc/client';

const MAX_CACHED = 20_000;

export class ContractCache {
  private readonly contracts = new Map<string, ContractInfo | null>();
  private readonly constants = new Map<string, Micheline>();

  constructor(private readonly db: Db, private readonly network: string) {}

  clear(): void {
    this.contracts.clear();
    this.constants.clear();
  }

  async load(addresses: Iterable<string>, constants: Iterable<string>): Promise<void> {
    const missing = [...addresses].filter((a) => !this.contracts.has(a));
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
      for (const r of rows) this.contracts.set(r.address, { parameter: toMicheline(r.parameter), storage: toMicheline(r.storage), tags: r.tags });
    }
    const missingConstants = [...constants].filter((a) => !this.constants.has(a));
    for (let round = 0; missingConstants.length > 0 && round < 10; round++) {
      const rows = await this.db.selectFrom('global_constants').select(['address', 'value']).where('network', '=', this.network).where('address', 'in', missingConstants).execute();
      missingConstants.length = 0;
      for (const r of rows) {
        const v = toMicheline(r.value);
        this.constants.set(r.address, v);
        // constants may use constants
        JSON.stringify(v).replace(/"prim":"constant","args":\[\{"string":"(expr\w+)"\}/g, (_m, a: string) => {
          if (!this.constants.has(a)) missingConstants.push(a);
          return '';
        });
      }
    }
  }

  contract = (a: string): ContractInfo | undefined => this.contracts.get(a) ?? undefined;
  constant = (a: string): Micheline | undefined => this.constants.get(a);
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
    const script = (await rpc.get(`/chains/main/blocks/${block.level}/context/contracts/${a}/script`)) as { code: unknown; storage: unknown };
    implicit.set(a, script);
  }
  return parseBlockOperations(
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
