/**
 * Octez's `normalize_data` (src/proto_024_PtTALLiN/lib_plugin/RPC.ml, module Normalize_data): a value
 * re-printed along its type in an unparsing mode, as parsing then unparsing it would, except that it never
 * fails — what does not match its type (or cannot be decoded) is left as it is — and needs no context (big-map
 * ids and contracts are not looked up).
 *
 * - Readable: addresses, keys, key hashes, signatures and chain ids in base58, timestamps in RFC 3339, right
 *   combs as one flat `Pair a b c …`, tickets as `Pair ticketer contents amount`;
 * - Optimized: those scalars as bytes (timestamps as ints), combs of 4 or more as sequences `{ a ; b ; c ; d }`,
 *   of 3 as `Pair a (Pair b c)`;
 * - Optimized_legacy: as Optimized, but every comb as nested binary pairs.
 *
 * Values in lambdas: the data of each `PUSH ty data` whose type is packable.
 *
 * Over ~400 lines because it is one self-contained port of Octez's normalize_data: its type reader, its scalar
 * codecs (base58 kinds, timestamps) and its recursive walk (one switch over the type) serve nothing else.
 */
import { b58DecodeAndCheckPrefix, b58Encode, PrefixV2 } from '@taquito/utils';
import { bytesToHex } from './hex';
import { isInt, isPrim, isString, MichelsonDataError } from './micheline-core';
import type { Micheline, MichelinePrim } from './micheline-core';

export type UnparsingMode = 'Readable' | 'Optimized' | 'Optimized_legacy';

const words = (s: string): string[] => s.split(' ');

/** A type as Octez's parser sees it: combs binarised, annotations dropped. */
interface Ty {
  prim: string;
  args: Ty[];
}

/** Type constructors and their arities (`pair` apart: 2 or more). */
const ARITY: Record<string, number> = Object.fromEntries([
  ...words(
    'unit int nat string bytes bool mutez timestamp address key_hash key signature chain_id operation never ' +
      'bls12_381_fr bls12_381_g1 bls12_381_g2 chest chest_key tx_rollup_l2_address',
  ).map((p) => [p, 0]),
  ...words(
    'sapling_state sapling_transaction sapling_transaction_deprecated option list set contract ticket',
  ).map((p) => [p, 1]),
  ...words('or map big_map lambda').map((p) => [p, 2]),
]);
const SAPLING = new Set(words('sapling_state sapling_transaction sapling_transaction_deprecated'));

/** The type of a Micheline type expression; throws MichelsonDataError when it is not one. */
function toTy(e: Micheline, depth = 0): Ty {
  if (depth > 2000) throw new MichelsonDataError('type nested too deeply');
  if (!isPrim(e)) throw new MichelsonDataError('a type must be a primitive application');
  const args = e.args ?? [];
  if (e.prim === 'pair') {
    if (args.length < 2) throw new MichelsonDataError('pair takes at least 2 arguments');
    const tys = args.map((a) => toTy(a, depth + 1));
    return tys.reduceRight((r, l) => ({ prim: 'pair', args: [l, r] }));
  }
  const n = ARITY[e.prim];
  if (n === undefined || args.length !== n) throw new MichelsonDataError(`not a type: ${e.prim}`);
  if (SAPLING.has(e.prim)) {
    if (!isInt(args[0])) throw new MichelsonDataError('a memo size is an int');
    return { prim: e.prim, args: [] };
  }
  return { prim: e.prim, args: args.map((a) => toTy(a, depth + 1)) };
}

const COMPARABLE = new Set(
  words('unit never bool int nat string bytes mutez key_hash key signature timestamp address chain_id'),
);
const comparable = (t: Ty): boolean =>
  COMPARABLE.has(t.prim) || (['option', 'or', 'pair'].includes(t.prim) && t.args.every(comparable));

/** Octez's parse_packable_ty ~legacy:true: no big_map, sapling_state, operation nor ticket outside lambdas. */
function packable(t: Ty): boolean {
  if (t.prim === 'lambda') return true;
  if (['big_map', 'sapling_state', 'operation', 'ticket'].includes(t.prim)) return false;
  if ((t.prim === 'set' || t.prim === 'map') && !comparable(t.args[0]!)) return false;
  return t.args.every(packable);
}

// ---- scalars -----------------------------------------------------------------------------------------------

/** Ptime's range (years 0000 to 9999), where Octez prints a timestamp in RFC 3339. */
const MIN_NOTATION = -62167219200n;
const MAX_NOTATION = 253402300799n;

