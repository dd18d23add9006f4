// The sandbox's side of the engine's operation application (`@michelscope/engine`, shared with the what-if): its
// `ChainState` over the state of the manager operation being applied (read at each use: the operation runs on a
// fork), the sandbox's policy (the protocol's rules: delegates checked, Unit only to implicit accounts, no
// empty transaction, tickets to implicit accounts) and its node errors for the engine's failures.
import type { ApplyContext, ChainState, Failure } from '@michelscope/engine';
import type { Expr } from '@michelscope/interpreter';
import { chainContext } from './chain-context';
import { applyLazyStorageDiff, exprSize } from './lazy-storage';
import type { NodeError } from './operation-types';
import { CHAIN_ID, PROTO_ERROR_PREFIX as P } from './protocol';
import { balanceTooLow, nextAddress, OpFailure, type Exec } from './exec-context';

const PROTO = P.slice('proto.'.length, -1);

function failure(id: string, fields: Record<string, unknown>, kind: NodeError['kind']): OpFailure {
  return new OpFailure([{ kind, id: `${P}${id}`, ...fields }]);
}

function scriptErrors(address: string, errors: NodeError[], kind: string): NodeError[] {
  if (kind === 'gas_exhausted' || kind === 'bad_contract_parameter') return errors;
  return [
    {
      kind: 'temporary',
      id: `${P}michelson_v1.runtime_error`,
      contract_handle: address,
      contract_code: 'Deprecated',
    },
    ...errors,
  ];
}

/** The node's errors for the engine's failures, as the sandbox has always answered them. */
export function nodeFailure(f: Failure): OpFailure {
  switch (f.kind) {
    case 'gas_exhausted':
      return failure('gas_exhausted.operation', {}, 'temporary');
    case 'non_existing_contract':
      return failure('contract.non_existing_contract', { contract: f.contract }, 'temporary');
    case 'bad_contract_parameter':
      return failure('michelson_v1.bad_contract_parameter', { contract: f.contract }, 'permanent');
    case 'empty_transaction':
      return failure('contract.empty_transaction', { contract: f.contract }, 'branch');
    case 'script_failed':
      return new OpFailure(
        scriptErrors(f.contract, f.run.error.toOctez(PROTO), f.run.error.kind),
        f.milligas,
      );
    case 'origination_failed':
      return new OpFailure(f.run.error.toOctez(PROTO));
    case 'unregistered_delegate':
      return failure('contract.manager.unregistered_delegate', { hash: f.delegate }, 'permanent');
    case 'duplicate_contract':
      return failure('contract.duplicate_contract', { contract: f.contract }, 'permanent');
  }
}

/** The state a manager content runs on, for the engine. */
function chainStateOf(ex: Exec): ChainState {
  return {
    contract: (address) => {
      const c = ex.state.contract(address);
      if (!c) return null;
      return {
        code: c.code as Expr,
        storage: c.storage,
        get storageBytes() {
          return exprSize(c.storage);
        },
        used: BigInt(c.used),
        paid: BigInt(c.paid),
      };
    },
    balance: (address) => ex.state.balance(address),
    move: (from, to, amount) => {
      const source = from!;
      const balance = ex.state.balance(source);
      if (balance < amount) throw new OpFailure(balanceTooLow(source, balance, amount));
      if (amount === 0n) return;
      ex.state.credit(source, -amount);
      ex.state.credit(to, amount);
    },
    allocates: (address) => ex.state.implicit(address) === undefined,
    openAccount: (address) => ex.state.credit(address, 0n),
    applyLazy: (diff) => applyLazyStorageDiff(ex.state, diff),
    update: (address, u) => {
      const c = ex.state.contract(address)!;
      ex.state.setContract(address, {
        ...c,
        ...(u.storage !== undefined ? { storage: u.storage } : {}),
        used: String(u.used),
        paid: String(u.paid),
      });
    },
    create: (address, o) => {
      ex.state.setContract(address, {
        balance: '0',
        code: o.code as Expr[],
        storage: o.run.storage,
        used: '0',
        paid: '0',
        level: ex.level,
        ...(o.delegate ? { delegate: o.delegate } : {}),
      });
      return exprSize(o.run.storage);
    },
    nextAddress: () => nextAddress(ex.group),
    setDelegate: (source, delegate) => {
      const { delegate: _old, ...rest } = ex.state.contract(source)!;
      ex.state.setContract(source, delegate ? { ...rest, delegate } : rest);
    },
    allocateBigMapId: () => ex.state.nextBigMapId(),
    allocateTemporaryBigMapId: () => (ex.lastTemporaryBigMap -= 1n),
    allocateSaplingId: () => ex.state.nextSaplingId(),
    allocateTemporarySaplingId: () => (ex.lastTemporarySapling = (ex.lastTemporarySapling ?? 0n) - 1n),
  };
}

/**
 * The engine's context for one operation of a manager content: its gas is the content's (`ex.gasLeft`); a
 * call's registry entries (`address_registry_diff`) are pushed to `indexed`.
 */
export function applyContext(
  ex: Exec,
  indexed: Array<{ address: string; index: string }> = [],
): ApplyContext {
  return {
    state: chainStateOf(ex),
    policy: {
      implicitParameter: 'unit',
      emptyTransactionFails: true,
      implicitTickets: true,
      isDelegate: (address) => ex.state.isDelegate(address),
    },
    gas: {
      get left() {
        return ex.gasLeft;
      },
      set left(v: bigint) {
        ex.gasLeft = v;
      },
    },
    fail: nodeFailure,
    chain: (purpose) =>
      purpose === 'origination'
        ? chainContext(ex.state)
        : chainContext(ex.state, {
            nextOriginatedAddress: () => nextAddress(ex.group),
            ...(ex.listings ? { listings: ex.listings } : {}),
            onAddressIndexed: (address, index) => indexed.push({ address, index: String(index) }),
          }),
    env: {
      now: ex.now,
      level: BigInt(ex.level),
      chainId: CHAIN_ID,
      source: ex.payer,
      unparsingMode: 'Optimized',
    },
  };
}
