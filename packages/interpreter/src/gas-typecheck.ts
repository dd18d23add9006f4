/**
 * What Octez charges (milligas) to load a script and its storage before running it, and to unparse the
 * storage afterwards, itemised by Micheline node instead of a flat rate per byte. Figures are Octez's
 * (`michelson_v1_gas_costs.ml`, `script_repr_costs_generated.ml`, `michelson_v1_gas_costs_generated.ml`):
 *
 * - decoding a Micheline expression: 60 per node + 10 per byte of integers + 10 per byte of strings/bytes
 *   (`cost_DECODING_MICHELINE`), for the script and the storage;
 * - typechecking code: 220 per `parse_instr` step (`cost_TYPECHECKING_CODE`), taken twice per instruction
 *   and sequence node, as Octez's translator does (MIR's notes make the same observation);
 * - types: 60 per node (`cost_PARSE_TYPE1`); data: 100 per node (`cost_TYPECHECKING_DATA`), plus the
 *   decoding of readable literals: timestamps (`TIMESTAMP_READABLE_DECODING`), key hashes, addresses and
 *   contracts (the dearest of the b58check decoders, 3,600), keys (325,000), signatures (6,400), chain ids;
 * - unparsing the resulting storage: 65 per node (`cost_UNPARSING_DATA`) + 51 per node to strip locations.
 *
 * Not itemised (see README): type-equality checks at COMPARE and branch joins, entrypoint lookups, the
 * dupable/packable checks, lambdas met inside data.
 */
import { encodeExpr } from './pack';
import type { LoadedScript } from './script';
import type { Expr } from './types';

export const TYPECHECK_COST = {
  decodeNode: 60,
  decodeIntByte: 10,
  decodeStringByte: 10,
  instrStep: 440,
  typeNode: 60,
  dataNode: 100,
  unparseNode: 65,
  stripNode: 51,
  b58KeyHash: 3600,
  b58Key: 325_000,
  b58Signature: 6400,
  b58ChainId: 1600,
  /** `cost_TY_EQ size` = 35 + 22 · size. */
  tyEqBase: 35,
  tyEqPerNode: 22,
  /** `cost_FIND_ENTRYPOINT` = `cost_N_ICompare 31 31`. */
  findEntrypoint: 35,
} as const;

/** `cost_TY_EQ` for types of `size` nodes (the smaller of the two compared). */
export function tyEqCost(size: number): number {
  return TYPECHECK_COST.tyEqBase + TYPECHECK_COST.tyEqPerNode * size;
}

/** Instructions whose arguments at these positions are types, not code. */
const TYPE_ARGS: Record<string, readonly number[]> = {
  PUSH: [0],
  NIL: [0],
  NONE: [0],
  LEFT: [0],
  RIGHT: [0],
  EMPTY_SET: [0],
  EMPTY_MAP: [0, 1],
  EMPTY_BIG_MAP: [0, 1],
  LAMBDA: [0, 1],
  LAMBDA_REC: [0, 1],
  CONTRACT: [0],
  UNPACK: [0],
  CAST: [0],
  VIEW: [1],
  CREATE_CONTRACT: [],
};

type Node = Expr | Expr[];

function isPrimNode(e: Node): e is Extract<Expr, { prim: string }> {
  return !Array.isArray(e) && 'prim' in e;
}

function intBytes(s: string): number {
  let v: bigint;
  try {
    v = BigInt(s);
  } catch {
    return 0;
  }
  if (v < 0n) v = -v;
  return v === 0n ? 0 : Math.ceil(v.toString(2).length / 8);
}

/** `cost_DECODING_MICHELINE`: 60 per node, 10 per byte of numbers and of strings/bytes. */
export function decodeCost(e: Node): number {
  let cost = TYPECHECK_COST.decodeNode;
  if (Array.isArray(e)) for (const x of e) cost += decodeCost(x);
  else if ('prim' in e) for (const x of e.args ?? []) cost += decodeCost(x);
  else if ('int' in e) cost += TYPECHECK_COST.decodeIntByte * intBytes(e.int);
  else if ('string' in e) cost += TYPECHECK_COST.decodeStringByte * e.string.length;
  else if ('bytes' in e) cost += TYPECHECK_COST.decodeStringByte * (e.bytes.length >> 1);
  return cost;
}

