/**
 * Micheline data <-> typed runtime values. `parseData` validates like Octez (ranges, sorted maps and sets,
 * address checksums, entrypoints...) and throws `ill_typed`; `unparse` produces Readable or Optimized forms.
 *
 * Over ~400 lines because parsing and unparsing are mutually recursive: parseData checks map and set order
 * with compareTyped, which compares unparsed forms, and unparse normalizes a lambda's PUSHed constants by
 * parsing them (normalizeCode); as two modules they would import each other.
 */
import { MichelsonDataError, compareValues as compareMicheline } from '@michelscope/michelson';
import {
  FR_ORDER,
  frFromLeHex,
  frToLeHex,
  g1Valid,
  g2Valid,
  isPrintable,
  mod,
  parseTimestamp,
  signatureValid,
  timestampToString,
} from './literals';
import {
  addressFromHex,
  addressToHex,
  bytesToHex,
  chainIdFromHex,
  chainIdToHex,
  keyFromHex,
  keyHashFromHex,
  keyHashToHex,
  keyToHex,
  signatureFromHex,
  signatureToHex,
  splitAddress,
} from './encoding';
import { MichelsonError, inconsistentMemoSizes, notSupported, staticError } from './errors';
import type { Expr, Ty } from './types';
import { isPrim, showTy, toTy, tyEq } from './types';
import type { BigMapV, SaplingStateV, V } from './values';
import { saplingTransactionMemoSize } from './sapling';
import { MUTEZ_MAX, bool, unit } from './values';

export interface DataContext {
  /** Resolves a big map id found in data (storage from the chain, TZT `big_maps`). */
  bigMap?(id: bigint, t: Ty): BigMapV;
  /** Resolves a Sapling state id found in data (storage from the chain); checks its memo size. */
  saplingState?(id: bigint, t: Ty): SaplingStateV;
  /** Parameter type of `address%entrypoint`, or null when there is no such contract/entrypoint. */
  contractType?(address: string, entrypoint: string): Ty | null;
  /** Typechecks a lambda literal (throws ill_typed). */
  checkLambda?(code: Expr, arg: Ty, ret: Ty, rec: boolean): void;
  /** Allow Ticket literals / ticket values (TZT inputs, storage from the chain). */
  allowTickets?: boolean;
}

function bad(t: Ty, e: Expr): MichelsonError {
  return staticError(
    'invalid_constant',
    `invalid ${showTy(t)} constant: ${String(JSON.stringify(e) ?? e).slice(0, 120)}`,
  );
}
function prim(e: Expr, name: string, n: number): Expr[] | null {
  if (!isPrim(e) || e.prim !== name) return null;
  const a = e.args ?? [];
  return a.length === n ? a : null;
}

export function parseAddress(s: string, t: Ty): V {
  const { address, entrypoint } = splitAddress(s);
  return { k: 'address', t, hex: addressToHex(address), str: address, ep: entrypoint };
}
function addressFromBytes(hex: string, t: Ty): V {
  const h = hex.toLowerCase();
  if (h.length < 44) throw staticError('invalid_address', 'address bytes too short');
  const str = addressFromHex(h.slice(0, 44));
  const epHex = h.slice(44);
  const ep = Buffer.from(epHex, 'hex').toString('latin1');
  if (ep.length > 31 || ep === 'default')
    throw staticError('invalid_address', 'invalid entrypoint in address bytes');
  return { k: 'address', t, hex: h.slice(0, 44), str, ep };
}

