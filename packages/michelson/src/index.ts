/**
 * @michelscope/michelson — pure Michelson data layer (Node and browser, no I/O).
 *
 * Micheline <-> Michelson text, formatting, typed trees, Typedef docs, JSON-schema forms and
 * default models, form data -> Micheline, Miguel value trees, storage diffs, entrypoints, tags and
 * hashes — matching the Better Call Dev reference case for case (see README.md).
 */
export type {
  Micheline,
  MichelinePrim,
  MichelineInt,
  MichelineString,
  MichelineBytes,
} from './micheline-core';
export {
  MichelsonDataError,
  toMicheline,
  walkMicheline,
  jsonNestedTooDeeply,
  inputExcess,
  MAX_INT_DIGITS,
  textNestedTooDeeply,
  MAX_INPUT_DEPTH,
  isPrim,
  isInt,
  isString,
  isBytes,
} from './micheline-core';
// The text parser (@taquito/michel-codec) is its own module: pages that only read Micheline skip it.
export type { ParseOptions } from './micheline';
export { parseMichelsonScript, parseMichelsonExpression, expandMicheline } from './micheline';
export type { FormatOptions, NodeSpan, TextLocation } from './format';
export {
  formatMichelson,
  formatMichelsonInline,
  formatWithLocations,
  locateNode,
  errorWindow,
  DEFAULT_LINE_SIZE,
} from './format';
export type { ErrorWindow } from './format';
export { CHECKPOINT_EVERY, TraceBuilder, changedAt, gasOfStep, stackAt } from './debug-trace';
export type { CompactTrace, TraceItem } from './debug-trace';
export type { TypeNode, EntrypointLeaf } from './type-tree';
export { buildTypeTree, entrypointLeaves, scriptSection, typeToMicheline } from './type-tree';
export type { Typedef, TypedefArg, EntrypointDoc } from './typedef';
export { typedef, typedefOf, entrypointsDocs, entrypointsDocsOf } from './typedef';
export type { JsonSchema } from './json-schema';
export { jsonSchema, schemaOf, entrypointSchemaOf, wrapEntrypointSchema, contractTag } from './json-schema';
export {
  formToMicheline,
  parametersForExecution,
  FormValidationError,
  FORM_MESSAGES,
  checkNat,
  checkBytes,
  checkAddress,
  checkContract,
} from './form-data';
export type { MiguelNode, DiffType } from './miguel';
export { toMiguel, toMiguelNode, keyText, readableText, readableValue } from './miguel';
export { diffValues } from './diff';
export type { ComparableType } from './compare';
export { compareValues, compareAddresses } from './compare';
export { readableBytes, tryUnpack, bytesToText, formatFailwithValue } from './bytes';
export { isTypeEqualShape } from './type-equal';
export type { FormModel } from './default-model';
export { modelOf, storageModel, entrypointModel, emptyModel } from './default-model';
export type { FindEntrypointOptions, FoundEntrypoint, Parameters } from './entrypoints';
export {
  entrypointNames,
  findEntrypoint,
  entrypointType,
  resolveEntrypoint,
  storedEntrypointNames,
  fromParameters,
  toParameters,
  decodeParameters,
  findByName,
  NAMED_ENTRYPOINTS,
} from './entrypoints';
export type { Tag, InterfaceName } from './tags';
export { TAG_BITS, scriptTags, tagsMask, tagsFromMask, hasInterface, contractInterfaces } from './tags';
export { packData, unpackData } from './pack';
export { bytesToHex, hexToBytes, isHex } from './hex';
export type { SigScheme } from './binary-forms';
export {
  addressFromHex,
  addressToHex,
  chainIdFromHex,
  chainIdToHex,
  contractHashFromBytes,
  exprHash,
  keyBinLength,
  keyFromHex,
  keyHashB58FromRaw,
  keyHashFromHex,
  keyHashToHex,
  keyToHex,
  l2AddressFromHex,
  l2AddressToHex,
  operationHashFromBytes,
  signatureFromHex,
  signatureToHex,
  splitAddress,
} from './binary-forms';
export {
  packValue,
  exprHashOf,
  originatedContractAddress,
  scriptExpressionHash,
  bigMapKeyHash,
  globalConstantHash,
  scriptHash,
  ticketHash,
} from './hash';
export type { ScriptView } from './script-facts';
export {
  failStrings,
  annotations,
  globalConstantsOf,
  expandGlobalConstants,
  isPackedLambda,
  lambdasInValue,
  scriptViews,
} from './script-facts';
export { valueStrings } from './script-facts';
export type { ValueForm, BigMapDiffEntry } from './value-forms';
export { normalizeValue, enrichBigMaps, bigMapPointers } from './value-forms';
export type { UnparsingMode } from './normalize-data';
export { normalizeData } from './normalize-data';
export { decodeAddressBytes, unixToRfc3339, parseTimestamp } from './value';
export {
  encodeMicheline,
  decodeMicheline,
  forgeMicheline,
  unforgeMicheline,
  forgeInt,
  unforgeInt,
  zarithBytes,
  zarithValue,
  forgeString,
  unforgeString,
  forgeAddress,
  unforgeAddress,
  unforgePublicKey,
} from './binary';
export { bytesAsAddress } from './bytes';
export type { Base58Prefix } from './base58';
export {
  BASE58_PREFIXES,
  base58Prefix,
  encodeBase58,
  decodeBase58,
  decodeBase58Raw,
  isBase58With,
} from './base58';
export type { ValueTextKind } from './validators';
export {
  isEntrypointName,
  isAddressValue,
  isContractValue,
  isBakerHashValue,
  isPublicKeyValue,
  isBytesValue,
  isChainIdValue,
  isSignatureValue,
  validateValueText,
  isContractLiteral,
  isAddressLiteral,
  isBakerHashLiteral,
  ADDRESS_PARAM,
  CONTRACT_PARAM,
  SMART_ROLLUP_PARAM,
  isAddressParam,
  isContractParam,
  isSmartRollupParam,
  isOpgHashParam,
  isGlobalConstantParam,
  isNetworkParam,
  isMaxSizeParam,
  isFillTypeParam,
  isLevelRange,
  isStatusListParam,
  isFaVersionParam,
  isSearchParam,
  API_VALIDATORS,
  validatorMessage,
} from './validators';
export { OrderedMap } from './ordered-map';
export { forEachNodePath } from './node-paths';
export type { OffchainView } from './offchain-view';
export { offchainViewScript, offchainViewInput, offchainViewResult } from './offchain-view';
export { unforgeBakerHash, forgeBakerHash } from './binary';
export type { TezosError, TezosErrorDetails, TezosErrorDescription, TezosErrorJson } from './tezos-errors';
export {
  tezosErrorKey,
  tezosErrorDescription,
  isTezosError,
  parseTezosError,
  parseTezosErrors,
  formatTezosError,
  formatTezosErrors,
} from './tezos-errors';
export type { RunCodeOperation } from './run-results';
export { eventPayloadMiguel, runCodeOperations } from './run-results';
export {
  ADDRESS_PREFIXES,
  ADDRESS_PATTERN,
  CONTRACT_PATTERN,
  SMART_ROLLUP_PATTERN,
  OPERATION_HASH_PATTERN,
  SCRIPT_EXPR_PATTERN,
  isAddress,
  isImplicitAddress,
  isContractAddress,
  isSmartRollupAddress,
  isOperationHash,
  isScriptExprHash,
} from './address';
export type { AddressPrefix } from './address';
