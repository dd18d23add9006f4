/**
 * The operation forger of the sandbox: @taquito/local-forging for the operation envelope, with its codecs of
 * integers and Micheline replaced by the repository's binary codec (@michelscope/michelson).
 *
 * Why: local-forging converts every zarith integer with bignumber.js, 7 bits at a time, which is quadratic in
 * the number of digits: one 16,000-digit int in a transaction takes ~8.5 s to parse and ~19 s to forge, and
 * an operation may hold ~77,000 digits within Octez's 32 KB limit, so one injected operation froze the chain
 * thread (baking, every sandbox RPC) for minutes. The michelson package's codec is linear (through the
 * magnitude's hex digits) and strict like Octez (canonical integers, exact lengths, bounded nesting); it also
 * encodes primitives with more than two arguments correctly, which local-forging does not.
 *
 * local-forging builds its operation codecs over its exported `encoders` / `decoders` tables and looks a
 * field's codec up in them at each use, so replacing the entries for ZARITH, VALUE, PARAMETERS and SCRIPT
 * changes how every LocalForger of the process encodes those fields and nothing else. `installed` makes the
 * replacement happen once, when this module is first imported.
 */
import {
  bytesToHex,
  decodeMicheline,
  encodeMicheline,
  forgeInt,
  NAMED_ENTRYPOINTS,
  zarithValue,
} from '@michelscope/michelson';
import type { Micheline } from '@michelscope/michelson';
import { CODEC, decoders, encoders, LocalForger } from '@taquito/local-forging';

/** What local-forging's decoders read from: the part of `arr` from `offset` on. */
interface Consumer {
  consume(count: number): Uint8Array;
  length(): number;
  get(idx: number): number;
}

type Encoder = (value: never) => string;
type Decoder = (value: Consumer) => unknown;

/** Longest entrypoint name Octez accepts. */
const ENTRYPOINT_MAX_LENGTH = 31;

const u32 = (n: number): string => n.toString(16).padStart(8, '0');

function take(c: Consumer, n: number, what: string): Uint8Array {
  if (n > c.length()) throw new Error(`${what}: length beyond the end of the operation`);
  return c.consume(n);
}

function lengthPrefixed(c: Consumer, what: string): Uint8Array {
  const len = take(c, 4, what).reduce((n, b) => n * 256 + b, 0);
  return take(c, len, what);
}

/** A 4-byte-length-prefixed binary Micheline node. */
function expr(e: Micheline): string {
  const bytes = encodeMicheline(e);
  return u32(bytes.length) + bytesToHex(bytes);
}

function readExpr(c: Consumer, what: string): Micheline {
  return decodeMicheline(lengthPrefixed(c, what));
}

function readZarith(c: Consumer): string {
  let n = 0;
  while (n < c.length() && (c.get(n) & 0x80) !== 0) n++;
  if (n >= c.length()) throw new Error('integer: unexpected end of the operation');
  return zarithValue(c.consume(n + 1), false);
}

function forgeEntrypoint(name: string): string {
  const code = NAMED_ENTRYPOINTS.indexOf(name);
  if (code >= 0) return code.toString(16).padStart(2, '0');
  const bytes = Buffer.from(name, 'utf8');
  if (name.length > ENTRYPOINT_MAX_LENGTH || bytes.length > 255)
    throw new Error(`entrypoint name longer than ${ENTRYPOINT_MAX_LENGTH} characters: ${name.slice(0, 40)}`);
  return `ff${bytes.length.toString(16).padStart(2, '0')}${bytes.toString('hex')}`;
}

function readEntrypoint(c: Consumer): string {
  const code = take(c, 1, 'entrypoint')[0]!;
  if (code !== 0xff) {
    const name = NAMED_ENTRYPOINTS[code];
    if (name === undefined) throw new Error(`unknown entrypoint tag ${code}`);
    return name;
  }
  const len = take(c, 1, 'entrypoint')[0]!;
  const name = Buffer.from(take(c, len, 'entrypoint')).toString('utf8');
  if (name.length > ENTRYPOINT_MAX_LENGTH)
    throw new Error(`entrypoint name longer than ${ENTRYPOINT_MAX_LENGTH}`);
  return name;
}

interface TxParameters {
  entrypoint: string;
  value: Micheline;
}

const isBareUnit = (v: Micheline): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'prim' in v && v.prim === 'Unit';

const linearEncoders: Record<string, Encoder> = {
  [CODEC.ZARITH]: (n: string | number) => forgeInt(String(n), false),
  [CODEC.VALUE]: (v: Micheline) => expr(v),
  [CODEC.SCRIPT]: (s: { code: Micheline; storage: Micheline }) => expr(s.code) + expr(s.storage),
  [CODEC.PARAMETERS]: (p: TxParameters | undefined) =>
    !p || (p.entrypoint === 'default' && isBareUnit(p.value))
      ? '00'
      : `ff${forgeEntrypoint(p.entrypoint)}${expr(p.value)}`,
};

const linearDecoders: Record<string, Decoder> = {
  [CODEC.ZARITH]: readZarith,
  [CODEC.VALUE]: (c) => readExpr(c, 'value'),
  [CODEC.SCRIPT]: (c) => ({ code: readExpr(c, 'script code'), storage: readExpr(c, 'script storage') }),
  [CODEC.PARAMETERS]: (c) => {
    const tag = take(c, 1, 'parameters')[0];
    if (tag === 0x00) return undefined;
    if (tag !== 0xff) throw new Error(`invalid parameters tag ${tag}`);
    const entrypoint = readEntrypoint(c);
    return { entrypoint, value: readExpr(c, 'parameters') };
  },
};

function install(): true {
  Object.assign(encoders as Record<string, Encoder>, linearEncoders);
  Object.assign(decoders as Record<string, Decoder>, linearDecoders);
  return true;
}

/** True once local-forging's tables hold the linear codecs (when this module has been imported). */
export const installed = install();

/** An operation as local-forging reads and writes it: a branch and its contents. */
export interface ForgeableOperation {
  branch: string;
  contents: Array<Record<string, unknown>>;
}

const forger = new LocalForger();

/** Forged bytes (hex, unsigned) of an operation. */
export function forgeOperation(op: ForgeableOperation): Promise<string> {
  // Taquito types each operation kind's fields; the sandbox checks kinds and fields itself (decode.ts,
  // validate), and local-forging refuses a missing or malformed field with its own error.
  return forger.forge(op as unknown as Parameters<LocalForger['forge']>[0]);
}

/** The operation of forged bytes (hex, unsigned). */
export async function parseOperation(bytes: string): Promise<ForgeableOperation> {
  return (await forger.parse(bytes)) as unknown as ForgeableOperation;
}
