/**
 * Shape checks for chain identifiers that appear in URLs and search boxes.
 * They check the textual pattern only (prefix + base58 alphabet + length), not the checksum: the product's
 * validator (@michelscope/michelson `isAddress`, built on @taquito/utils, which the API checks requests with)
 * would bring @taquito/utils into the first page's bundle. patterns.test.ts checks that both agree but for
 * checksums.
 */

/** The base58 alphabet used by Tezos (no 0, O, I, l). */
export const BASE58_CHARS = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const B58 = `[${BASE58_CHARS}]`;

/** The address kinds of the product, as @michelscope/michelson's `ADDRESS_PREFIXES`. */
export const ADDRESS_PREFIXES = ['tz1', 'tz2', 'tz3', 'tz4', 'KT1', 'txr1', 'sr1'] as const;

/** Each prefix with its 20-byte hash and checksum: 33 base58 characters. */
const ADDRESS_RE = new RegExp(`^(?:${ADDRESS_PREFIXES.join('|')})${B58}{33}$`);
const CONTRACT_RE = new RegExp(`^KT1${B58}{33}$`);
const OPERATION_HASH_RE = new RegExp(`^o${B58}{50}$`);
const UNSIGNED_INT_RE = /^[0-9]{1,16}$/;

/** An address of one of the product's kinds (tz1–tz4, KT1, txr1, sr1), by its shape. */
export function isAddress(value: string): boolean {
  return ADDRESS_RE.test(value);
}

/** A smart-contract (originated) address: KT1 followed by 33 base58 characters. */
export function isContractAddress(value: string): boolean {
  return CONTRACT_RE.test(value);
}

/** An operation-group hash: the letter o followed by 50 base58 characters. */
export function isOperationHash(value: string): boolean {
  return OPERATION_HASH_RE.test(value);
}

/** A non-negative decimal integer id of at most 16 digits (big map pointers). */
export function isUnsignedId(value: string): boolean {
  return UNSIGNED_INT_RE.test(value);
}
