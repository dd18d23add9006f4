/**
 * @michelscope/db/write — the only write API of the database, used by the indexer (the only writer).
 * Every function that writes runs in one transaction and checks the stored chain before writing.
 */
export {
  applyBlock,
  applyBlocks,
  revertBlock,
  refuseRevertOverPruned,
  ChainConsistencyError,
  type BlockRecord,
  type BlockWrite,
  type IndexerHead,
  type ProtocolRecord,
} from './blocks';
export { prepareRows } from './chain-data';
export { canCopy as writesOverServer } from './copy';
export { getBlockHash, getCurrentProtocol, getIndexerHead, type CurrentProtocol } from './state';
export * from './block-data';
export * from './metadata-store';
export {
  parsedWithoutScript,
  pendingAddressRequests,
  pruneAddressRequests,
  writeAdoptions,
  type Adoption,
  type AddressOutcome,
  type Reparsed,
} from './adopt';
export {
  historyFloor,
  nextBackfill,
  openBackfills,
  saveBackfill,
  storedLevels,
  storedProtocol,
  writeBackfillBlock,
  type BackfillJob,
} from './backfill';
export { heldBackfillBlocks, redoLevels, redone } from './backfill-undo';
export { FINALITY } from './undo';
