/**
 * Runtime values. Every value carries its (normalised) Michelson type `t`, so PACK, COMPARE, unparsing and
 * result checks never need a separate type map. Numbers are bigint; maps and sets are arrays kept sorted by
 * the Michelson total order; big maps are lazy (an id in the chain context plus a local overlay).
 */
import { MichelsonError } from './errors';
import type { Expr, Ty } from './types';
import { T, listT, optionT, orT, pairT } from './types';

export interface NumV {
  k: 'num';
  t: Ty;
  v: bigint;
} // int, nat, mutez, timestamp
export interface StrV {
  k: 'string';
  t: Ty;
  v: string;
}
export interface BytesV {
  k: 'bytes';
  t: Ty;
  v: string;
} // lower-case hex
export interface BoolV {
  k: 'bool';
  t: Ty;
  v: boolean;
}
export interface UnitV {
  k: 'unit';
  t: Ty;
}
export interface PairV {
  k: 'pair';
  t: Ty;
  a: V;
  b: V;
}
export interface OrV {
  k: 'or';
  t: Ty;
  left: boolean;
  v: V;
}
export interface OptionV {
  k: 'option';
  t: Ty;
  v: V | null;
}
export interface ListV {
  k: 'list';
  t: Ty;
  v: V[];
}
export interface SetV {
  k: 'set';
  t: Ty;
  v: V[];
} // sorted, unique
export interface MapV {
  k: 'map';
  t: Ty;
  v: [V, V][];
} // sorted by key, unique keys
export interface BigMapEntry {
  key: V;
  value: V | null;
} // value null = removed
export interface BigMapV {
  k: 'big_map';
  t: Ty;
  /** Id in the chain context's big-map store; null for a big map created during this run. */
  id: bigint | null;
  /** Local changes keyed by the hex of the packed key; never mutated once shared (copy-on-write). */
  diff: Map<string, BigMapEntry>;
}
/** address, key_hash, key, signature, chain_id: `str` is the base58 form, `hex` the binary form. */
export interface AddressV {
  k: 'address';
  t: Ty;
  hex: string;
  str: string;
  ep: string;
}
export interface KeyLikeV<
  K extends 'key_hash' | 'key' | 'signature' | 'chain_id' = 'key_hash' | 'key' | 'signature' | 'chain_id',
> {
  k: K;
  t: Ty;
  hex: string;
  str: string;
}
export interface ContractV {
  k: 'contract';
  t: Ty;
  hex: string;
  str: string;
  ep: string;
}
export interface LambdaV {
  k: 'lambda';
  t: Ty;
  code: Expr;
  rec: boolean;
  /** How many lambdas are nested in `code` through APPLY (bounded like Octez's Micheline depth). */
  depth?: number;
}
export interface OperationV {
  k: 'operation';
  t: Ty;
  op: Operation;
}
export interface TicketV {
  k: 'ticket';
  t: Ty;
  ticketer: string;
  content: V;
  amount: bigint;
}
export interface BlsV {
  k: 'bls';
  t: Ty;
  hex: string;
} // G1 / G2 points: compressed-free Octez bytes
export interface FrV {
  k: 'fr';
  t: Ty;
  v: bigint;
}
export interface OpaqueV {
  k: 'opaque';
  t: Ty;
  data: Expr;
} // chest, chest_key, sapling_transaction(_deprecated): their bytes, checked when parsed
/**
 * A Sapling state (memo size in `t.memo`). The sandbox cannot verify Sapling proofs, so SAPLING_VERIFY_UPDATE
 * never succeeds and a state never gets commitments or nullifiers: it is an id in the chain context's
 * Sapling store, or null for an empty state made during this run (Octez's `{id = None; diff = empty}`).
 */
export interface SaplingStateV {
  k: 'sapling_state';
  t: Ty;
  id: bigint | null;
}

