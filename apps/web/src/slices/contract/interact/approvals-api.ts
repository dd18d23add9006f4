/** The token-approval helpers of the API: GET /v1/helpers/approve/schema and POST /v1/helpers/approve/data. */
import { queryOptions } from '@tanstack/react-query';
import type { ApproveData } from '@michelscope/api-types';
import { fetchResource, resourceKey, runAction } from '../../../api/resources';
import { approveDataBody, parseApprovalSchema, type ApprovalEntry } from './approvals';

/** The approval form shape (static on the server: fetched once). */
export const approvalSchemaQuery = () =>
  queryOptions({
    queryKey: resourceKey('approveSchema'),
    queryFn: ({ signal }) => fetchResource('approveSchema', undefined, { signal }).then(parseApprovalSchema),
    staleTime: Infinity,
  });

/** The approve and revoke calls of `entries` with the called contract as spender / operator. */
export async function fetchApproveData(entries: ApprovalEntry[], spender: string): Promise<ApproveData> {
  return runAction('approveData', undefined, approveDataBody(entries, spender));
}