function toNotation(sec: bigint): string | undefined {
  if (sec < MIN_NOTATION || sec > MAX_NOTATION) return undefined;
  return new Date(Number(sec) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Script_timestamp.of_string: RFC 3339 (Ptime, lenient), else an integer (Zarith). */
function timestampOf(s: string): bigint | undefined {
  const m = /^(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:\.\d+)?([Zz]|[+-]\d\d:\d\d)$/.exec(s);
  if (m) {
    const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    if (h > 23 || mi > 59 || se > 60) return undefined;
    const date = new Date(0);
    date.setUTCFullYear(y, mo - 1, d);
    if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d)
      return undefined;
    date.setUTCHours(h, mi, Math.min(se, 59), 0);
    let sec = BigInt(Math.floor(date.getTime() / 1000));
    const tz = m[7]!;
    if (tz.length === 6) {
      const off = BigInt((Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6))) * 60);
      sec -= tz.startsWith('+') ? off : -off;
    }
    return sec;
  }
  if (/^[+-]?\d+$/.test(s)) return BigInt(s);
  if (/^-?0[xX][0-9a-fA-F]+$/.test(s)) return s.startsWith('-') ? -BigInt(s.slice(1)) : BigInt(s);
  return undefined;
}

function normalizeTimestamp(mode: UnparsingMode, e: Micheline): Micheline {
  if (isInt(e)) {
    if (mode !== 'Readable') return e;
    const s = toNotation(BigInt(e.int));
    return s === undefined ? e : { string: s };
  }
  if (!isString(e)) return e;
  const sec = timestampOf(e.string);
  if (sec === undefined) return e;
  if (mode !== 'Readable') return { int: sec.toString() };
  const s = toNotation(sec);
  return s === undefined ? e : { string: s };
}

interface Base58Codec {
  /** The binary form (hex) of a base58 string, or undefined. */
  toHex(s: string): string | undefined;
  /** The base58 string of a binary form (hex), or undefined when the bytes are not exactly one. */
  fromHex(hex: string): string | undefined;
}

function decodeB58(s: string, prefixes: readonly PrefixV2[]): [Uint8Array, PrefixV2] | undefined {
  try {
    return b58DecodeAndCheckPrefix(s, prefixes);
  } catch {
    return undefined;
  }
}

/** Tagged base58 values: a tag byte (the prefix's index) and a payload of the given length. */
function tagged(prefixes: readonly PrefixV2[], lengths: readonly number[]): Base58Codec {
  return {
    toHex: (s) => {
      const d = decodeB58(s, prefixes);
      return d ? prefixes.indexOf(d[1]).toString(16).padStart(2, '0') + bytesToHex(d[0]) : undefined;
    },
    fromHex: (hex) => {
      const tag = parseInt(hex.slice(0, 2), 16);
      const p = prefixes[tag];
      return p !== undefined && hex.length === 2 + 2 * lengths[tag]! ? b58Encode(hex.slice(2), p) : undefined;
    },
  };
}

const PKH = [
  PrefixV2.Ed25519PublicKeyHash,
  PrefixV2.Secp256k1PublicKeyHash,
  PrefixV2.P256PublicKeyHash,
  PrefixV2.BLS12_381PublicKeyHash,
] as const;
const KEY_HASH = tagged(PKH, [20, 20, 20, 20]);
const KEY = tagged(
  [
    PrefixV2.Ed25519PublicKey,
    PrefixV2.Secp256k1PublicKey,
    PrefixV2.P256PublicKey,
    PrefixV2.BLS12_381PublicKey,
  ],
  [32, 33, 33, 48],
);
const SIGNATURE_PREFIXES = [
  PrefixV2.Ed25519Signature,
  PrefixV2.Secp256k1Signature,
  PrefixV2.P256Signature,
  PrefixV2.GenericSignature,
  PrefixV2.BLS12_381Signature,
] as const;
const SIGNATURE: Base58Codec = {
  toHex: (s) => {
    const d = decodeB58(s, SIGNATURE_PREFIXES);
    return d ? bytesToHex(d[0]) : undefined;
  },
  // Signature.of_bytes: 64 bytes are a generic `sig…`, 96 a `BLsig…`
  fromHex: (hex) =>
    hex.length === 128
      ? b58Encode(hex, PrefixV2.GenericSignature)
      : hex.length === 192
        ? b58Encode(hex, PrefixV2.BLS12_381Signature)
        : undefined,
};
const CHAIN_ID: Base58Codec = {
  toHex: (s) => {
    const d = decodeB58(s, [PrefixV2.ChainID]);
    return d ? bytesToHex(d[0]) : undefined;
  },
  fromHex: (hex) => (hex.length === 8 ? b58Encode(hex, PrefixV2.ChainID) : undefined),
};

