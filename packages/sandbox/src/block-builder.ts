// Building (and signing) block headers, and rendering stored blocks in the node's JSON shapes.
import { InMemorySigner } from '@taquito/signer';
import { PrefixV2 } from '@taquito/utils';
import { BAKER } from './accounts';
import type { BlockHeader, StoredBlock } from './chain-store';
import {
  b58Payload,
  blake2b256,
  blockHash,
  concatBytes,
  encodeB58,
  encodeProtocolData,
  encodeShellHeader,
  hexOf,
  merkleRoot,
  operationsHash,
  signatureBytes,
} from './hashing';
import type { OperationEntry } from './operation-types';
import { BLOCKS_PER_CYCLE, CHAIN_ID, MAX_OPERATIONS_TTL, PROTOCOL } from './protocol';

let bakerSigner: InMemorySigner | undefined;
async function signer(): Promise<InMemorySigner> {
  bakerSigner ??= await InMemorySigner.fromSecretKey(BAKER.sk);
  return bakerSigner;
}

function int32Hex(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

/** Context hash of genesis: BLAKE2B-256 of the state's canonical JSON (keys sorted). */
export function genesisContext(state: Record<string, unknown>): string {
  const json = JSON.stringify(
    Object.keys(state)
      .sort()
      .map((k) => [k, state[k]]),
  );
  return encodeB58(blake2b256(new TextEncoder().encode(json)), PrefixV2.ContextHash);
}

/** Context hash of a block: BLAKE2B-256(predecessor's context ‖ canonical JSON of the block's changes). */
export function nextContext(predecessor: string, changes: Record<string, unknown>): string {
  const json = JSON.stringify(
    Object.keys(changes)
      .sort()
      .map((k) => [k, changes[k]]),
  );
  return encodeB58(
    blake2b256(b58Payload(predecessor, PrefixV2.ContextHash), new TextEncoder().encode(json)),
    PrefixV2.ContextHash,
  );
}

export interface BakeInput {
  level: number;
  predecessor: string;
  timestamp: string;
  operations: OperationEntry[];
  fees: bigint;
  context: string;
}

/**
 * Bakes a block: Tenderbake fitness at round 0, payload hash = BLAKE2B-256(predecessor ‖ round ‖
 * Merkle root of the manager operation hashes), header signed by the baker with watermark 0x11 ‖
 * chain id, hash = BLAKE2B-256 of the signed header bytes (see hashing.ts).
 */
export async function bake(input: BakeInput): Promise<StoredBlock> {
  const hashes = input.operations.map((o) => o.hash);
  const payloadRoot = merkleRoot(hashes.map((h) => b58Payload(h, PrefixV2.OperationHash)));
  const payloadHash = encodeB58(
    blake2b256(b58Payload(input.predecessor, PrefixV2.BlockHash), new Uint8Array(4), payloadRoot),
    PrefixV2.ValueHash,
  );
  const nonce = hexOf(blake2b256(new TextEncoder().encode(`nonce:${input.level}`)).slice(0, 8));
  const unsigned = {
    level: input.level,
    proto: 1,
    predecessor: input.predecessor,
    timestamp: input.timestamp,
    validation_pass: 4,
    operations_hash: operationsHash([[], [], [], hashes]),
    fitness: ['02', int32Hex(input.level), '', 'ffffffff', '00000000'],
    context: input.context,
    payload_hash: payloadHash,
    payload_round: 0,
    proof_of_work_nonce: nonce,
    liquidity_baking_toggle_vote: 'pass' as const,
  };
  const watermark = concatBytes(Uint8Array.of(0x11), b58Payload(CHAIN_ID, PrefixV2.ChainID));
  const bytes = hexOf(concatBytes(encodeShellHeader(unsigned), encodeProtocolData(unsigned)));
  const signed = await (await signer()).sign(bytes, watermark);
  const signature = encodeB58(signatureBytes(signed.prefixSig), PrefixV2.GenericSignature);
  const header: BlockHeader = { ...unsigned, signature };
  return {
    hash: blockHash(header, header, signature),
    header,
    operations: [[], [], [], input.operations],
    fees: input.fees.toString(),
  };
}

export function levelInfo(level: number) {
  const position = Math.max(0, level - 1);
  return {
    level,
    level_position: position,
    cycle: Math.floor(position / BLOCKS_PER_CYCLE),
    cycle_position: position % BLOCKS_PER_CYCLE,
    expected_commitment: false,
  };
}

export function blockMetadata(block: StoredBlock) {
  const level = block.header.level;
  const fees = BigInt(block.fees);
  const votingPeriodLength = BLOCKS_PER_CYCLE * 14;
  const position = Math.max(0, level - 1);
  const gas = block.operations[3]!.flatMap((o) => o.contents).reduce(
    (n, c) =>
      (c.metadata?.internal_operation_results ?? []).reduce(
        (m, i) => m + BigInt(i.result.consumed_milligas ?? '0'),
        n + BigInt(c.metadata?.operation_result.consumed_milligas ?? '0'),
      ),
    0n,
  );
  return {
    protocol: PROTOCOL,
    next_protocol: PROTOCOL,
    test_chain_status: { status: 'not_running' },
    max_operations_ttl: Math.min(level, MAX_OPERATIONS_TTL),
    max_operation_data_length: 32768,
    max_block_header_length: 289,
    max_operation_list_length: [
      { max_size: 4194304, max_op: 2048 },
      { max_size: 32768 },
      { max_size: 135168, max_op: 132 },
      { max_size: 524288 },
    ],
    proposer: BAKER.pkh,
    baker: BAKER.pkh,
    level_info: levelInfo(level),
    voting_period_info: {
      voting_period: {
        index: Math.floor(position / votingPeriodLength),
        kind: 'proposal',
        start_position: position - (position % votingPeriodLength),
      },
      position: position % votingPeriodLength,
      remaining: votingPeriodLength - (position % votingPeriodLength) - 1,
    },
    nonce_hash: null,
    deactivated: [],
    balance_updates:
      fees > 0n
        ? [
            { kind: 'accumulator', category: 'block fees', change: `-${fees}`, origin: 'block' },
            { kind: 'contract', contract: BAKER.pkh, change: String(fees), origin: 'block' },
          ]
        : [],
    liquidity_baking_toggle_ema: 0,
    implicit_operations_results: [],
    proposer_consensus_key: BAKER.pkh,
    baker_consensus_key: BAKER.pkh,
    consumed_milligas: gas.toString(),
    dal_attestation: '0',
    all_bakers_attest_activation_level: null,
    attestations: null,
    preattestations: null,
  };
}

export function blockJson(block: StoredBlock) {
  return {
    protocol: PROTOCOL,
    chain_id: CHAIN_ID,
    hash: block.hash,
    header: block.header,
    metadata: blockMetadata(block),
    operations: block.operations,
  };
}
