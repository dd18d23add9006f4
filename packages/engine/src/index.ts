// Public API of @michelscope/engine: operation application shared by the sandbox and the what-if (issue 35):
// the storage accounting of lazy storage (big maps, Sapling states) and of contracts, over a store each provides.
export { applyLazyStorageDiff, exprBytes, type LazyStore } from './lazy-storage';
export { afterCall, originatedBytes } from './contract-storage';
