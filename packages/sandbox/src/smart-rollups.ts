// smart_rollup_originate, recorded without a PVM: the rollup gets its `sr1…` address, genesis
// commitment, storage size and burn exactly as Octez computes them from the genesis state hash; that
// hash is the one value we cannot compute without running the kernel (see GENESIS_STATE below).
// Also the `…/context/smart_rollups/…` RPCs that read the recorded rollups.
import { blake2b } from '@noble/hashes/blake2.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  b58DecodeAndCheckPrefix,
  b58Encode,
  PrefixV2,
  validateKeyHash,
  ValidationResult,
} from '@taquito/utils';
import { encodeExpr, OPERATION_COST, toTy, type Expr } from '@michelscope/interpreter';
import { blockOf, type ChainView } from './block-id';
import { consume, fail, MANAGER_MILLIGAS, type Applied, type Exec, type Group } from './execute';
import { RpcError, type ManagerContent, type NodeError } from './operation-types';
import { PROTO_ERROR_PREFIX as P } from './protocol';
import type { State } from './state';

/** `smart_rollup_origination_size` of the protocol constants. */
export const SMART_ROLLUP_ORIGINATION_SIZE = 6314;

/**
 * Gas of an origination: Octez spends it computing the PVM's genesis state from the kernel; we charge
 * the interpreter's `OPERATION_COST.smartRollupOrigination` whatever the kernel.
 */
export const SMART_ROLLUP_ORIGINATION_MILLIGAS = BigInt(OPERATION_COST.smartRollupOrigination);

/** PVM kinds of the node's `pvm_kind` encoding; Tallinn enables only wasm_2_0_0 (arith, riscv disabled). */
const PVM_KINDS = new Set(['wasm_2_0_0', 'arith', 'riscv']);

export interface SmartRollupRecord {
  pvm_kind: string;
  kernel: string;
  parameters_ty: Expr;
  genesis_info: { level: number; commitment_hash: string };
  whitelist?: string[];
  /** Bytes burned at origination (the result's `size`). */
  size: string;
}

export function smartRollup(state: State, address: string): SmartRollupRecord | undefined {
  return state.kv.get(`r:${address}`) as SmartRollupRecord | undefined;
}

export function smartRollups(state: State): string[] {
  return state.kv
    .keys('r:')
    .map((k) => k.slice(2))
    .sort();
}

/**
 * `sr1…` address of an origination: BLAKE2B-160 of the origination nonce (operation hash ‖ int32
 * index), the nonce counting contract and rollup originations of the group alike (Octez'
 * `Sc_rollup_storage.new_address`).
 */
export function smartRollupAddress(group: Group): string {
  const data = new Uint8Array(36);
  data.set(b58DecodeAndCheckPrefix(group.hash, [PrefixV2.OperationHash], true), 0);
  new DataView(data.buffer).setInt32(32, group.originations++);
  return b58Encode(blake2b(data, { dkLen: 20 }), PrefixV2.SmartRollupHash);
}

/**
 * Not the node's value: Octez hashes the PVM state after installing the kernel, which needs the PVM.
 * We record BLAKE2B-256("michelscope recorded pvm state" ‖ pvm_kind ‖ kernel) under the `srs1` prefix.
 */
export function genesisStateHash(pvmKind: string, kernelHex: string): Uint8Array {
  const tag = new TextEncoder().encode(`michelscope recorded pvm state:${pvmKind}:`);
  const kernel = Uint8Array.from(kernelHex.match(/../g) ?? [], (b) => parseInt(b, 16));
  const data = new Uint8Array(tag.length + kernel.length);
  data.set(tag, 0);
  data.set(kernel, tag.length);
  return blake2b(data, { dkLen: 32 });
}

/**
 * Hash of the genesis commitment {compressed_state, inbox_level, predecessor = zero hash,
 * number_of_ticks = 0}, binary-encoded as Octez does (32 + int32 + 32 + int64 bytes), `src1…`.
 */
export function genesisCommitmentHash(stateHash: Uint8Array, level: number): string {
  const data = new Uint8Array(76);
  data.set(stateHash, 0);
  new DataView(data.buffer).setInt32(32, level);
  return b58Encode(blake2b(data, { dkLen: 32 }), PrefixV2.SmartRollupCommitmentHash);
}

/**
 * Bytes of an origination, as `Sc_rollup_storage.raw_originate` sums them: the origination size, the
 * stored kind (2) and two addresses (40), the parameter type (length-prefixed binary), the PVM kind
 * (2), genesis info (level + hash: 36), and the commitment stores (last cemented hash 32, the
 * commitment 76, its added level 4, first publication level 4, the per-level list of one hash 36).
 * The whitelist is stored as a set of keys without values: 0 bytes. Octez' own receipt of a
 * Mumbai origination with parameter type `bytes` (size 6552) checks the sum.
 */
