/**
 * Runs a TZIP-16 off-chain view (`michelsonStorageView`) of a contract with the interpreter, over the
 * contract's latest indexed storage and big maps. The view is wrapped into a one-view script (the view's
 * stack is `pair parameter storage`, or `storage` alone when it has no parameter) and run with `runView`.
 * Big-map reads go to the database: the interpreter's chain interface is synchronous, so the run records
 * the keys it misses, they are loaded, and the view is run again (at most MAX_ROUNDS times).
 */
import type { Db } from '@michelscope/db';
import { bigMapTypes, bigMapValue, contractState } from '@michelscope/db/write';
import { runView, toTy, type ChainContext, type Expr } from '@michelscope/interpreter';
import { MetadataError } from './uri';
import type { JsonObject } from './validate';

const MAX_ROUNDS = 16;
const VIEW_NAME = 'michelscope_offchain_view';
const GAS_LIMIT = 1_040_000_000; // milligas: the per-operation hard limit

interface StorageView {
  parameter?: Expr;
  returnType: Expr;
  code: Expr;
}

/** The `michelsonStorageView` implementation of the view named `name` in TZIP-16 metadata, or null. */
export function findStorageView(metadata: unknown, name: string): StorageView | null {
  if (!metadata || typeof metadata !== 'object') return null;
  const views = (metadata as JsonObject).views;
  if (!Array.isArray(views)) return null;
  for (const v of views) {
    if (!v || typeof v !== 'object' || (v as JsonObject).name !== name) continue;
    const impls = (v as JsonObject).implementations;
    if (!Array.isArray(impls)) continue;
    for (const impl of impls) {
      const sv = impl && typeof impl === 'object' ? (impl as JsonObject).michelsonStorageView : undefined;
      if (sv && typeof sv === 'object' && 'code' in sv && 'returnType' in sv) {
        const s = sv as JsonObject;
        return {
          parameter: s.parameter as Expr | undefined,
          returnType: s.returnType as Expr,
          code: s.code as Expr,
        };
      }
    }
  }
  return null;
}

export interface ViewTarget {
  db: Db;
  network: string;
  contract: string;
}

/** Runs `view` with `input` (Micheline) and returns the result (Readable Micheline). */
export async function runStorageView(t: ViewTarget, view: StorageView, input: Expr | null): Promise<Expr> {
  const state = await contractState(t.db, t.network, t.contract);
  if (!state) throw new MetadataError(`contract ${t.contract} is not indexed`, false);
  if (state.storage === null) throw new MetadataError(`no storage of ${t.contract} is indexed`, false);
  const body = Array.isArray(view.code) ? view.code : [view.code];
  const script: Expr = [
    { prim: 'parameter', args: [state.parameter as Expr] },
    { prim: 'storage', args: [state.storageType as Expr] },
    {
      prim: 'code',
      args: [[{ prim: 'CDR' }, { prim: 'NIL', args: [{ prim: 'operation' }] }, { prim: 'PAIR' }]],
    },
    {
      prim: 'view',
      args: [
        { string: VIEW_NAME },
        view.parameter ?? { prim: 'unit' },
        view.returnType,
        view.parameter ? body : [{ prim: 'CDR' }, ...body],
      ],
    },
  ];
  const types = new Map<bigint, { key: ReturnType<typeof toTy>; value: ReturnType<typeof toTy> } | null>();
  const values = new Map<string, Expr | null>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const missing: Array<{ id: bigint; keyHash: string }> = [];
    const missingTypes: bigint[] = [];
    const chain: ChainContext = {
      bigMapTypes(id) {
        if (!types.has(id)) {
          missingTypes.push(id);
          return null;
        }
        return types.get(id) ?? null;
      },
      bigMapGet(id, _key, keyHash) {
        const k = `${id}:${keyHash}`;
        if (!values.has(k)) {
          missing.push({ id, keyHash });
          return null;
        }
        return values.get(k) ?? null;
      },
    };
    const res = runView({
      script,
      storage: state.storage as Expr,
      view: VIEW_NAME,
      input: input ?? { prim: 'Unit' },
      self: t.contract,
      chain,
      gasLimit: GAS_LIMIT,
      ...(state.level !== null ? { level: BigInt(state.level) } : {}),
    });
    if (missing.length === 0 && missingTypes.length === 0) {
      if (!res.ok) {
        const rejected = res.errors.find((e) => 'with' in e)?.with;
        const detail = rejected === undefined ? '' : ` with ${JSON.stringify(rejected).slice(0, 200)}`;
        throw new MetadataError(`off-chain view failed: ${res.error.message.slice(0, 300)}${detail}`, true);
      }
      return res.data;
    }
    for (const id of missingTypes) {
      const tv = await bigMapTypes(t.db, t.network, Number(id));
      types.set(id, tv ? { key: toTy(tv.keyType as Expr), value: toTy(tv.valueType as Expr) } : null);
    }
    for (const { id, keyHash } of missing) {
      const v = await bigMapValue(t.db, t.network, Number(id), keyHash);
      values.set(`${id}:${keyHash}`, (v ?? null) as Expr | null);
    }
  }
  throw new MetadataError(`off-chain view reads more than ${MAX_ROUNDS} rounds of big-map keys`, true);
}

/** token_info of a `token_metadata` view result `pair nat (map string bytes)` -> { key: hex }. */
export function tokenInfoOfViewResult(data: Expr): Record<string, string> {
  const d = data as { prim?: string; args?: Expr[] };
  const map = d.prim === 'Pair' ? d.args?.[1] : undefined;
  if (!Array.isArray(map))
    throw new MetadataError('token_metadata view did not return pair nat (map string bytes)', true);
  const out: Record<string, string> = {};
  for (const e of map as Array<{ prim?: string; args?: Array<{ string?: string; bytes?: string }> }>) {
    const [k, v] = e.args ?? [];
    if (e.prim === 'Elt' && typeof k?.string === 'string' && typeof v?.bytes === 'string')
      out[k.string] = v.bytes;
  }
  return out;
}
