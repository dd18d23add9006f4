// Public API of @michelscope/engine: operation application shared by the sandbox and the what-if (issue 35):
// internal operations depth first with the backtrack rule, over the handlers each gives, and the storage
// accounting of lazy storage (big maps, Sapling states) and of contracts, over a store each provides.
export { applyLazyStorageDiff, exprBytes, type LazyStore } from './lazy-storage';
export { afterCall, originatedBytes } from './contract-storage';
export {
  applyInternalOperations,
  backtrack,
  type InternalDelegation,
  type InternalEvent,
  type InternalOrigination,
  type InternalRun,
  type InternalTransaction,
  type OperationHost,
} from './internal-operations';
export {
  applyDelegation,
  applyEvent,
  applyOrigination,
  applyTransaction,
  consume,
  isContractAddress,
  type ApplyContext,
  type ApplyPolicy,
  type ChainState,
  type ContractRecord,
  type Failure,
  type OkOrigination,
  type OkRun,
  type Origination,
  type Transaction,
  type TransactionResult,
} from './apply-operation';