export type V =
  | NumV
  | StrV
  | BytesV
  | BoolV
  | UnitV
  | PairV
  | OrV
  | OptionV
  | ListV
  | SetV
  | MapV
  | BigMapV
  | AddressV
  | KeyLikeV<'key_hash'>
  | KeyLikeV<'key'>
  | KeyLikeV<'signature'>
  | KeyLikeV<'chain_id'>
  | ContractV
  | LambdaV
  | OperationV
  | TicketV
  | BlsV
  | FrV
  | OpaqueV
  | SaplingStateV;

export type Operation =
  | {
      kind: 'transaction';
      source: string;
      destination: string;
      entrypoint: string;
      amount: bigint;
      parameter: V;
      nonce: number;
    }
  | {
      kind: 'origination';
      source: string;
      delegate: string | null;
      amount: bigint;
      code: Expr[];
      storage: V;
      address: string;
      nonce: number;
    }
  | { kind: 'delegation'; source: string; delegate: string | null; nonce: number }
  | { kind: 'event'; source: string; tag: string; type: Expr; payload: V; nonce: number };

// ---- constructors -------------------------------------------------------------------------------------------
export const unit: UnitV = { k: 'unit', t: T.unit };
export const TRUE: BoolV = { k: 'bool', t: T.bool, v: true };
export const FALSE: BoolV = { k: 'bool', t: T.bool, v: false };
export const bool = (b: boolean): BoolV => (b ? TRUE : FALSE);
export const int = (v: bigint): NumV => ({ k: 'num', t: T.int, v });
export const str = (v: string): StrV => ({ k: 'string', t: T.string, v });
export const bytes = (v: string): BytesV => ({ k: 'bytes', t: T.bytes, v });
export const pair = (a: V, b: V): PairV => ({ k: 'pair', t: pairT(a.t, b.t), a, b });
export const some = (v: V): OptionV => ({ k: 'option', t: optionT(v.t), v });
export const none = (t: Ty): OptionV => ({ k: 'option', t: optionT(t), v: null });
export const left = (v: V, r: Ty): OrV => ({ k: 'or', t: orT(v.t, r), left: true, v });
export const right = (l: Ty, v: V): OrV => ({ k: 'or', t: orT(l, v.t), left: false, v });
export const list = (elt: Ty, v: V[]): ListV => ({ k: 'list', t: listT(elt), v });

export const MUTEZ_MAX = (1n << 63n) - 1n;

/** FAILWITH's error (`script_rejected`), with the failing value itself for callers that need its type. */
export class ScriptRejected extends MichelsonError {
  constructor(
    readonly value: V,
    withExpr: Expr,
  ) {
    super('script_rejected', 'script rejected', { with: withExpr });
  }
}

export function nat(v: bigint): NumV {
  return { k: 'num', t: T.nat, v };
}
export function mutez(v: bigint): NumV {
  if (v < 0n)
    throw new MichelsonError('mutez_underflow', 'mutez underflow', { amounts: ['0', (-v).toString()] });
  if (v > MUTEZ_MAX)
    throw new MichelsonError('mutez_overflow', 'mutez overflow', { amounts: [v.toString(), '0'] });
  return { k: 'num', t: T.mutez, v };
}
export const timestamp = (v: bigint): NumV => ({ k: 'num', t: T.timestamp, v });

/** Narrowing helpers used by instructions (the static checks guarantee the kinds; these catch the rest). */
export function asNum(v: V | undefined): bigint {
  if (v?.k !== 'num') throw new MichelsonError('ill_typed', `expected a number, got ${v?.k ?? 'nothing'}`);
  return v.v;
}
export function asKind<K extends V['k']>(v: V | undefined, k: K): Extract<V, { k: K }> {
  if (v?.k !== k)
    throw new MichelsonError('ill_typed', `expected ${k}, got ${v ? v.t.prim : 'an empty stack'}`);
  return v as Extract<V, { k: K }>;
}