export function parseData(e: Expr, t: Ty, ctx: DataContext = {}): V {
  if (e === null || typeof e !== 'object') throw bad(t, e);
  const p = t.prim;
  switch (p) {
    case 'int':
    case 'nat':
    case 'mutez': {
      if (Array.isArray(e) || !('int' in e)) throw bad(t, e);
      const v = BigInt(e.int);
      if (p !== 'int' && v < 0n) throw bad(t, e);
      if (p === 'mutez' && v > MUTEZ_MAX) throw bad(t, e);
      return { k: 'num', t, v };
    }
    case 'timestamp': {
      if (!Array.isArray(e) && 'int' in e) return { k: 'num', t, v: BigInt(e.int) };
      if (!Array.isArray(e) && 'string' in e) {
        const v = parseTimestamp(e.string);
        if (v === null) throw bad(t, e);
        return { k: 'num', t, v };
      }
      throw bad(t, e);
    }
    case 'string':
      if (Array.isArray(e) || !('string' in e) || !isPrintable(e.string)) throw bad(t, e);
      return { k: 'string', t, v: e.string };
    case 'bytes':
      if (Array.isArray(e) || !('bytes' in e)) throw bad(t, e);
      return { k: 'bytes', t, v: e.bytes.toLowerCase() };
    case 'bool':
      if (isPrim(e) && (e.prim === 'True' || e.prim === 'False') && !e.args?.length)
        return bool(e.prim === 'True');
      throw bad(t, e);
    case 'unit':
      if (isPrim(e) && e.prim === 'Unit' && !e.args?.length) return unit;
      throw bad(t, e);
    case 'never':
      throw bad(t, e);
    case 'pair': {
      let items: Expr[];
      if (Array.isArray(e)) items = e;
      else if (isPrim(e) && e.prim === 'Pair' && (e.args?.length ?? 0) >= 2) items = e.args as Expr[];
      else throw bad(t, e);
      if (items.length < 2) throw bad(t, e);
      const a = parseData(items[0] as Expr, t.args[0] as Ty, ctx);
      const rest: Expr = items.length === 2 ? (items[1] as Expr) : { prim: 'Pair', args: items.slice(1) };
      const b = parseData(rest, t.args[1] as Ty, ctx);
      return { k: 'pair', t, a, b };
    }
    case 'or': {
      const l = prim(e, 'Left', 1);
      if (l) return { k: 'or', t, left: true, v: parseData(l[0] as Expr, t.args[0] as Ty, ctx) };
      const r = prim(e, 'Right', 1);
      if (r) return { k: 'or', t, left: false, v: parseData(r[0] as Expr, t.args[1] as Ty, ctx) };
      throw bad(t, e);
    }
    case 'option': {
      if (prim(e, 'None', 0)) return { k: 'option', t, v: null };
      const s = prim(e, 'Some', 1);
      if (s) return { k: 'option', t, v: parseData(s[0] as Expr, t.args[0] as Ty, ctx) };
      throw bad(t, e);
    }
    case 'list':
      if (!Array.isArray(e)) throw bad(t, e);
      return { k: 'list', t, v: e.map((x) => parseData(x, t.args[0] as Ty, ctx)) };
    case 'set': {
      if (!Array.isArray(e)) throw bad(t, e);
      const v = e.map((x) => parseData(x, t.args[0] as Ty, ctx));
      for (let i = 1; i < v.length; i++) {
        if (compareTyped(v[i - 1] as V, v[i] as V) >= 0)
          throw staticError('unordered_set_literal', 'set literal not strictly sorted');
      }
      return { k: 'set', t, v };
    }
    case 'map':
    case 'big_map': {
      if (p === 'big_map' && !Array.isArray(e) && 'int' in e) {
        if (!ctx.bigMap)
          throw staticError('invalid_big_map', `big map id ${e.int} given but no big map store`);
        return ctx.bigMap(BigInt(e.int), t);
      }
      if (!Array.isArray(e)) throw bad(t, e);
      const entries: [V, V][] = e.map((x) => {
        const kv = prim(x, 'Elt', 2);
        if (!kv) throw bad(t, e);
        return [
          parseData(kv[0] as Expr, t.args[0] as Ty, ctx),
          parseData(kv[1] as Expr, t.args[1] as Ty, ctx),
        ];
      });
      for (let i = 1; i < entries.length; i++) {
        if (compareTyped((entries[i - 1] as [V, V])[0], (entries[i] as [V, V])[0]) >= 0) {
          throw staticError('unordered_map_literal', 'map literal keys not strictly sorted');
        }
      }
      if (p === 'map') return { k: 'map', t, v: entries };
      const diff = new Map<string, { key: V; value: V | null }>();
      for (const [key, value] of entries) diff.set(packKeyHex(key), { key, value });
      return { k: 'big_map', t, id: null, diff };
    }
    case 'address':
      if (!Array.isArray(e) && 'string' in e) return parseAddress(e.string, t);
      if (!Array.isArray(e) && 'bytes' in e) return addressFromBytes(e.bytes, t);
      throw bad(t, e);
    case 'contract': {
      let a: V;
      if (!Array.isArray(e) && 'string' in e) a = parseAddress(e.string, t);
      else if (!Array.isArray(e) && 'bytes' in e) a = addressFromBytes(e.bytes, t);
      else throw bad(t, e);
      const addr = a as Extract<V, { k: 'address' }>;
      const pt = ctx.contractType?.(addr.str, addr.ep || 'default') ?? null;
      if (!pt || !tyEq(pt, t.args[0] as Ty))
        throw staticError('invalid_contract', `no contract ${addr.str} of type ${showTy(t)}`);
      return { k: 'contract', t, hex: addr.hex, str: addr.str, ep: addr.ep };
    }
    case 'key_hash':
    case 'key':
    case 'signature':
    case 'chain_id':
      return parseKeyLike(p, e, t);
    case 'lambda': {
      let code: Expr = e;
      let rec = false;
      const lr = prim(e, 'Lambda_rec', 1);
      if (lr) {
        code = lr[0] as Expr;
        rec = true;
      }
      if (!Array.isArray(code)) throw bad(t, e);
      ctx.checkLambda?.(code, t.args[0] as Ty, t.args[1] as Ty, rec);
      return { k: 'lambda', t, code, rec };
    }
    case 'ticket': {
      if (!ctx.allowTickets) throw staticError('unexpected_ticket', 'ticket literals are not allowed here');
      let parts: Expr[] | null = prim(e, 'Ticket', 4);
      if (parts) {
        if (!isPrim(parts[1] as Expr)) throw bad(t, e);
        parts = [parts[0] as Expr, parts[2] as Expr, parts[3] as Expr];
      } else {
        const pv = parseData(
          e,
          {
            prim: 'pair',
            args: [
              { prim: 'address', args: [] },
              { prim: 'pair', args: [t.args[0] as Ty, { prim: 'nat', args: [] }] },
            ],
          },
          ctx,
        );
        const pp = pv as Extract<V, { k: 'pair' }>;
        const inner = pp.b as Extract<V, { k: 'pair' }>;
        const addr = pp.a as Extract<V, { k: 'address' }>;
        return {
          k: 'ticket',
          t,
          ticketer: addr.str,
          content: inner.a,
          amount: (inner.b as Extract<V, { k: 'num' }>).v,
        };
      }
      const addr = parseData(parts[0] as Expr, { prim: 'address', args: [] }) as Extract<V, { k: 'address' }>;
      const content = parseData(parts[1] as Expr, t.args[0] as Ty, ctx);
      const amount = parseData(parts[2] as Expr, { prim: 'nat', args: [] }) as Extract<V, { k: 'num' }>;
      return { k: 'ticket', t, ticketer: addr.str, content, amount: amount.v };
    }
    case 'bls12_381_g1':
    case 'bls12_381_g2': {
      if (Array.isArray(e) || !('bytes' in e)) throw bad(t, e);
      const hex = e.bytes.toLowerCase();
      if (!(p === 'bls12_381_g1' ? g1Valid(hex) : g2Valid(hex))) throw bad(t, e);
      return { k: 'bls', t, hex };
    }
    case 'bls12_381_fr': {
      if (!Array.isArray(e) && 'int' in e) return { k: 'fr', t, v: mod(BigInt(e.int), FR_ORDER) };
      if (!Array.isArray(e) && 'bytes' in e) {
        if (e.bytes.length > 64) throw bad(t, e);
        const v = frFromLeHex(e.bytes.toLowerCase());
        if (v >= FR_ORDER) throw bad(t, e);
        return { k: 'fr', t, v };
      }
      throw bad(t, e);
    }
    case 'chest':
    case 'chest_key':
      if (Array.isArray(e) || !('bytes' in e)) throw bad(t, e);
      return { k: 'opaque', t, data: e };
    // Octez script_ir_translator.ml parse_data: a state is `{}` (empty) or the id of a stored state (whose
    // memo size must agree); a transaction is the bytes of Sapling.transaction_encoding.
    case 'sapling_state': {
      if (Array.isArray(e) && e.length === 0) return { k: 'sapling_state', t, id: null };
      if (!Array.isArray(e) && 'int' in e) {
        if (!ctx.saplingState)
          throw staticError(
            'unexpected_forged_value',
            `sapling state id ${e.int} given but no sapling store`,
          );
        return ctx.saplingState(BigInt(e.int), t);
      }
      throw staticError(
        'invalid_kind',
        `a sapling_state is an id (int) or {}, got ${JSON.stringify(e).slice(0, 80)}`,
      );
    }
    case 'sapling_transaction':
    case 'sapling_transaction_deprecated': {
      if (Array.isArray(e) || !('bytes' in e)) throw staticError('invalid_kind', `${p} expects bytes`);
      const memo = saplingTransactionMemoSize(e.bytes, p === 'sapling_transaction_deprecated');
      if (memo === undefined)
        throw staticError(
          'invalid_syntactic_constant',
          p === 'sapling_transaction'
            ? 'expected a valid Sapling transaction'
            : 'expected a valid Sapling transaction (deprecated format)',
        );
      if (memo !== null && memo !== t.memo) throw inconsistentMemoSizes(t.memo ?? 0, memo);
      return { k: 'opaque', t, data: { bytes: e.bytes.toLowerCase() } };
    }
    case 'operation':
      throw staticError('invalid_constant', 'operations have no literal form');
    default:
      throw notSupported(p);
  }
}

