/**
 * Text validators of chain values, in three families:
 * - value validators (bcdhub `ast` validators): a value typed in a form or given to a typed node, either in
 *   its readable base58 form or as hex bytes without `0x` (`validateValueText`);
 * - literals (`IsContract` / `IsAddress` / `IsBakerHash`): a whole string is such a base58 literal;
 * - request-parameter validators of the API (bcd-api §1.3, `API_VALIDATORS`).
 * Base58 forms are checked with their checksum and payload length, which the reference only checks by shape.
 */
import { decodeBase58Raw, isBase58With } from './base58';

const HEX = /^[0-9a-fA-F]*$/;
/** Input from the chain or a request may be anything: every check starts here. */
const isText = (v: unknown): v is string => typeof v === 'string' && v.length <= 4096;
const isHex = (v: string, lengths?: readonly number[]): boolean =>
  isText(v) && HEX.test(v) && v.length % 2 === 0 && (lengths === undefined || lengths.includes(v.length));

/** Entrypoint name rule of Tezos (at most 31 characters of `[A-Za-z0-9_.%@]`). */
export function isEntrypointName(s: string): boolean {
  if (!isText(s)) return false;
  return /^[A-Za-z0-9_.%@]{1,31}$/.test(s);
}

function hexText(h: string): string | undefined {
  if (!isHex(h) || h.length === 0) return undefined;
  let s = '';
  for (let i = 0; i < h.length; i += 2) s += String.fromCharCode(parseInt(h.slice(i, i + 2), 16));
  return s;
}

const ADDRESS_PREFIXES = ['tz1', 'tz2', 'tz3', 'tz4', 'KT1', 'sr1'];

/** `address` value: base58 (tz1–tz4, KT1, sr1; 36 characters) or its forged bytes (21 or 22 bytes, hex). */
export function isAddressValue(v: string): boolean {
  if (!isText(v)) return false;
  if (v.length === 42 || v.length === 44) return isHex(v);
  return v.length === 36 && isBase58With(v, ADDRESS_PREFIXES);
}

/**
 * `contract` value: an address, optionally followed by `%entrypoint`; the entrypoint is a name or the hex
 * of a name (the reference accepts `KT1…%726563…` whose part after `%` is hex of `receive_bunny_balance`).
 */
export function isContractValue(v: string): boolean {
  if (!isText(v)) return false;
  const at = v.indexOf('%');
  if (at < 0) return isAddressValue(v);
  const ep = v.slice(at + 1);
  const name = isEntrypointName(ep) ? ep : hexText(ep);
  return isAddressValue(v.slice(0, at)) && name !== undefined && isEntrypointName(name);
}

/** Baker hash (`SG1…`, 36 characters) or its 20 bytes as hex. */
export function isBakerHashValue(v: string): boolean {
  if (!isText(v)) return false;
  if (v.length === 40) return isHex(v);
  return v.length === 36 && isBase58With(v, ['SG1']);
}

/**
 * `key` value: base58 `edpk`/`sppk`/`p2pk` (54–55 characters) or `BLpk` (76), or forged bytes as hex
 * (33 or 34 bytes; 49 for BLS). BLS keys are our addition (the reference predates tz4).
 */
export function isPublicKeyValue(v: string): boolean {
  if (!isText(v)) return false;
  if (v.length === 66 || v.length === 68 || v.length === 98) return isHex(v);
  return isBase58With(v, ['edpk', 'sppk', 'p2pk', 'BLpk']);
}

/** `bytes` value: hex without `0x`, even length (empty allowed). */
export function isBytesValue(v: string): boolean {
  if (!isText(v)) return false;
  return isHex(v);
}

/** `chain_id` value: `Net…` (15 characters) or its 4 bytes as hex. */
export function isChainIdValue(v: string): boolean {
  if (!isText(v)) return false;
  if (v.length === 8) return isHex(v);
  return v.length === 15 && isBase58With(v, ['Net']);
}

/** `signature` value: base58 `sig`/`edsig`/`spsig1`/`p2sig`/`BLsig` or 64 bytes as hex. */
export function isSignatureValue(v: string): boolean {
  if (!isText(v)) return false;
  if (v.length === 128) return isHex(v);
  return isBase58With(v, ['sig', 'edsig', 'spsig1', 'p2sig', 'BLsig']);
}

export type ValueTextKind =
  'address' | 'contract' | 'baker_hash' | 'key' | 'bytes' | 'chain_id' | 'signature';

const VALUE_CHECKS: Record<ValueTextKind, (v: string) => boolean> = {
  address: isAddressValue,
  contract: isContractValue,
  baker_hash: isBakerHashValue,
  key: isPublicKeyValue,
  bytes: isBytesValue,
  chain_id: isChainIdValue,
  signature: isSignatureValue,
};

