/**
 * Verified source code (issue 38): query factories and the submission. A contract without a verified
 * source answers 204 (no body: a state, not an error, so the browser logs nothing); its query gives null then
 * (the frame hides the Source tab and the badge). A 404 (an unknown contract) gives null too.
 */
import { queryOptions } from '@tanstack/react-query';
import { API_BASE, ApiError } from './client';
import { contract, enc } from './resource-builders';
import { fetchResource, resourceKey, resourceQuery, runAction } from './resources';
import type { ContractSource, VerifyRequest } from '@michelscope/api-types';

/** GET …/source: the verified source, null when the contract has none (204) or is unknown (404). */
export const contractSourceQuery = (network: string, address: string) =>
  queryOptions({
    queryKey: resourceKey('contractSource', { network, address }),
    queryFn: async ({ signal }): Promise<ContractSource | null> => {
      try {
        // a 204's body is null
        return (await fetchResource('contractSource', { network, address }, { signal })) ?? null;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    staleTime: 60_000,
    retry: false,
    meta: { silent: true },
  });

/** GET /v1/verify/compilers. */
export const verifyCompilersQuery = () =>
  queryOptions({ ...resourceQuery('verifyCompilers'), staleTime: 5 * 60_000, retry: false });

/** POST …/verify: the verification (verified or failed); 400/413/422/429 throw an ApiError with the message. */
export const submitVerification = (network: string, address: string, body: VerifyRequest) =>
  runAction('verifySource', { network, address }, body);

/** The download URL of one source file (its name URL-encoded, '/' included). */
export const sourceFileUrl = (network: string, address: string, name: string) =>
  `${API_BASE}${contract({ network, address })}/source/files/${enc(name)}`;
