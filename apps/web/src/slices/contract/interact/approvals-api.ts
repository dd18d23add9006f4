/** The token-approval helpers of the API: GET /v1/helpers/approve/schema and POST /v1/helpers/approve/data. */
import { queryOptions } from '@tanstack/react-query';
import { API_BASE, getJson, requestJson } from '../../../api/client';
import {
  approveDataBody,
  parseApprovalSchema,
  parseApproveData,
  type ApprovalEntry,
  type ApproveData,
} from './approvals';

/** The approval form shape (static on the server: fetched once). */
export const approvalSchemaQuery = () =>
  queryOptions({
    queryKey: ['helpers', 'approve', 'schema'] as const,
    queryFn: ({ signal }) => getJson('/helpers/approve/schema', { signal }).then(parseApprovalSchema),
    staleTime: Infinity,
  });

/** The approve and revoke calls of `entries` with the called contract as spender / operator. */
export async function fetchApproveData(entries: ApprovalEntry[], spender: string): Promise<ApproveData> {
  const res = await requestJson(`${API_BASE}/helpers/approve/data`, {
    method: 'POST',
    body: approveDataBody(entries, spender),
  });
  return parseApproveData(res.body);
}
