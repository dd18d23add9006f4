// What the sandbox claims to be: the protocol, the chain id, the node version and the protocol
// constants served at /context/constants.
import { ProtocolsHash } from '@taquito/local-forging';

/** Tallinn (protocol 024), a hash that @taquito/local-forging 25 knows. */
export const PROTOCOL = ProtocolsHash.PtTALLiNt as string;
export const PROTOCOL_NUMBER = 24;
/** Error ids are prefixed like the node's: `proto.024-PtTALLiN.<id>`. */
export const PROTO_ERROR_PREFIX = 'proto.024-PtTALLiN.';
/**
 * A fixed chain id of our own (not mainnet's): the first 4 bytes of BLAKE2B-256("michelscope
 * sandboxnet"), base58 with the `Net` prefix. A test recomputes it.
 */
export const CHAIN_ID = 'NetXb4iQop6QC3n';
export const CHAIN_NAME = 'MICHELSCOPE_SANDBOXNET';
/** The block id of genesis (level 0) is computed like every other block hash. */
export const GENESIS_TIMESTAMP = '2026-01-01T00:00:00Z';
export const MAX_OPERATIONS_TTL = 240;

export const NODE_VERSION = {
  version: { major: 24, minor: 0, additional_info: 'release' },
  network_version: { chain_name: CHAIN_NAME, distributed_db_version: 2, p2p_version: 1 },
  commit_info: { commit_hash: '00000000', commit_date: '2026-01-01 00:00:00 +0000' },
};

export const BLOCKS_PER_CYCLE = 128;
export const CYCLES_PER_VOTING_PERIOD = 14;
/** Tallinn's minimal_stake (mutez): a delegate below it is not in the voting listings. */
export const MINIMAL_STAKE = 6_000_000_000n;
export const COST_PER_BYTE = 250n;
export const ORIGINATION_SIZE = 257;
export const HARD_GAS_LIMIT_PER_OPERATION = 1_040_000;
export const HARD_STORAGE_LIMIT_PER_OPERATION = 60_000;

