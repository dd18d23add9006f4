/**
 * Readable rendering of bytes values: PACKed Michelson (unpacked, inline), else UTF-8 text, else hex.
 */
import { unforgeMicheline } from './binary';
import { encodeAddress } from '@taquito/utils';
import { formatMichelsonInline } from './format';
import { hexToBytes } from './hex';
import { isBytes, isPrim } from './micheline-core';
import type { Micheline } from './micheline-core';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes of plain hex (no `0x`), or undefined for anything else. */
function bytesOf(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  return hexToBytes(hex);
}

/** Printable UTF-8 text of bytes (no control characters except tab/newline), or undefined. */
export function bytesToText(hex: string): string | undefined {
  const b = bytesOf(hex);
  if (!b || b.length === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(b);
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return undefined;
  return text;
}

/** Base58 address of 22 bytes that have the shape of a forged address, else undefined. */
export function bytesAsAddress(hex: string): string | undefined {
  if (hex.length !== 44) return undefined;
  const h = hex.toLowerCase();
  const tag = h.slice(0, 2);
  const ok =
    (tag === '00' && /^0[0-3]$/.test(h.slice(2, 4))) ||
    ((tag === '01' || tag === '02' || tag === '03') && h.endsWith('00'));
  if (!ok) return undefined;
  try {
    return encodeAddress(h);
  } catch {
    return undefined;
  }
}

/** Inside unpacked data, 22-byte values that are addresses become base58 strings. */
function readableUnpacked(n: Micheline): Micheline {
  if (Array.isArray(n)) return n.map(readableUnpacked);
  if (isPrim(n)) return n.args ? { ...n, args: n.args.map(readableUnpacked) } : n;
  if (isBytes(n)) {
    const a = bytesAsAddress(n.bytes);
    if (a !== undefined) return { string: a };
  }
  return n;
}

/**
 * Unpacks `05…` bytes into Micheline (addresses made readable), or undefined when not exactly one
 * PACKed value. Uses our own decoder: michel-codec's `unpackData` takes minutes on large PACKed
 * lambdas (24 KB of code: over 60 s; ours: ~40 ms).
 */
export function tryUnpack(hex: string): Micheline | undefined {
  if (!hex.startsWith('05') || hex.length < 4) return undefined;
  try {
    const nodes = unforgeMicheline(hex.slice(2));
    return nodes.length === 1 ? readableUnpacked(nodes[0]!) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How a bytes value is shown (Miguel): PACKed data as inline Michelson (wrapped in a sequence, as
 * the reference prints it), else UTF-8 text, else the hex string.
 */
export function readableBytes(hex: string): string {
  const unpacked = tryUnpack(hex);
  if (unpacked !== undefined) return formatMichelsonInline([unpacked]);
  return bytesToText(hex) ?? hex;
}

/** A FAILWITH value as shown in operation errors: inline Michelson, PACKed bytes unpacked first. */
export function formatFailwithValue(v: Micheline): string {
  if (isBytes(v)) {
    const unpacked = tryUnpack(v.bytes);
    if (unpacked !== undefined) return formatMichelsonInline(unpacked);
  }
  return formatMichelsonInline(v);
}