/** Destination_repr's binary tags after the implicit one (0): KT1, then sr1 and epx1 (2 is reserved). */
const HASHED: Record<string, PrefixV2> = {
  '01': PrefixV2.ContractHash,
  '03': PrefixV2.SmartRollupHash,
  '04': PrefixV2.ZkRollupHash,
};

/** Entrypoint_repr.of_string_strict: "" is the default entrypoint, "default" and names over 31 bytes fail. */
function strictEntrypoint(name: string): string | undefined {
  if (name === 'default' || new TextEncoder().encode(name).length > 31) return undefined;
  return name;
}

/** An address (destination and entrypoint, `Destination.encoding` then the entrypoint's bytes). */
const ADDRESS: Base58Codec = {
  toHex: (s) => {
    const i = s.indexOf('%');
    const [dest, name] = i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
    const ep = strictEntrypoint(name);
    if (ep === undefined) return undefined;
    let hex: string | undefined;
    const pkh = KEY_HASH.toHex(dest);
    if (pkh) hex = '00' + pkh;
    else
      for (const [tag, p] of Object.entries(HASHED)) {
        const d = dest.startsWith(p) ? decodeB58(dest, [p]) : undefined;
        if (d) hex = tag + bytesToHex(d[0]) + '00';
      }
    return hex && hex + bytesToHex(new TextEncoder().encode(ep));
  },
  fromHex: (hex) => {
    if (hex.length < 44 || hex.length % 2 !== 0) return undefined;
    const tag = hex.slice(0, 2);
    let dest: string | undefined;
    if (tag === '00') dest = KEY_HASH.fromHex(hex.slice(2, 44));
    else if (HASHED[tag] && hex.slice(42, 44) === '00') dest = b58Encode(hex.slice(2, 42), HASHED[tag]);
    if (dest === undefined) return undefined;
    const rest = hex.slice(44);
    let name: string;
    try {
      name = new TextDecoder('utf-8', { fatal: true }).decode(
        Uint8Array.from(rest.match(/../g) ?? [], (b) => parseInt(b, 16)),
      );
    } catch {
      return undefined;
    }
    const ep = strictEntrypoint(name);
    if (ep === undefined) return undefined;
    return ep === '' ? dest : `${dest}%${ep}`;
  },
};

function normalizeBase58(codec: Base58Codec, mode: UnparsingMode, e: Micheline): Micheline {
  if (mode === 'Readable' && !Array.isArray(e) && 'bytes' in e && typeof e.bytes === 'string') {
    if (!/^[0-9a-fA-F]*$/.test(e.bytes)) return e;
    const s = codec.fromHex(e.bytes.toLowerCase());
    return s === undefined ? e : { string: s };
  }
  if (mode !== 'Readable' && isString(e)) {
    const hex = codec.toHex(e.string);
    return hex === undefined ? e : { bytes: hex };
  }
  return e;
}

const SCALARS: Record<string, Base58Codec> = {
  address: ADDRESS,
  contract: ADDRESS,
  key_hash: KEY_HASH,
  key: KEY,
  signature: SIGNATURE,
  chain_id: CHAIN_ID,
};

// ---- structures ----------------------------------------------------------------------------------------------

const bare = (e: Micheline, prim: string): e is MichelinePrim =>
  isPrim(e) && e.prim === prim && (e.annots ?? []).length === 0;
const pair = (args: Micheline[]): Micheline => (args.length > 0 ? { prim: 'Pair', args } : { prim: 'Pair' });

class Normalizer {
  constructor(private readonly mode: UnparsingMode) {}

  data(t: Ty, e: Micheline, depth: number): Micheline {
    if (depth > 10_000) throw new MichelsonDataError('value nested too deeply');
    const d = depth + 1;
    switch (t.prim) {
      case 'timestamp':
        return normalizeTimestamp(this.mode, e);
      case 'pair':
        return this.pair(t, e, d);
      case 'or':
        if (isPrim(e) && (e.prim === 'Left' || e.prim === 'Right') && e.args?.length === 1)
          return { ...e, args: [this.data(t.args[e.prim === 'Left' ? 0 : 1]!, e.args[0]!, d)] };
        return e;
      case 'option':
        if (isPrim(e) && e.prim === 'Some' && e.args?.length === 1)
          return { ...e, args: [this.data(t.args[0]!, e.args[0]!, d)] };
        return e;
      case 'list':
      case 'set':
        return Array.isArray(e) ? e.map((x) => this.data(t.args[0]!, x, d)) : e;
      case 'map':
        return this.map(t.args[0]!, t.args[1]!, e, d);
      case 'big_map':
        if (Array.isArray(e)) return this.map(t.args[0]!, t.args[1]!, e, d);
        if (isPrim(e) && e.prim === 'Pair' && e.args?.length === 2) {
          const values: Ty = { prim: 'option', args: [t.args[1]!] };
          return { ...e, args: [e.args[0]!, this.map(t.args[0]!, values, e.args[1]!, d)] };
        }
        return e;
      case 'ticket':
        return this.ticket(t.args[0]!, e, d);
      case 'lambda':
        return this.code(e, d);
      default: {
        const codec = SCALARS[t.prim];
        return codec ? normalizeBase58(codec, this.mode, e) : e;
      }
    }
  }