/** Nodes of an expression. */
export function nodeCount(e: Node): number {
  if (Array.isArray(e)) return 1 + e.reduce((n, x) => n + nodeCount(x), 0);
  if ('prim' in e) return 1 + (e.args ?? []).reduce((n, x) => n + nodeCount(x), 0);
  return 1;
}

/** `cost_TIMESTAMP_READABLE_DECODING`: 105 + (sqrt(n)·n)/32 + (sqrt(n)·n)/64. */
function timestampDecoding(len: number): number {
  const v = Math.floor(Math.sqrt(len)) * len;
  return 105 + (v >> 5) + (v >> 6);
}

/** Extra cost of a readable string literal given the type expected there (when known). */
function readableStringCost(s: string, ty: Node | undefined): number {
  const prim = ty && isPrimNode(ty) ? ty.prim : '';
  switch (prim) {
    case 'timestamp':
      return timestampDecoding(s.length);
    case 'address':
    case 'contract':
    case 'key_hash':
      return TYPECHECK_COST.b58KeyHash;
    case 'key':
      return TYPECHECK_COST.b58Key;
    case 'signature':
      return TYPECHECK_COST.b58Signature;
    case 'chain_id':
      return TYPECHECK_COST.b58ChainId;
    default:
      return 0;
  }
}

/**
 * Typechecking cost of a data literal against its type: 100 per node, plus readable-literal decoding. The
 * type is followed where the shapes agree (pairs, options, or, lists, sets, maps); elsewhere only nodes count.
 */
export function dataCost(d: Node, ty: Node | undefined): number {
  const t = ty && isPrimNode(ty) ? ty : undefined;
  const targ = (i: number): Node | undefined => t?.args?.[i];
  if (Array.isArray(d)) {
    let cost = TYPECHECK_COST.dataNode;
    const p = t?.prim;
    for (const x of d) {
      if (p === 'map' || p === 'big_map') cost += dataCost(x, t);
      else if (p === 'list' || p === 'set') cost += dataCost(x, targ(0));
      else if (p === 'pair') cost += dataCost(x, undefined);
      else if (p === 'lambda') cost += codeCost(x);
      else cost += dataCost(x, undefined);
    }
    return cost;
  }
  if ('string' in d) return TYPECHECK_COST.dataNode + readableStringCost(d.string, t);
  if (!('prim' in d)) return TYPECHECK_COST.dataNode;
  const args = (d.args ?? []) as Node[];
  let cost = TYPECHECK_COST.dataNode;
  if (d.prim === 'Elt' && (t?.prim === 'map' || t?.prim === 'big_map'))
    return cost + dataCost(args[0] ?? [], targ(0)) + dataCost(args[1] ?? [], targ(1));
  if (d.prim === 'Pair' && t?.prim === 'pair') {
    // right combs: Pair a b c against pair a (pair b c) or pair a b c
    const tys = t.args ?? [];
    args.forEach((a, i) => {
      const last = i === args.length - 1;
      const want = last && tys.length === 2 && args.length > 2 ? undefined : tys[i];
      cost += dataCost(a, want);
    });
    return cost;
  }
  if (d.prim === 'Some' && t?.prim === 'option') return cost + dataCost(args[0] ?? [], targ(0));
  if (d.prim === 'Left' && t?.prim === 'or') return cost + dataCost(args[0] ?? [], targ(0));
  if (d.prim === 'Right' && t?.prim === 'or') return cost + dataCost(args[0] ?? [], targ(1));
  for (const a of args) cost += dataCost(a, undefined);
  return cost;
}

