/**
 * Sapling values as far as the sandbox can take them without a Groth16 verifier: the binary form of a
 * transaction (to accept or refuse a `sapling_transaction` literal and read its memo size, as Octez's
 * `parse_sapling_transaction` does) and the error SAPLING_VERIFY_UPDATE answers.
 *
 * Layout (Octez src/lib_sapling/core.ml, `UTXO.transaction_encoding`; Data_encoding's `list`, `bytes` and
 * `string` carry a 4-byte big-endian byte length):
 *   inputs: list of {cv 32, nf 32, rk 32, proof_i 192, signature 64}   (at most 5208)
 *   outputs: list of {cm 32, proof_o 192, ciphertext}                   (at most 2019)
 *     ciphertext: {cv 32, epk 32, payload_enc bytes, nonce_enc 24, payload_out 80, nonce_out 24}
 *   binding_sig 64, balance int64, root 32, bound_data string (absent in the deprecated format)
 */
import { MichelsonError } from './errors';

const INPUT_BYTES = 32 + 32 + 32 + 192 + 64;
const MAX_INPUTS = 5208;
const MAX_OUTPUTS = 2019;
/** `Ciphertext.get_memo_size`: payload_enc minus diversifier 11, amount 8, rcm 32, MAC 16, memo length 4. */
const PAYLOAD_BESIDES_MEMO = 11 + 8 + 32 + 16 + 4;

/**
 * Decodes a Sapling transaction's bytes. Returns its memo size (null when it has no output, Octez's
 * `transaction_get_memo_size` = None), or `undefined` when the bytes are not a transaction of this format
 * (outputs of different memo sizes included: the encoding asserts they agree).
 */
export function saplingTransactionMemoSize(hex: string, deprecated: boolean): number | null | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const b = Buffer.from(hex, 'hex');
  let pos = 0;
  const u32 = (): number | undefined => {
    if (pos + 4 > b.length) return undefined;
    const n = b.readUInt32BE(pos);
    pos += 4;
    return n;
  };
  const skip = (n: number): boolean => {
    if (pos + n > b.length) return false;
    pos += n;
    return true;
  };
  const inputsLen = u32();
  if (inputsLen === undefined || inputsLen % INPUT_BYTES !== 0 || inputsLen / INPUT_BYTES > MAX_INPUTS)
    return undefined;
  if (!skip(inputsLen)) return undefined;
  const outputsLen = u32();
  if (outputsLen === undefined || pos + outputsLen > b.length) return undefined;
  const outputsEnd = pos + outputsLen;
  let memo: number | null = null;
  let count = 0;
  while (pos < outputsEnd) {
    if (++count > MAX_OUTPUTS) return undefined;
    if (!skip(32 + 192 + 32 + 32)) return undefined; // cm, proof_o, ciphertext's cv and epk
    const payload = u32();
    if (payload === undefined || !skip(payload) || !skip(24 + 80 + 24)) return undefined;
    if (pos > outputsEnd) return undefined;
    const m = payload - PAYLOAD_BESIDES_MEMO;
    if (memo !== null && m !== memo) return undefined;
    memo = m;
  }
  if (!skip(64 + 8 + 32)) return undefined; // binding_sig, balance, root
  if (!deprecated) {
    const bound = u32();
    if (bound === undefined || !skip(bound)) return undefined;
  }
  return pos === b.length ? memo : undefined;
}

/**
 * SAPLING_VERIFY_UPDATE needs Groth16 (BLS12-381) proof and RedJubjub signature checks the sandbox does not
 * have: rather than answer None (a wrong "invalid") or Some (a wrong "valid"), the run stops with this error,
 * a deliberate difference from Octez (docs/ARCHITECTURE.md §8).
 */
export function saplingVerifyUnsupported(): MichelsonError {
  return new MichelsonError(
    'sapling_unverifiable',
    'SAPLING_VERIFY_UPDATE: the sandbox cannot verify Sapling proofs (Groth16) and signatures, so it cannot ' +
      'tell a valid transaction from an invalid one',
    { prim: 'SAPLING_VERIFY_UPDATE' },
  );
}