  private map(kt: Ty, vt: Ty, e: Micheline, d: number): Micheline {
    if (!Array.isArray(e)) return e;
    return e.map((x) =>
      isPrim(x) && x.prim === 'Elt' && x.args?.length === 2
        ? { ...x, args: [this.data(kt, x.args[0]!, d), this.data(vt, x.args[1]!, d)] }
        : x,
    );
  }

  private ticket(ct: Ty, e: Micheline, d: number): Micheline {
    let parts: [Micheline, Micheline, Micheline] | undefined;
    if (bare(e, 'Ticket') && e.args?.length === 4) parts = [e.args[0]!, e.args[2]!, e.args[3]!];
    else if (bare(e, 'Pair') && e.args?.length === 3) parts = [e.args[0]!, e.args[1]!, e.args[2]!];
    else if (
      bare(e, 'Pair') &&
      e.args?.length === 2 &&
      bare(e.args[1]!, 'Pair') &&
      e.args[1].args?.length === 2
    )
      parts = [e.args[0]!, e.args[1].args[0]!, e.args[1].args[1]!];
    else if (Array.isArray(e) && e.length === 3) parts = [e[0]!, e[1]!, e[2]!];
    if (!parts) return e;
    const ticketer = normalizeBase58(ADDRESS, this.mode, parts[0]);
    const contents = this.data(ct, parts[1], d);
    return this.mode === 'Readable'
      ? pair([ticketer, contents, parts[2]])
      : pair([ticketer, pair([contents, parts[2]])]);
  }

  /** Octez's normalize_pair, `rt` being the type of the right part. */
  private pair(t: Ty, e: Micheline, d: number): Micheline {
    let parts: [Micheline, Micheline] | undefined;
    if (bare(e, 'Pair') && (e.args ?? []).length >= 1) {
      const [l, ...r] = e.args!;
      parts = [l!, r.length === 1 ? r[0]! : pair(r)];
    } else if (Array.isArray(e) && e.length >= 1) {
      const [l, ...r] = e;
      parts = [l!, r.length === 1 ? r[0]! : r];
    }
    if (!parts) return e;
    const [lt, rt] = [t.args[0]!, t.args[1]!];
    const l = this.data(lt, parts[0], d);
    const r = this.data(rt, parts[1], d);
    const rightPair = rt.prim === 'pair';
    if (this.mode === 'Readable' && rightPair && bare(r, 'Pair')) return pair([l, ...(r.args ?? [])]);
    if (this.mode === 'Optimized') {
      const rr = rt.args[1];
      if (Array.isArray(r) && rightPair && rr?.prim === 'pair' && rr.args[1]!.prim === 'pair')
        return [l, ...r];
      if (rightPair && bare(r, 'Pair') && r.args?.length === 2) {
        const [b, c] = r.args as [Micheline, Micheline];
        if (rr?.prim === 'pair' && bare(c, 'Pair') && c.args?.length === 2) return [l, b, ...c.args];
        return pair([l, pair([b, c])]);
      }
    }
    return pair([l, r]);
  }

  /** Octez's normalize_code: the data of `PUSH ty data` when ty is a packable type. */
  private code(e: Micheline, d: number): Micheline {
    if (d > 10_000) throw new MichelsonDataError('code nested too deeply');
    if (Array.isArray(e)) return e.map((x) => this.code(x, d + 1));
    if (!isPrim(e)) return e;
    if (e.prim === 'PUSH' && e.args?.length === 2) {
      let ty: Ty | undefined;
      try {
        ty = toTy(e.args[0]!);
      } catch {
        ty = undefined;
      }
      if (!ty || !packable(ty)) return e;
      return { ...e, args: [e.args[0]!, this.data(ty, e.args[1]!, d + 1)] };
    }
    return e.args ? { ...e, args: e.args.map((x) => this.code(x, d + 1)) } : e;
  }
}

/**
 * `data` of `type` normalised in `mode` as Octez's normalize_data RPC does (see the module doc): never fails on
 * ill-typed data. Throws MichelsonDataError only when `type` is not a type.
 */
export function normalizeData(type: Micheline, data: Micheline, mode: UnparsingMode): Micheline {
  return new Normalizer(mode).data(toTy(type), data, 0);
}
