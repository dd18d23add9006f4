/**
 * Gas parameters in milligas (1 gas = 1000 milligas), after Octez's `michelson_v1_gas_costs_generated.ml`
 * (Ushuaia) as also tabulated by MIR's `gas.rs`. The size-dependent formulas that use these figures are
 * in `gas.ts`; exactness everywhere is not claimed.
 */

/** Flat cost of an instruction, charged before it runs. */
export const BASE_COST: Record<string, number> = {
  DROP: 10,
  DUP: 10,
  SWAP: 10,
  PUSH: 10,
  UNIT: 10,
  CAR: 10,
  CDR: 10,
  PAIR: 10,
  UNPAIR: 10,
  SOME: 10,
  NONE: 10,
  IF_NONE: 10,
  LEFT: 10,
  RIGHT: 10,
  IF_LEFT: 10,
  NIL: 10,
  CONS: 10,
  IF_CONS: 10,
  IF: 10,
  LOOP: 10,
  LOOP_LEFT: 10,
  DIP: 10,
  EXEC: 10,
  LAMBDA: 10,
  LAMBDA_REC: 10,
  APPLY: 140,
  FAILWITH: 167,
  NEVER: 10,
  CAST: 0,
  RENAME: 0,
  DIG: 10,
  DUG: 10,
  EMPTY_SET: 300,
  EMPTY_MAP: 300,
  EMPTY_BIG_MAP: 300,
  // Octez cost_N_ISapling_empty_state (tezt expected output of sapling_empty_state.tz: 0.300 gas)
  SAPLING_EMPTY_STATE: 300,
  SIZE: 10,
  ITER: 20,
  MAP: 20,
  ADD: 35,
  SUB: 35,
  SUB_MUTEZ: 15,
  MUL: 45,
  EDIV: 80,
  ABS: 20,
  ISNAT: 10,
  INT: 10,
  NEG: 25,
  LSL: 50,
  LSR: 45,
  AND: 35,
  OR: 35,
  XOR: 35,
  NOT: 25,
  COMPARE: 35,
  EQ: 10,
  NEQ: 10,
  LT: 10,
  GT: 10,
  LE: 10,
  GE: 10,
  BYTES: 40,
  NAT: 40,
  CONCAT: 45,
  SLICE: 25,
  MEM: 80,
  GET: 80,
  UPDATE: 130,
  GET_AND_UPDATE: 150,
  PACK: 260,
  UNPACK: 280,
  AMOUNT: 10,
  BALANCE: 10,
  NOW: 10,
  LEVEL: 10,
  CHAIN_ID: 15,
  SELF: 10,
  SELF_ADDRESS: 10,
  SENDER: 10,
  SOURCE: 10,
  ADDRESS: 10,
  CONTRACT: 30,
  IMPLICIT_ACCOUNT: 10,
  IS_IMPLICIT_ACCOUNT: 10,
  TRANSFER_TOKENS: 120,
  SET_DELEGATE: 60,
  CREATE_CONTRACT: 60,
  EMIT: 30,
  MIN_BLOCK_TIME: 20,
  VOTING_POWER: 640,
  TOTAL_VOTING_POWER: 450,
  VIEW: 1460,
  HASH_KEY: 605,
  BLAKE2B: 430,
  SHA256: 600,
  SHA512: 680,
  KECCAK: 1350,
  SHA3: 1350,
  CHECK_SIGNATURE: 65800,
  PAIRING_CHECK: 450000,
  TICKET: 10,
  READ_TICKET: 10,
  SPLIT_TICKET: 40,
  JOIN_TICKETS: 75,
};
export const DEFAULT_COST = 10;

/** Signature checks by scheme (milligas). */
export const CHECK_SIGNATURE_COST = { ed25519: 65800, secp256k1: 51600, p256: 990000, bls: 1570000 } as const;

/** BLS12-381 arithmetic (milligas). */
export const BLS_COST = {
  addG1: 900,
  addG2: 2470,
  addFr: 30,
  mulG1: 103000,
  mulG2: 220000,
  mulFr: 45,
  negG1: 50,
  negG2: 70,
  negFr: 30,
  pairingBase: 450000,
  pairingPerPair: 342500,
} as const;

/**
 * Storage access (milligas, Octez `Storage_costs`): reads 200 gas + per byte (+ 5 gas per path segment, see
 * `BIG_MAP_READ` in gas-typecheck.ts, which itemises big-map reads); writes are charged at commit.
 */
export const STORAGE_COST = { read: 200_000, readPerByte: 2, write: 200_000, writePerByte: 4 } as const;

/** Hard limits (Ushuaia default_parameters). */
export const LIMITS = {
  hardGasLimitPerOperation: 1_040_000_000, // milligas
  hardStorageLimitPerOperation: 60_000,
  costPerByte: 250n,
  originationSize: 257,
  managerOperationGas: 100_000, // milligas
} as const;

/**
 * Bytes of the parts of a contract's storage that are not its values (Octez lazy_storage_diff.ml and
 * script_repr): a big map created empty (besides its key and value types), a big-map key (besides its value),
 * a Sapling state created empty (`Sapling_state.bytes_size_for_empty`), and the length prefixes of a script's
 * code and storage (4 bytes each). The sandbox and the what-if account storage with these (`@michelscope/engine`).
 */
export const STORAGE_BYTES = {
  bigMapAlloc: 33n,
  bigMapKey: 65n,
  saplingStateAlloc: 33n,
  scriptPrefix: 8n,
} as const;

/**
 * Gas of the parts of an operation the interpreter does not meter (milligas): loading code and storage and
 * writing them back, calibrated on Octez's recorded figures for store_input.tz (578.254 gas to originate,
 * 1279.192 to call); a smart-rollup origination is the figure Octez recorded for a 408-byte wasm kernel
 * (2,748.269 gas, of which 100 for the manager operation). The sandbox charges these.
 */
export const OPERATION_COST = {
  manager: LIMITS.managerOperationGas,
  call: 1_175_000,
  origination: 474_000,
  internalTransfer: 100_000,
  event: 100_000,
  smartRollupOrigination: 2_748_269,
} as const;