/** Tallinn's constants (default_parameters.ml, mainnet values) with sandbox timing. */
export function protocolConstants(blockTimeMs: number): Record<string, unknown> {
  const delay = String(Math.max(1, Math.round(blockTimeMs / 1000)));
  return {
    proof_of_work_nonce_size: 8,
    nonce_length: 32,
    max_anon_ops_per_block: 132,
    max_operation_data_length: 32768,
    max_proposals_per_delegate: 20,
    max_micheline_node_count: 50000,
    max_micheline_bytes_limit: 50000,
    max_allowed_global_constants_depth: 10000,
    cache_layout_size: 3,
    michelson_maximum_type_size: 2001,
    max_slashing_period: 2,
    smart_rollup_max_wrapped_proof_binary_size: 30000,
    smart_rollup_message_size_limit: 4096,
    smart_rollup_max_number_of_messages_per_level: '1000000',
    consensus_rights_delay: 2,
    blocks_preservation_cycles: 1,
    delegate_parameters_activation_delay: 5,
    tolerated_inactivity_period: 2,
    blocks_per_cycle: BLOCKS_PER_CYCLE,
    blocks_per_commitment: 16,
    nonce_revelation_threshold: 32,
    cycles_per_voting_period: CYCLES_PER_VOTING_PERIOD,
    hard_gas_limit_per_operation: String(HARD_GAS_LIMIT_PER_OPERATION),
    hard_gas_limit_per_block: '1386666',
    proof_of_work_threshold: '-1',
    minimal_stake: String(MINIMAL_STAKE),
    minimal_frozen_stake: '600000000',
    vdf_difficulty: '10000000000',
    origination_size: ORIGINATION_SIZE,
    issuance_weights: {
      base_total_issued_per_minute: '80007812',
      baking_reward_fixed_portion_weight: 5120,
      baking_reward_bonus_weight: 5120,
      attesting_reward_weight: 10240,
      seed_nonce_revelation_tip_weight: 1,
      vdf_revelation_tip_weight: 1,
      dal_rewards_weight: 2275,
    },
    cost_per_byte: String(COST_PER_BYTE),
    hard_storage_limit_per_operation: String(HARD_STORAGE_LIMIT_PER_OPERATION),
    quorum_min: 2000,
    quorum_max: 7000,
    min_proposal_quorum: 500,
    liquidity_baking_subsidy: '5000000',
    liquidity_baking_toggle_ema_threshold: 1000000000,
    max_operations_time_to_live: MAX_OPERATIONS_TTL,
    minimal_block_delay: delay,
    delay_increment_per_round: delay,
    consensus_committee_size: 7000,
    consensus_threshold_size: 4667,
    minimal_participation_ratio: { numerator: 2, denominator: 3 },
    limit_of_delegation_over_baking: 9,
    percentage_of_frozen_deposits_slashed_per_double_baking: 500,
    max_slashing_per_block: 10000,
    max_slashing_threshold: { numerator: 1, denominator: 3 },
    testnet_dictator: null,
    initial_seed: null,
    cache_script_size: 100000000,
    cache_stake_distribution_cycles: 8,
    cache_sampler_state_cycles: 8,
    dal_parametric: {
      feature_enable: true,
      incentives_enable: true,
      number_of_slots: 32,
      attestation_lag: 8,
      attestation_threshold: 66,
      minimal_participation_ratio: { numerator: 16, denominator: 25 },
      rewards_ratio: { numerator: 1, denominator: 10 },
      traps_fraction: { numerator: 1, denominator: 2000 },
      redundancy_factor: 8,
      page_size: 3967,
      slot_size: 126944,
      number_of_shards: 512,
    },
    smart_rollup_arith_pvm_enable: false,
    smart_rollup_origination_size: 6314,
    smart_rollup_challenge_window_in_blocks: 201600,
    smart_rollup_stake_amount: '10000000000',
    smart_rollup_commitment_period_in_blocks: 150,
    smart_rollup_max_lookahead_in_blocks: 432000,
    smart_rollup_max_active_outbox_levels: 201600,
    smart_rollup_max_outbox_messages_per_level: 100,
    smart_rollup_number_of_sections_in_dissection: 32,
    smart_rollup_timeout_period_in_blocks: 100800,
    smart_rollup_max_number_of_cemented_commitments: 5,
    smart_rollup_max_number_of_parallel_games: 32,
    smart_rollup_reveal_activation_level: {
      raw_data: { Blake2B: 0 },
      metadata: 0,
      dal_page: 0,
      dal_parameters: 0,
      dal_attested_slots_validity_lag: 241920,
    },
    smart_rollup_private_enable: true,
    smart_rollup_riscv_pvm_enable: false,
    zk_rollup_enable: false,
    zk_rollup_origination_size: 4000,
    zk_rollup_min_pending_to_process: 10,
    zk_rollup_max_ticket_payload_size: 2048,
    global_limit_of_staking_over_baking: 5,
    edge_of_staking_over_delegation: 2,
    adaptive_rewards_params: {
      issuance_ratio_final_min: { numerator: '1', denominator: '400' },
      issuance_ratio_final_max: { numerator: '1', denominator: '10' },
      issuance_ratio_initial_min: { numerator: '9', denominator: '200' },
      issuance_ratio_initial_max: { numerator: '11', denominator: '200' },
      initial_period: 10,
      transition_period: 50,
      max_bonus: '50000000000000',
      growth_rate: { numerator: '1', denominator: '100' },
      center_dz: { numerator: '1', denominator: '2' },
      radius_dz: { numerator: '1', denominator: '50' },
    },
    direct_ticket_spending_enable: false,
    aggregate_attestation: true,
    allow_tz4_delegate_enable: true,
    all_bakers_attest_activation_threshold: { numerator: 1, denominator: 2 },
    issuance_modification_delay: 2,
    consensus_key_activation_delay: 2,
    unstake_finalization_delay: 3,
    denunciation_period: 1,
    slashing_delay: 1,
  };
}