export function originationSize(parametersTy: Expr): bigint {
  const paramTy = 4 + encodeExpr(parametersTy).length;
  return BigInt(SMART_ROLLUP_ORIGINATION_SIZE + 2 + 40 + paramTy + 2 + 36 + (32 + 76 + 4 + 4 + 36));
}

/** Validation (the node refuses the operation): the PVM kind must be enabled. */
export function validateSmartRollupOriginate(c: ManagerContent): NodeError | undefined {
  if (c.pvm_kind === 'arith') return { kind: 'temporary', id: `${P}operation.arith_pvm_disabled` };
  if (c.pvm_kind === 'riscv') return { kind: 'temporary', id: `${P}operation.riscv_pvm_disabled` };
  return undefined;
}

export function originateSmartRollup(ex: Exec, c: ManagerContent): Applied {
  const kind = c.pvm_kind ?? '';
  if (!PVM_KINDS.has(kind)) fail('smart_rollup_invalid_pvm_kind', { kind }, 'permanent');
  const kernel = (c.kernel ?? '').toLowerCase();
  if (!/^([0-9a-f]{2})*$/.test(kernel)) fail('smart_rollup_invalid_kernel', {}, 'permanent');
  const parametersTy = c.parameters_ty as Expr;
  try {
    toTy(parametersTy);
  } catch {
    fail('smart_rollup_invalid_parameters_type', {}, 'permanent');
  }
  const whitelist = c.whitelist;
  if (whitelist !== undefined) {
    if (whitelist.length === 0) fail('smart_rollup_empty_whitelist', {}, 'permanent');
    if (new Set(whitelist).size !== whitelist.length)
      fail('smart_rollup_duplicated_key_in_whitelist', {}, 'permanent');
    for (const pkh of whitelist)
      if (validateKeyHash(pkh) !== ValidationResult.VALID)
        fail('smart_rollup_invalid_whitelist_key', { key: String(pkh) }, 'permanent');
  }
  consume(ex, SMART_ROLLUP_ORIGINATION_MILLIGAS - MANAGER_MILLIGAS);
  const address = smartRollupAddress(ex.group);
  const commitment = genesisCommitmentHash(genesisStateHash(kind, kernel), ex.level);
  const size = originationSize(parametersTy);
  const rec: SmartRollupRecord = {
    pvm_kind: kind,
    kernel,
    parameters_ty: parametersTy,
    genesis_info: { level: ex.level, commitment_hash: commitment },
    ...(whitelist ? { whitelist: [...whitelist] } : {}),
    size: String(size),
  };
  ex.state.kv.set(`r:${address}`, rec);
  return {
    result: {
      status: 'applied',
      balance_updates: [],
      address,
      genesis_commitment_hash: commitment,
      consumed_milligas: String(SMART_ROLLUP_ORIGINATION_MILLIGAS),
      size: String(size),
    },
    emitted: [],
  };
}

type Params = Record<string, string>;

function send(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.type('application/json').send(JSON.stringify(value));
}

/**
 * `…/context/smart_rollups/all` and `…/smart_rollup/{sr1}/{kind,genesis_info,
 * last_cemented_commitment_hash_with_level,stakers,whitelist}`. Nothing is ever cemented or staked
 * here: the last cemented commitment is the genesis one and there are no stakers.
 */
/** What the smart-rollup routes read of the sandbox (its blocks and the state at a level). */
export interface RollupChainView extends ChainView {
  stateAt(level: number): State;
}

export function registerSmartRollupRoutes(app: FastifyInstance, sandbox: RollupChainView): void {
  const base = '/chains/:chain/blocks/:block/context/smart_rollups';
  const stateOf = (p: Params) => sandbox.stateAt(blockOf(sandbox, p).header.level);
  app.get<{ Params: Params }>(`${base}/all`, async (req, reply) =>
    send(reply, smartRollups(stateOf(req.params))),
  );
  const get = (suffix: string, render: (r: SmartRollupRecord) => unknown) =>
    app.get<{ Params: Params }>(`${base}/smart_rollup/:address${suffix}`, async (req, reply) => {
      const state = stateOf(req.params);
      const address = req.params.address ?? '';
      if (!/^sr1[1-9A-HJ-NP-Za-km-z]{33}$/.test(address))
        throw new RpcError(400, [
          {
            kind: 'permanent',
            id: 'rpc.argument_parsing',
            msg: `Failed to parse argument 'smart_rollup_address' (${JSON.stringify(address.slice(0, 80))})`,
          },
        ]);
      const rec = smartRollup(state, address);
      if (!rec)
        throw new RpcError(404, [
          { kind: 'temporary', id: `${P}smart_rollup_does_not_exist`, rollup: address },
        ]);
      return send(reply, render(rec));
    });
  get('/kind', (r) => r.pvm_kind);
  get('/genesis_info', (r) => r.genesis_info);
  get('/last_cemented_commitment_hash_with_level', (r) => ({
    hash: r.genesis_info.commitment_hash,
    level: r.genesis_info.level,
  }));
  get('/stakers', () => []);
  get('/whitelist', (r) => r.whitelist ?? null);
}
