/**
 * Recorded contract calls with their receipts' gas, gathered from ../shared/fixtures/rpc/operations: every
 * transaction (top-level or internal) to a KT1 whose receipt is `applied`, with what is known of its context
 * (code, storage before the call, amount, sender). A case says which parts of the context are missing, so
 * the replay test can tell a gas mismatch from a run that could not be reproduced in the first place.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Expr } from '../src/index';

export interface GasCase {
  /** `<opHash prefix>#<content>[.<internal>] <KT1> %<entrypoint>` */
  id: string;
  protocol: string;
  destination: string;
  entrypoint: string;
  parameter: Expr;
  amount: bigint;
  sender: string;
  source: string;
  internal: boolean;
  /** The receipt's figure in milligas (`consumed_milligas`, else `consumed_gas` × 1000). */
  receiptMilligas: number;
  code: Expr | null;
  /** Storage recorded at some level; `storageLevel` tells which (the call's own block or not is unknown). */
  storage: Expr | null;
  storageLevel: number | null;
  /** The receipt lists big-map updates: the call touched big maps whose prior values are not recorded. */
  touchesBigMaps: boolean;
}

interface Result {
  status?: string;
  consumed_gas?: string;
  consumed_milligas?: string;
  big_map_diff?: unknown[];
  lazy_storage_diff?: unknown[];
}
interface Content {
  kind: string;
  source?: string;
  destination?: string;
  amount?: string;
  parameters?: { entrypoint?: string; value?: Expr };
  metadata?: { operation_result?: Result; internal_operation_results?: Content[] };
  result?: Result;
}
interface Group {
  hash?: string;
  protocol?: string;
  contents?: Content[];
}

const readJson = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8')) as unknown;

function findCode(opsDir: string, contractsDir: string, kt1: string): Expr | null {
  const refDir = path.join(opsDir, '_referenced_scripts');
  const ref = existsSync(refDir) ? readdirSync(refDir).find((f) => f.startsWith(`${kt1}_`)) : undefined;
  if (ref) return readJson(path.join(refDir, ref)) as Expr;
  const own = path.join(contractsDir, kt1, 'code.json');
  return existsSync(own) ? (readJson(own) as Expr) : null;
}

function findStorage(opsDir: string, kt1: string): { storage: Expr; level: number } | null {
  const dir = path.join(opsDir, '_referenced_storage');
  const f = existsSync(dir) ? readdirSync(dir).find((x) => x.startsWith(`${kt1}_`)) : undefined;
  if (!f) return null;
  const storage = readJson(path.join(dir, f)) as Expr;
  return { storage, level: Number(f.slice(kt1.length + 1, -'.json'.length)) };
}

function milligas(r: Result): number | null {
  if (r.consumed_milligas !== undefined) return Number(r.consumed_milligas);
  if (r.consumed_gas !== undefined) return Number(r.consumed_gas) * 1000;
  return null;
}

/** All recorded applied calls to contracts, in a stable order. */
export function collectGasCases(fixturesDir: string): GasCase[] {
  const opsDir = path.join(fixturesDir, 'rpc', 'operations');
  const contractsDir = path.join(fixturesDir, 'contracts');
  const cases: GasCase[] = [];
  const files = readdirSync(opsDir)
    .filter((f) => f.endsWith('.json') && f !== 'index.json')
    .sort()
    .map((f) => path.join(opsDir, f));
  const blocksDir = path.join(fixturesDir, 'rpc', 'blocks', 'mainnet');
  if (existsSync(blocksDir))
    for (const b of readdirSync(blocksDir).sort())
      for (const name of ['block.json', 'operations.json'])
        if (existsSync(path.join(blocksDir, b, name))) files.push(path.join(blocksDir, b, name));
  const seen = new Set<string>();
  for (const file of files) {
    const f = path.basename(file);
    const raw = readJson(file) as { operations?: unknown } | unknown[];
    // an operation group, a list of groups, a block ({operations: groups by pass}) or a list of passes
    const lists = !Array.isArray(raw) && Array.isArray(raw.operations) ? raw.operations : [raw];
    const groups = (lists as unknown[])
      .flatMap((x) => (Array.isArray(x) ? (x as unknown[]) : [x]))
      .flatMap((x) => (Array.isArray(x) ? (x as unknown[]) : [x])) as Group[];
    for (const g of groups) {
      if (g.hash) {
        if (seen.has(g.hash)) continue; // the same group recorded in a block and on its own
        seen.add(g.hash);
      }
      const hash = (g.hash ?? f).slice(0, 10);
      (g.contents ?? []).forEach((c, i) => {
        const visit = (
          op: Content,
          r: Result | undefined,
          label: string,
          internal: boolean,
          src: string,
        ): void => {
          if (op.kind !== 'transaction' || !op.destination?.startsWith('KT1') || r?.status !== 'applied')
            return;
          const mg = milligas(r);
          if (mg === null) return;
          const st = findStorage(opsDir, op.destination);
          cases.push({
            id: `${hash}#${label} ${op.destination} %${op.parameters?.entrypoint ?? 'default'}`,
            protocol: (g.protocol ?? '').slice(0, 8),
            destination: op.destination,
            entrypoint: op.parameters?.entrypoint ?? 'default',
            parameter: op.parameters?.value ?? { prim: 'Unit' },
            amount: BigInt(op.amount ?? '0'),
            sender: op.source ?? '',
            source: src,
            internal,
            receiptMilligas: mg,
            code: findCode(opsDir, contractsDir, op.destination),
            storage: st?.storage ?? null,
            storageLevel: st?.level ?? null,
            touchesBigMaps: (r.big_map_diff?.length ?? 0) + (r.lazy_storage_diff?.length ?? 0) > 0,
          });
        };
        const src = c.source ?? '';
        visit(c, c.metadata?.operation_result, String(i), false, src);
        (c.metadata?.internal_operation_results ?? []).forEach((io, j) =>
          visit(io, io.result, `${i}.${j}`, true, src),
        );
      });
    }
  }
  return cases;
}

/** Why a case cannot be replayed with its full context, or null when it can. */
export function missingContext(c: GasCase): string | null {
  if (!c.code) return 'contract code not recorded';
  if (!c.storage) return 'storage before the call not recorded';
  return null;
}