/** Error text for an invalid value of that kind, or undefined when it is valid. Untrusted input is fine. */
export function validateValueText(kind: ValueTextKind, value: unknown): string | undefined {
  if (typeof value !== 'string') return `invalid ${kind.replace('_', ' ')}: not a string`;
  return VALUE_CHECKS[kind](value) ? undefined : `invalid ${kind.replace('_', ' ')} '${value.slice(0, 120)}'`;
}

/** `IsContract`: the whole string is a KT1 address. */
export function isContractLiteral(s: string): boolean {
  if (!isText(s)) return false;
  return typeof s === 'string' && s.length === 36 && isBase58With(s, ['KT1']);
}

/** `IsAddress`: the whole string is an address (tz1–tz4, KT1, txr1, sr1). */
export function isAddressLiteral(s: string): boolean {
  if (!isText(s)) return false;
  return typeof s === 'string' && isBase58With(s, [...ADDRESS_PREFIXES, 'txr1']);
}

/** `IsBakerHash`: the whole string is an `SG1` baker hash. */
export function isBakerHashLiteral(s: string): boolean {
  if (!isText(s)) return false;
  return typeof s === 'string' && s.length === 36 && isBase58With(s, ['SG1']);
}

/* ---------- API request validators (bcd-api §1.3) ---------- */

function isBase58Checked(v: string): boolean {
  try {
    decodeBase58Raw(v);
    return true;
  } catch {
    return false;
  }
}

/**
 * `address`, `contract` and `smart_rollup` are the reference's regexes, **anchored**: the reference matches
 * them anywhere in the value (bcd-api §11.1), so `xxKT1…yy` passed; here the whole value must match.
 */
export const ADDRESS_PARAM = /^(tz|KT|txr|sr)[0-9A-Za-z]{34}$/;
export const CONTRACT_PARAM = /^KT1[0-9A-Za-z]{33}$/;
export const SMART_ROLLUP_PARAM = /^sr[0-9A-Za-z]{34}$/;

export const isAddressParam = (v: string): boolean => isText(v) && ADDRESS_PARAM.test(v);
export const isContractParam = (v: string): boolean => isText(v) && CONTRACT_PARAM.test(v);
export const isSmartRollupParam = (v: string): boolean => isText(v) && SMART_ROLLUP_PARAM.test(v);
/** `opg`: starts with `o`, 51 characters, valid base58check. */
export const isOpgHashParam = (v: string): boolean =>
  isText(v) && v.startsWith('o') && v.length === 51 && isBase58Checked(v);
/** `global_constant`: starts with `expr`, 54 characters, valid base58check. */
export const isGlobalConstantParam = (v: string): boolean =>
  isText(v) && v.startsWith('expr') && v.length === 54 && isBase58Checked(v);
/** `network`: one of the configured networks. */
export const isNetworkParam = (v: string, networks: readonly string[]): boolean => networks.includes(v);
/** `bcd_max_size`: an integer 0 ≤ v ≤ page size (a page size of 0 means 10). */
export function isMaxSizeParam(v: number | string, pageSize = 10): boolean {
  const n = typeof v === 'number' ? v : /^\d{1,9}$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= (pageSize > 0 ? pageSize : 10);
}
/** `fill_type` of the storage schema. */
export const isFillTypeParam = (v: string): boolean =>
  isText(v) && ['empty', 'current', 'initial'].includes(v);
/** `gt_int64_ptr`: `max_level > min_level` when both are given. */
export const isLevelRange = (min?: number | null, max?: number | null): boolean =>
  min == null || max == null || max > min;
/** `status`: comma-separated operation statuses. */
export const isStatusListParam = (v: string): boolean =>
  isText(v) && v.split(',').every((s) => ['applied', 'backtracked', 'failed', 'skipped'].includes(s));
/** `faversion`. */
export const isFaVersionParam = (v: string): boolean => isText(v) && ['fa1', 'fa12', 'fa2'].includes(v);
/** `search`: 3 to 255 characters. */
export const isSearchParam = (v: string): boolean => isText(v) && v.length >= 3 && v.length <= 255;

/** The string-valued API validators by their tag (`network` and `bcd_max_size` take configuration). */
export const API_VALIDATORS: Record<string, (v: string) => boolean> = {
  address: isAddressParam,
  contract: isContractParam,
  smart_rollup: isSmartRollupParam,
  opg: isOpgHashParam,
  global_constant: isGlobalConstantParam,
  fill_type: isFillTypeParam,
  status: isStatusListParam,
  faversion: isFaVersionParam,
  search: isSearchParam,
};

/** The reference's validator failure text (go-playground), e.g. for `getContractRequest.Address` / `contract`. */
export function validatorMessage(request: string, field: string, tag: string): string {
  return `Key: '${request}.${field}' Error:Field validation for '${field}' failed on the '${tag}' tag`;
}