function parseKeyLike(p: 'key_hash' | 'key' | 'signature' | 'chain_id', e: Expr, t: Ty): V {
  if (!Array.isArray(e) && 'string' in e) {
    const s = e.string;
    if (p === 'signature') {
      const sig = signatureToHex(s);
      if (!signatureValid(sig.hex, sig.scheme)) throw bad(t, e);
      return { k: p, t, hex: sig.hex, str: s };
    }
    const hex = p === 'key_hash' ? keyHashToHex(s) : p === 'key' ? keyToHex(s) : chainIdToHex(s);
    return { k: p, t, hex, str: s };
  }
  if (!Array.isArray(e) && 'bytes' in e) {
    const hex = e.bytes.toLowerCase();
    if (p === 'signature' && !signatureValid(hex, hex.length === 192 ? 'bls' : 'generic')) throw bad(t, e);
    const s =
      p === 'key_hash'
        ? keyHashFromHex(hex)
        : p === 'key'
          ? keyFromHex(hex)
          : p === 'signature'
            ? signatureFromHex(hex)
            : chainIdFromHex(hex);
    return { k: p, t, hex, str: s };
  }
  throw bad(t, e);
}

// ---- unparsing ----------------------------------------------------------------------------------------------

export type UnparseMode = 'Readable' | 'Optimized' | 'Optimized_legacy';

