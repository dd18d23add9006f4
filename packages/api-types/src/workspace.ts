/**
 * The workspace's requests and answers (workspace spec: Interact, Views, Fork): a simulated call
 * (…/entrypoints/trace and …/run_operation), an off-chain view's form
 * (POST /off_chain_view) and a fork's origination parts (POST /fork).
 */
import { Type, type Static } from '@sinclair/typebox';
import { NetworkName } from './common';
import { Micheline } from './explorer';

const Mutez = Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }));
const Addr = Type.Optional(Type.String({ maxLength: 64 }));

/** A call to simulate: an entrypoint with its form data, and who sends it with how much. */
export const CallRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    data: Type.Unknown({ description: 'the entrypoint form data' }),
    amount: Mutez,
    gas_limit: Mutez,
    storage_limit: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description:
          'bytes of paid storage the call may use (run_operation; default and cap: the node’s ' +
          'hard_storage_limit_per_operation): a call that needs more fails with storage_exhausted.operation',
      }),
    ),
    source: Addr,
    sender: Addr,
  },
  { title: 'CallRequest' },
);
export type CallRequest = Static<typeof CallRequest>;

/** A TZIP-16 off-chain view as the contract metadata declares it. */
export const OffChainViewRequest = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    implementations: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 100 })),
  },
  { title: 'OffChainViewRequest' },
);
export type OffChainViewRequest = Static<typeof OffChainViewRequest>;

/** The largest Michelson file POST /michelson reads (bytes); a fork's script JSON may take 4 times that. */
export const MICHELSON_FILE_LIMIT = 1_000_000;

/** A fork: a contract (network and address) or a script (Micheline JSON text), and its storage form data. */
export const ForkRequest = Type.Object(
  {
    address: Type.Optional(Type.String({ maxLength: 64 })),
    network: Type.Optional(NetworkName),
    script: Type.Optional(Type.String({ maxLength: MICHELSON_FILE_LIMIT * 4 })),
    storage: Type.Unknown(),
  },
  { title: 'ForkRequest' },
);
export type ForkRequest = Static<typeof ForkRequest>;

/** The code and storage of a new origination, from a contract (or a script) and a storage form. */
export const ForkResult = Type.Object({ code: Micheline, storage: Micheline }, { title: 'ForkResult' });
export type ForkResult = Static<typeof ForkResult>;

/**
 * A contract's script as the node's RPC writes it (…/context/contracts/{address}/script), read through the
 * server's pass-through (not validated by the API: the node's answer as it is).
 */
export interface NodeScript {
  code: Micheline[];
  storage: Micheline;
}

/*
 * Other node RPC answers the web reads through the pass-through (/rpc/{network}/…): the node's shapes as it
 * writes them, not validated by the API.
 */
/** …/blocks/{block}/context/constants: the protocol's constants (64-bit figures as decimal strings). */
export type NodeConstants = Record<string, unknown>;
/** A figure the node writes as a decimal string (…/total_bytes, …/used_space, …/paid_space, …/counter). */
export type NodeNumber = string | number;
/** …/blocks/{head or level}/header: the fields the web reads. */
export interface NodeBlockHeader {
  hash: string;
  level: number;
  /** RFC 3339 */
  timestamp: string;
}
/** The body of …/blocks/head/helpers/scripts/simulate_operation: an unsigned operation and the chain. */
export interface NodeSimulateRequest {
  operation: { branch: string; contents: Record<string, unknown>[]; signature: string };
  chain_id: string;
}
/** The answer of simulate_operation: the operation with each content's metadata (shapes vary by protocol). */
export type NodeSimulateResult = Record<string, unknown>;
