// Decoding of a signed operation given to /injection/operation: parse, re-forge check, hash and
// signature verification.
import { inputExcess } from '@michelscope/michelson';
import { b58Encode, encodeOpHash, PrefixV2, verifySignature } from '@taquito/utils';
import type { State } from './state';
import { PROTO_ERROR_PREFIX as P } from './protocol';
import type { ManagerContent } from './operation-types';
import { RpcError } from './operation-types';
import { forgeOperation, parseOperation } from './forging';

const MAX_OPERATION_BYTES = 32768;
const SUPPORTED = new Set([
  'reveal',
  'transaction',
  'origination',
  'delegation',
  'register_global_constant',
  'transfer_ticket',
  'smart_rollup_originate',
]);

export interface DecodedOperation {
  hash: string;
  branch: string;
  contents: ManagerContent[];
  signature: string;
  /** Unsigned forged bytes (hex). */
  unsigned: string;
}

function parseError(msg: string): RpcError {
  return new RpcError(500, [{ kind: 'permanent', id: 'node.prevalidation.parse_error', msg }]);
}

export function unsupported(msg: string): RpcError {
  return new RpcError(500, [{ kind: 'permanent', id: 'sandbox.unsupported_operation', msg }]);
}

/** Parses unsigned forged bytes into {branch, contents}, allowing only what the sandbox applies. */
export async function parseUnsigned(
  unsigned: string,
): Promise<{ branch: string; contents: ManagerContent[] }> {
  let parsed: { branch: string; contents: Array<Record<string, unknown>> };
  try {
    parsed = await parseOperation(unsigned);
    const again = await forgeOperation(parsed);
    if (again !== unsigned) throw new Error('bytes do not re-forge identically');
    const excess = inputExcess(parsed.contents);
    if (excess) throw new Error(excess.replace(/^JSON/, 'Micheline'));
  } catch (e) {
    throw parseError(`cannot parse operation bytes: ${e instanceof Error ? e.message : String(e)}`);
  }
  for (const c of parsed.contents) {
    if (!SUPPORTED.has(String(c.kind))) {
      throw unsupported(
        `operation kind "${String(c.kind)}" is not supported by the sandbox yet (only ${[...SUPPORTED].join(', ')})`,
      );
    }
    if (typeof c.source !== 'string' || !/^tz[1-3]/.test(c.source))
      throw unsupported(`source ${String(c.source)} is not supported`);
  }
  return { branch: parsed.branch, contents: parsed.contents as unknown as ManagerContent[] };
}

/**
 * Decodes the JSON body of /injection/operation (a hex string of signed forged bytes) and checks
 * the signature against the source's revealed key (or the key revealed by the operation itself).
 */
export async function decodeSigned(body: unknown, state: State): Promise<DecodedOperation> {
  if (typeof body !== 'string')
    throw new RpcError(400, [
      { kind: 'permanent', id: 'rpc.invalid_body', msg: 'the body must be a JSON string of hex bytes' },
    ]);
  const hex = body.trim().toLowerCase();
  if (!/^([0-9a-f]{2})+$/.test(hex)) throw parseError('the operation is not hexadecimal');
  if (hex.length / 2 > MAX_OPERATION_BYTES)
    throw new RpcError(500, [{ kind: 'permanent', id: 'node.prevalidation.oversized_operation' }]);
  if (hex.length < 2 * (32 + 1 + 64))
    throw parseError('the operation is too short to hold a branch, contents and a signature');
  const unsigned = hex.slice(0, -128);
  const sigBytes = hex.slice(-128);
  const { branch, contents } = await parseUnsigned(unsigned);
  const signature = b58Encode(sigBytes, PrefixV2.GenericSignature);
  const source = contents[0]!.source;
  const reveal = contents.find((c) => c.kind === 'reveal');
  const key = state.implicit(source)?.manager ?? reveal?.public_key;
  if (!key)
    throw new RpcError(500, [{ kind: 'temporary', id: `${P}contract.unrevealed_key`, contract: source }]);
  let valid = false;
  try {
    valid = verifySignature(unsigned, key, signature, Uint8Array.of(3));
  } catch {
    valid = false;
  }
  if (!valid) throw new RpcError(500, [{ kind: 'permanent', id: `${P}operation.invalid_signature` }]);
  return { hash: encodeOpHash(hex), branch, contents, signature, unsigned };
}
