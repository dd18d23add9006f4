/**
 * Shape checks for chain identifiers that appear in URLs and search boxes.
 * They check the textual pattern only (prefix + base58 alphabet + length), not the checksum.
 */

/** The base58 alphabet used by Tezos (no 0, O, I, l). */
export const BASE58_CHARS = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const B58 = `[${BASE58_CHARS}]`;

const ADDRESS_RE = new RegExp(`^(?:KT|tz|sr)${B58}{34}$`);
const CONTRACT_RE = new RegExp(`^KT${B58}{34}$`);
const OPERATION_HASH_RE = new RegExp(`^o${B58}{50}$`);
const UNSIGNED_INT_RE = /^[0-9]{1,16}$/;

/** An account, contract or smart-rollup address: KT, tz or sr followed by 34 base58 characters. */
export function isAddress(value: string): boolean {
  return ADDRESS_RE.test(value);
}

/** A smart-contract (originated) address: KT followed by 34 base58 characters. */
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
