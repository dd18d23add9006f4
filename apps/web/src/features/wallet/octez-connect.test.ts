import { describe, expect, it } from 'vitest';
import { accountNetwork, isUserAbort, PERMISSION_SCOPES, walletNetwork } from './octez-connect';

describe('octez.connect wallet', () => {
  it('asks for the operation request and sign scopes', () => {
    expect([...PERMISSION_SCOPES]).toEqual(['operation_request', 'sign']);
  });

  it('recognises a user abort (ignored silently) but not other wallet errors', () => {
    expect(isUserAbort({ errorType: 'ABORTED_ERROR' })).toBe(true);
    expect(isUserAbort(Object.assign(new Error('x'), { name: 'AbortedBeaconError' }))).toBe(true);
    expect(isUserAbort({ errorType: 'NETWORK_NOT_SUPPORTED' })).toBe(false);
    expect(isUserAbort(new Error('boom'))).toBe(false);
    expect(isUserAbort(null)).toBe(false);
  });

  it('names public networks and gives other networks a custom RPC on this origin', () => {
    expect(walletNetwork('mainnet', 'https://x.test')).toEqual({ type: 'mainnet' });
    expect(walletNetwork('ghostnet', 'https://x.test')).toEqual({ type: 'ghostnet' });
    expect(walletNetwork('mondaynet', 'https://x.test')).toEqual({
      type: 'custom',
      name: 'mondaynet',
      rpcUrl: 'https://x.test/rpc/mondaynet',
    });
  });

  it("reads the account's network, so that a mismatch with the page can be detected", () => {
    expect(accountNetwork({ network: { type: 'ghostnet' } })).toBe('ghostnet');
    expect(accountNetwork({ network: { type: 'custom', name: 'mondaynet' } })).toBe('mondaynet');
    expect(accountNetwork({})).toBe('');
  });
});
