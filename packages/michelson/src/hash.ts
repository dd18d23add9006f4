/**
 * Hashes: script-expression (`expr…`) hashes of values and big-map keys, global-constant hashes,
 * the script hash used to find "same" contracts, and ticket hashes.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { b58DecodeAndCheckPrefix, PrefixV2 } from '@taquito/utils';
import { contractHashFromBytes, exprHash } from './binary-forms';
import { bytesToHex, hexToBytes } from './hex';
import type { Micheline } from './micheline-core';
import { packData } from './pack';
import type { TypeNode } from './type-tree';

/** PACK of a value (hex, with the 0x05 prefix). A type is needed for optimized forms (addresses, timestamps...). */
export const packValue = packData;

/**
 * The KT1 address of the `index`-th contract an operation group originates (its origination nonce, counted
 * from 0 across the group's originations, internal ones included): BLAKE2B-160 of the group's hash and the
 * index as a big-endian int32, as Octez's Contract_hash.of_nonce.
 */
export function originatedContractAddress(opHash: string, index: number): string {
  const data = new Uint8Array(36);
  data.set(b58DecodeAndCheckPrefix(opHash, [PrefixV2.OperationHash], true), 0);
  new DataView(data.buffer).setInt32(32, index);
  return contractHashFromBytes(bytesToHex(blake2b(data, { dkLen: 20 })));
}

/** `expr…` hash of bytes (hex): base58 of their blake2b-256. */
export function exprHashOf(hex: string): string {
  return exprHash(bytesToHex(blake2b(hexToBytes(hex), { dkLen: 32 })));
}

/**
 * Script-expression hash (`expr…`) of a value: blake2b-256 of its PACK (0x05 included). This is the
 * big-map key hash (`key_hash`) when given the key and the key type.
 */
export function scriptExpressionHash(value: Micheline, type?: Micheline | TypeNode): string {
  return exprHashOf(packData(value, type));
}

/** Big-map key hash: {@link scriptExpressionHash} of the key. */
export const bigMapKeyHash = scriptExpressionHash;

/** Address (`expr…`) of a global constant: blake2b-256 of the binary Micheline without the 0x05 prefix. */
export function globalConstantHash(value: Micheline): string {
  return exprHashOf(packData(value).slice(2));
}

/**
 * Script hash (the "same contracts" key): lower-case hex SHA-256 of the `code` JSON. Pass the raw
 * JSON text as received from the node when you have it; Micheline is serialised compactly.
 */
export function scriptHash(code: Micheline | string): string {
  const text = typeof code === 'string' ? code : JSON.stringify(code);
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** Ticket hash: SHA-256 hex of content type JSON ++ content JSON ++ ticketer address (as stored). */
export function ticketHash(
  contentType: Micheline | string,
  content: Micheline | string,
  ticketer: string,
): string {
  const t = typeof contentType === 'string' ? contentType : JSON.stringify(contentType);
  const c = typeof content === 'string' ? content : JSON.stringify(content);
  return bytesToHex(sha256(utf8ToBytes(t + c + ticketer)));
}
