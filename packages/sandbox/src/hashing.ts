// Tezos binary encodings and hashes used by the sandbox: block header bytes, block hashes,
// operation-list Merkle roots and small helpers. Everything here is pure.
import { blake2b } from '@noble/hashes/blake2.js';
import { b58DecodeAndCheckPrefix, b58Encode, buf2hex, hex2buf, PrefixV2 } from '@taquito/utils';

export function blake2b256(...parts: Uint8Array[]): Uint8Array {
  const h = blake2b.create({ dkLen: 32 });
  for (const p of parts) h.update(p);
  return h.digest();
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

function int32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, n);
  return b;
}

function int64(n: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, BigInt(n));
  return b;
}

function uint8(n: number): Uint8Array {
  return Uint8Array.of(n & 0xff);
}

/** Decodes a base58check value with the given prefix to its raw payload. */
export function b58Payload(value: string, prefix: PrefixV2): Uint8Array {
  return b58DecodeAndCheckPrefix(value, [prefix], true);
}

export function isB58(value: unknown, prefix: PrefixV2): value is string {
  if (typeof value !== 'string' || value.length > 120) return false;
  try {
    b58Payload(value, prefix);
    return true;
  } catch {
    return false;
  }
}

/** The shell part of a block header, in the node's JSON shape. */
export interface ShellHeader {
  level: number;
  proto: number;
  predecessor: string;
  timestamp: string;
  validation_pass: number;
  operations_hash: string;
  fitness: string[];
  context: string;
}

/** The Tallinn protocol data of a block header (without the signature). */
export interface ProtocolData {
  payload_hash: string;
  payload_round: number;
  proof_of_work_nonce: string;
  seed_nonce_hash?: string | null;
  liquidity_baking_toggle_vote: 'on' | 'off' | 'pass';
}

/**
 * Shell header bytes, as `Block_header.shell_header_encoding`:
 * level int32 | proto uint8 | predecessor 32 | timestamp int64 (s) | validation_pass uint8 |
 * operations_hash 32 | fitness (uint32 size, then each element uint32 size + bytes) | context 32.
 */
export function encodeShellHeader(h: ShellHeader): Uint8Array {
  const fitnessParts = h.fitness.map((f) => {
    const bytes = hex2buf(f);
    return concatBytes(int32(bytes.length), bytes);
  });
  const fitness = concatBytes(...fitnessParts);
  return concatBytes(
    int32(h.level),
    uint8(h.proto),
    b58Payload(h.predecessor, PrefixV2.BlockHash),
    int64(Math.floor(Date.parse(h.timestamp) / 1000)),
    uint8(h.validation_pass),
    b58Payload(h.operations_hash, PrefixV2.OperationListListHash),
    int32(fitness.length),
    fitness,
    b58Payload(h.context, PrefixV2.ContextHash),
  );
}

const VOTE_CODE = { on: 0, off: 1, pass: 2 } as const;

/**
 * Unsigned protocol data bytes: payload_hash 32 | payload_round int32 | proof_of_work_nonce 8 |
 * seed_nonce_hash option (0x00, or 0xff + 32) | per-block votes byte. From Tallinn on that byte is the
 * liquidity-baking vote code alone (on 0, off 1, pass 2); Seoul and earlier added 4 × the
 * adaptive-issuance vote code. Checked against real mainnet Tallinn and Seoul block hashes.
 */
export function encodeProtocolData(p: ProtocolData): Uint8Array {
  const seed = p.seed_nonce_hash
    ? concatBytes(uint8(0xff), b58Payload(p.seed_nonce_hash, PrefixV2.CycleNonce))
    : uint8(0);
  return concatBytes(
    b58Payload(p.payload_hash, PrefixV2.ValueHash),
    int32(p.payload_round),
    hex2buf(p.proof_of_work_nonce),
    seed,
    uint8(VOTE_CODE[p.liquidity_baking_toggle_vote]),
  );
}

/** Raw 64-byte signature payload of any sig/edsig/spsig/p2sig value. */
export function signatureBytes(sig: string): Uint8Array {
  const prefixes = [
    PrefixV2.GenericSignature,
    PrefixV2.Ed25519Signature,
    PrefixV2.Secp256k1Signature,
    PrefixV2.P256Signature,
  ];
  return b58DecodeAndCheckPrefix(sig, prefixes, true);
}

/** Block hash: BLAKE2B-256 of the full signed header bytes (shell + protocol data + signature). */
export function blockHash(shell: ShellHeader, proto: ProtocolData, signature: string): string {
  const bytes = concatBytes(encodeShellHeader(shell), encodeProtocolData(proto), signatureBytes(signature));
  return b58Encode(blake2b256(bytes), PrefixV2.BlockHash);
}

/**
 * Tezos' BLAKE2B Merkle tree (`Blake2B.Make_merkle_tree`): empty list = hash of nothing; a leaf is
 * the hash of the element bytes; a node the hash of both children; the list is padded to a power
 * of two with copies of the last leaf.
 */
export function merkleRoot(elements: Uint8Array[]): Uint8Array {
  if (elements.length === 0) return blake2b256();
  const leaves = elements.map((e) => blake2b256(e));
  if (leaves.length === 1) return leaves[0]!;
  let size = 1;
  while (size < leaves.length) size *= 2;
  const last = leaves[leaves.length - 1]!;
  let level: Uint8Array[] = Array.from({ length: size }, (_, i) => leaves[i] ?? last);
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(blake2b256(level[i]!, level[i + 1]!));
    level = next;
  }
  return level[0]!;
}

/** `operations_hash` of a header: Merkle root over the four validation passes' Merkle roots. */
export function operationsHash(passes: string[][]): string {
  const lists = passes.map((hashes) => merkleRoot(hashes.map((h) => b58Payload(h, PrefixV2.OperationHash))));
  return b58Encode(merkleRoot(lists), PrefixV2.OperationListListHash);
}

export function hexOf(bytes: Uint8Array): string {
  return buf2hex(bytes);
}

export function encodeB58(bytes: Uint8Array, prefix: PrefixV2): string {
  return b58Encode(bytes, prefix);
}