/** Typechecking cost of code: two `parse_instr` steps per instruction and sequence, plus types and data. */
export function codeCost(code: Node): number {
  if (Array.isArray(code)) return TYPECHECK_COST.instrStep + code.reduce((n, x) => n + codeCost(x), 0);
  if (!isPrimNode(code)) return dataCost(code, undefined);
  let cost = TYPECHECK_COST.instrStep;
  // COMPARE checks that both operands have the same type; operands are taken to be atomic types here.
  if (code.prim === 'COMPARE') cost += tyEqCost(1);
  const typeArgs = TYPE_ARGS[code.prim] ?? [];
  const args = (code.args ?? []) as Node[];
  args.forEach((a, i) => {
    if (typeArgs.includes(i)) cost += TYPECHECK_COST.typeNode * nodeCount(a);
    else if (code.prim === 'PUSH' && i === 1) cost += dataCost(a, args[0]);
    else if (Array.isArray(a) || isPrimNode(a)) cost += codeCost(a);
  });
  return cost;
}

/** Cost of loading a script (decoding, types of its sections, code and views) before a run. */
export function scriptLoadCost(script: readonly Expr[]): number {
  let cost = decodeCost(script as Expr[]);
  for (const s of script) {
    if (!isPrimNode(s)) continue;
    const args = (s.args ?? []) as Node[];
    if (s.prim === 'parameter') cost += TYPECHECK_COST.typeNode * nodeCount(args[0] ?? []);
    else if (s.prim === 'storage') {
      const n = nodeCount(args[0] ?? []);
      // the code's result is checked against pair (list operation) <storage>: 3 more nodes
      cost += TYPECHECK_COST.typeNode * n + tyEqCost(n + 3);
    } else if (s.prim === 'code') cost += codeCost(args[0] ?? []);
    else if (s.prim === 'view')
      cost +=
        TYPECHECK_COST.typeNode * (nodeCount(args[1] ?? []) + nodeCount(args[2] ?? [])) +
        codeCost(args[3] ?? []);
  }
  return cost;
}

/** Cost of unparsing a value of `nodes` Micheline nodes and stripping its locations. */
export function unparseCost(e: Node): number {
  return (TYPECHECK_COST.unparseNode + TYPECHECK_COST.stripNode) * nodeCount(e);
}

const loadCostCache = new WeakMap<LoadedScript, number>();

/** `scriptLoadCost` of a loaded script, computed once per loaded script. */
export function scriptCost(loaded: LoadedScript): number {
  let c = loadCostCache.get(loaded);
  if (c === undefined) {
    c = scriptLoadCost(loaded.script);
    loadCostCache.set(loaded, c);
  }
  return c;
}

/**
 * Big-map reads from the context. Octez (`Script_ir_translator.big_map_get`/`big_map_mem`) hashes the key
 * (unparse 65/node, `cost_ENCODING_MICHELINE` 100/node + 25 per integer byte + 10 per string byte, BLAKE2B of
 * the packed bytes), reads the carbonated storage (`Storage_costs.read_access`: 200 gas + 5 gas per path
 * segment + 2 milligas per byte read), then decodes and typechecks the value it found (GET only).
 */
export const BIG_MAP_READ = { base: 200_000, perSegment: 5000, pathLength: 6, perByte: 2 } as const;

function encodeMichelineCost(e: Node): number {
  let cost = 100;
  if (Array.isArray(e)) for (const x of e) cost += encodeMichelineCost(x);
  else if ('prim' in e) for (const x of e.args ?? []) cost += encodeMichelineCost(x);
  else if ('int' in e) cost += 25 * intBytes(e.int);
  else if ('string' in e) cost += 10 * e.string.length;
  else if ('bytes' in e) cost += 10 * (e.bytes.length >> 1);
  return cost;
}

/** Milligas of reading `key` (Optimized form) from a big map in the context; `valueTy` unset for MEM. */
export function bigMapReadCost(key: Expr, value: Expr | null, valueTy: Expr | undefined): number {
  const packed = encodeExpr(key).length + 1;
  const hashKey =
    TYPECHECK_COST.unparseNode * nodeCount(key) + encodeMichelineCost(key) + 430 + packed + (packed >> 3);
  const found = value === null ? 0 : encodeExpr(value).length;
  const read =
    BIG_MAP_READ.base + BIG_MAP_READ.perSegment * BIG_MAP_READ.pathLength + BIG_MAP_READ.perByte * found;
  const parse = value === null || valueTy === undefined ? 0 : decodeCost(value) + dataCost(value, valueTy);
  return hashKey + read + parse;
}