/**
 * The Michelson order on comparable values (COMPARE, map keys, set elements): @michelscope/michelson's one
 * `compareValues`, on the values' Optimized forms (numbers as ints, addresses, keys and chain ids as bytes,
 * so no base58 is decoded here). A non-comparable type is Octez's `comparable_type_expected`.
 */
export function compareTyped(a: V, b: V): number {
  try {
    return compareMicheline(a.t, unparse(a, 'Optimized_legacy'), unparse(b, 'Optimized_legacy'));
  } catch (e) {
    if (e instanceof MichelsonDataError)
      throw staticError('comparable_type_expected', `values of type ${showTy(a.t)} are not comparable`);
    throw e;
  }
}

export function unparse(v: V, mode: UnparseMode = 'Readable'): Expr {
  switch (v.k) {
    case 'num':
      if (v.t.prim === 'timestamp' && mode === 'Readable') {
        const s = timestampToString(v.v);
        if (s !== null) return { string: s };
      }
      return { int: v.v.toString() };
    case 'string':
      return { string: v.v };
    case 'bytes':
      return { bytes: v.v };
    case 'bool':
      return { prim: v.v ? 'True' : 'False' };
    case 'unit':
      return { prim: 'Unit' };
    case 'pair': {
      if (mode === 'Optimized_legacy')
        return { prim: 'Pair', args: [unparse(v.a, mode), unparse(v.b, mode)] };
      // Octez: Readable writes a right comb flat (`Pair a b c d`); Optimized writes combs of four or
      // more as a sequence (`{a; b; c; d}`) and smaller ones as nested pairs.
      const items: V[] = [v.a];
      let cur: V = v.b;
      while (cur.k === 'pair') {
        items.push(cur.a);
        cur = cur.b;
      }
      items.push(cur);
      const parts = items.map((x) => unparse(x, mode));
      if (mode === 'Readable') return { prim: 'Pair', args: parts };
      if (parts.length >= 4) return parts;
      let acc = parts[parts.length - 1] as Expr;
      for (let i = parts.length - 2; i >= 0; i--) acc = { prim: 'Pair', args: [parts[i] as Expr, acc] };
      return acc;
    }
    case 'or':
      return { prim: v.left ? 'Left' : 'Right', args: [unparse(v.v, mode)] };
    case 'option':
      return v.v === null ? { prim: 'None' } : { prim: 'Some', args: [unparse(v.v, mode)] };
    case 'list':
    case 'set':
      return v.v.map((x) => unparse(x, mode));
    case 'map':
      return v.v.map(([k, x]) => ({ prim: 'Elt', args: [unparse(k, mode), unparse(x, mode)] }));
    case 'big_map':
      if (v.id !== null && v.diff.size === 0) return { int: v.id.toString() };
      return [...v.diff.values()]
        .filter((x) => x.value !== null)
        .sort((x, y) => compareTyped(x.key, y.key))
        .map((x) => ({ prim: 'Elt', args: [unparse(x.key, mode), unparse(x.value as V, mode)] }));
    case 'address':
    case 'contract':
      if (mode === 'Readable') return { string: v.ep ? `${v.str}%${v.ep}` : v.str };
      return { bytes: v.hex + Buffer.from(v.ep, 'latin1').toString('hex') };
    case 'key_hash':
    case 'key':
    case 'signature':
    case 'chain_id':
      return mode === 'Readable' ? { string: v.str } : { bytes: v.hex };
    case 'lambda': {
      const code = mode === 'Readable' ? v.code : normalizeCode(v.code);
      return v.rec ? { prim: 'Lambda_rec', args: [code] } : code;
    }
    case 'ticket': {
      // Octez unparses a ticket as the comb (ticketer, contents, amount).
      const tk: Expr = mode === 'Readable' ? { string: v.ticketer } : { bytes: addressToHex(v.ticketer) };
      const amount = { int: v.amount.toString() };
      if (mode === 'Readable') return { prim: 'Pair', args: [tk, unparse(v.content, mode), amount] };
      return { prim: 'Pair', args: [tk, { prim: 'Pair', args: [unparse(v.content, mode), amount] }] };
    }
    case 'bls':
      return { bytes: v.hex };
    case 'fr':
      return { bytes: frToLeHex(v.v) };
    case 'opaque':
      return v.data;
    // Octez script_ir_unparser.ml: a state without changes is its id, or `{}` when it has none yet.
    case 'sapling_state':
      return v.id === null ? [] : { int: v.id.toString() };
    case 'operation':
      return { string: `<operation ${v.op.kind}>` };
  }
}

/**
 * Octez stores lambdas as typed code and unparses them, so PUSHed constants come back in Optimized
 * form (e.g. `{0; -3; False}` becomes `Pair 0 (Pair -3 False)`). Applied to lambdas when packing.
 */
export function normalizeCode(code: Expr): Expr {
  if (Array.isArray(code)) return code.map(normalizeCode);
  if (!isPrim(code) || !code.args) return code;
  if (code.prim === 'PUSH' && code.args.length === 2) {
    try {
      const t = toTy(code.args[0] as Expr);
      const v = parseData(code.args[1] as Expr, t, { checkLambda: () => undefined });
      return { ...code, args: [code.args[0] as Expr, unparse(v, 'Optimized_legacy')] };
    } catch {
      return code;
    }
  }
  return { ...code, args: code.args.map(normalizeCode) };
}

/** Key used for big-map overlays: the hex of the Optimized-legacy unparsed key (stable, unique per key). */
export function packKeyHex(key: V): string {
  return JSON.stringify(unparse(key, 'Optimized_legacy'));
}
export { bytesToHex };
