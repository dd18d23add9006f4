/**
 * Base58 ⇄ binary forms of addresses, keys, key hashes, signatures and chain ids: @michelscope/michelson's
 * (the one implementation), with its MichelsonDataError turned into the interpreter's static `ill_typed`
 * error under the same detail (`invalid_address`, `invalid_key`…).
 */
import * as core from '@michelscope/michelson';
import { staticError } from './errors';

function illTyped<A extends unknown[], R>(f: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return f(...args);
    } catch (e) {
      if (e instanceof core.MichelsonDataError) throw staticError(e.detail ?? 'invalid_data', e.message);
      throw e;
    }
  };
}

export type { SigScheme } from '@michelscope/michelson';
export const bytesToHex = core.bytesToHex;
export const hexToBytes = illTyped(core.hexToBytes);
export const keyHashToHex = illTyped(core.keyHashToHex);
export const keyHashFromHex = illTyped(core.keyHashFromHex);
export const addressToHex = illTyped(core.addressToHex);
export const addressFromHex = illTyped(core.addressFromHex);
export const splitAddress = illTyped(core.splitAddress);
export const keyToHex = illTyped(core.keyToHex);
export const keyFromHex = illTyped(core.keyFromHex);
export const keyBinLength = illTyped(core.keyBinLength);
export const signatureToHex = illTyped(core.signatureToHex);
export const signatureFromHex = illTyped(core.signatureFromHex);
export const chainIdToHex = illTyped(core.chainIdToHex);
export const chainIdFromHex = illTyped(core.chainIdFromHex);
export const contractHashFromBytes = illTyped(core.contractHashFromBytes);
export const keyHashB58FromRaw = illTyped(core.keyHashB58FromRaw);
export const exprHash = illTyped(core.exprHash);
