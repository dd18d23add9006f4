/**
 * Operation shapes: the API's (api-types), plus the one view shape of the account's operation list, whose
 * pending rows come from the mempool search instead of GET …/opg.
 */
import type { OPGResponse } from '@michelscope/api-types';

export type { ErrorLocation, Operation, OperationError } from '@michelscope/api-types';

/** A row of an account's operation list: GET /v1/contract/{network}/{address}/opg item, or a pending one. */
export type OpgRow = OPGResponse & { mempool?: boolean };
