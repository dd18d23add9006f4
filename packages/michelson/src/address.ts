/**
 * The product's one validator of addresses and hashes: which kinds it takes, their shapes (the API's route
 * checks) and the whole check, prefix, payload length and base58check checksum, by @taquito/utils (the API's
 * address requests to the indexer). The web keeps a copy of the shapes, tested against these functions. The
 * whole text must be the address (no `%entrypoint`, no spaces).
 */
import {
  b58DecodeAndCheckPrefix,
  PrefixV2,
  validateAddress,
  validateContractAddress,
  validateOperation,
  ValidationResult,
} from '@taquito/utils';

/**
 * The address kinds the product accepts: implicit accounts (tz1–tz4), originated contracts (KT1), smart
 * rollups (sr1) and the former transaction rollups (txr1, still taken by the API's routes; @taquito/utils'
 * `validateAddress` no longer takes them, so they are checked by their prefix).
 */
export const ADDRESS_PREFIXES = ['tz1', 'tz2', 'tz3', 'tz4', 'KT1', 'txr1', 'sr1'] as const;
export type AddressPrefix = (typeof ADDRESS_PREFIXES)[number];

const B58 = '[1-9A-HJ-NP-Za-km-z]';
/**
 * The shapes of the same kinds (prefix, base58 alphabet, length; no checksum), for checks that must stay
 * cheap or that route made-up test data: the API's route parameters and the web's links (whose own copy is
 * tested against these functions). Everything the functions below accept, these match.
 */
export const ADDRESS_PATTERN = new RegExp(`^(?:${ADDRESS_PREFIXES.join('|')})${B58}{33}$`);
export const CONTRACT_PATTERN = new RegExp(`^KT1${B58}{33}$`);
export const SMART_ROLLUP_PATTERN = new RegExp(`^sr1${B58}{33}$`);
export const OPERATION_HASH_PATTERN = new RegExp(`^o${B58}{50}$`);
export const SCRIPT_EXPR_PATTERN = new RegExp(`^expr${B58}{50}$`);

/** Base58 checks of untrusted text: bounded, and never throwing. */
const MAX_TEXT = 64;
const plain = (v: unknown): v is string =>
  typeof v === 'string' && v.length <= MAX_TEXT && !/[^1-9A-Za-z]/.test(v);

function hasPrefix(value: string, prefix: PrefixV2): boolean {
  try {
    b58DecodeAndCheckPrefix(value, [prefix]);
    return true;
  } catch {
    return false;
  }
}

/** An address of one of the accepted kinds (`ADDRESS_PREFIXES`), checksum included. */
export function isAddress(value: unknown): value is string {
  if (!plain(value)) return false;
  if (value.startsWith('txr1')) return hasPrefix(value, PrefixV2.TXRollupAddress);
  return (
    ADDRESS_PREFIXES.some((p) => value.startsWith(p)) && validateAddress(value) === ValidationResult.VALID
  );
}

/** An implicit account (tz1–tz4). */
export function isImplicitAddress(value: unknown): value is string {
  return isAddress(value) && /^tz[1-4]/.test(value);
}

/** An originated contract (KT1). */
export function isContractAddress(value: unknown): value is string {
  return plain(value) && value.startsWith('KT1') && validateContractAddress(value) === ValidationResult.VALID;
}

/** A smart rollup (sr1). */
export function isSmartRollupAddress(value: unknown): value is string {
  return plain(value) && value.startsWith('sr1') && hasPrefix(value, PrefixV2.SmartRollupHash);
}

/** An operation (group) hash (o…, 51 characters). */
export function isOperationHash(value: unknown): value is string {
  return plain(value) && value.startsWith('o') && validateOperation(value) === ValidationResult.VALID;
}

/** A script expression hash (expr…: big map key hashes, global constants). */
export function isScriptExprHash(value: unknown): value is string {
  return plain(value) && value.startsWith('expr') && hasPrefix(value, PrefixV2.ScriptExpr);
}
