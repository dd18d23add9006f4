/**
 * The registry's entries (./resources.ts) of verified source code (issue 38): the compilers the server
 * offers, a contract's verified source (404 when it has none), a submission (POST …/verify) and the
 * latest attempts. A source file's download (GET …/source/files/{name}) is a plain link, not JSON
 * (./verify-api.ts `sourceFileUrl`).
 */
import type { ContractSource, CompilerInfo, Verification, VerifyRequest } from '@michelscope/api-types';
import { action, contract, resource, type At } from './resource-builders';

export const VERIFY_RESOURCES = {
  /** The compilers and their versions (unavailable ones with the reason). */
  verifyCompilers: resource<void, CompilerInfo[]>(() => '/verify/compilers'),
  /** The verified source of the contract's script (its own or inherited from a same contract). */
  contractSource: resource<At, ContractSource>((p) => `${contract(p)}/source`),
  /** Submits sources: a verification, verified or failed (a mismatch is a result, not an error). */
  verifySource: action<At, VerifyRequest, Verification>((p) => `${contract(p)}/verify`, {
    // the compiler may take up to 20 s on the server, after its turn
    timeoutMs: 90_000,
  }),
  /** The last attempts for the contract's script hash, newest first. */
  verifications: resource<At, Verification[]>((p) => `${contract(p)}/verifications`),
};
