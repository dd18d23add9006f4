// What one manager content shares while it runs (its state, gas and failures) and the sandbox's node errors:
// the context of execute.ts, of the engine's ChainState over the sandbox (chain-state.ts) and of smart rollups.
import { originatedContractAddress } from '@michelscope/michelson';
import { OPERATION_COST } from '@michelscope/interpreter';
import type { NodeError } from './operation-types';
import { PROTO_ERROR_PREFIX as P } from './protocol';
import type { Listings } from './voting';
import type { State } from './state';

export type Origin = 'block' | 'simulation';

/** Gas of the parts the interpreter does not meter: its `OPERATION_COST` parameters, as bigints. */
export const MANAGER_MILLIGAS = BigInt(OPERATION_COST.manager);
export const CALL_MILLIGAS = BigInt(OPERATION_COST.call);
export const ORIGINATION_MILLIGAS = BigInt(OPERATION_COST.origination);
export const INTERNAL_TRANSFER_MILLIGAS = BigInt(OPERATION_COST.internalTransfer);
export const EVENT_MILLIGAS = BigInt(OPERATION_COST.event);

/** What one operation group shares: its hash and the index of the next originated contract. */
export interface Group {
  hash: string;
  originations: number;
}

/** What one manager content shares while it runs. */
export interface Exec {
  state: State;
  group: Group;
  payer: string;
  origin: Origin;
  level: number;
  /** Block timestamp, seconds. */
  now: bigint;
  /** The voting listings of the block's context (VOTING_POWER). */
  listings?: () => Listings;
  gasLeft: bigint;
  nonce: number;
  /** Last temporary big-map id given out in this manager content (0, then -1, -2, …). */
  lastTemporaryBigMap: bigint;
  /** The same for Sapling states (a counter of their own, as Octez's Temp_ids). */
  lastTemporarySapling?: bigint;
}

export class OpFailure extends Error {
  constructor(
    readonly errors: NodeError[],
    /** Gas used before failing (reported on `failed` results). */
    readonly milligas?: bigint,
  ) {
    super(errors.map((e) => e.id).join(', '));
  }
}

export function fail(
  id: string,
  fields: Record<string, unknown> = {},
  kind: NodeError['kind'] = 'temporary',
): never {
  throw new OpFailure([{ kind, id: `${P}${id}`, ...fields }]);
}

export function consume(ex: Exec, milligas: bigint): void {
  ex.gasLeft -= milligas;
  if (ex.gasLeft < 0n) fail('gas_exhausted.operation');
}

/** KT1 address of the n-th contract originated by an operation: michelson's (Octez Contract_hash.of_nonce). */
export const originatedAddress = originatedContractAddress;

export function nextAddress(group: Group): string {
  return originatedAddress(group.hash, group.originations++);
}

export function balanceTooLow(contract: string, balance: bigint, amount: bigint): NodeError[] {
  return [
    {
      kind: 'temporary',
      id: `${P}contract.balance_too_low`,
      contract,
      balance: String(balance),
      amount: String(amount),
    },
    { kind: 'temporary', id: `${P}tez.subtraction_underflow`, amounts: [String(balance), String(amount)] },
  ];
}
