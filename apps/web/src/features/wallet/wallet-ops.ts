/**
 * What a connected wallet can do, independent of the wallet kind. Amounts are mutez; values are Micheline.
 */
import type { Micheline } from '@michelscope/michelson';

export interface WalletTransaction {
  kind: 'transaction';
  destination: string;
  /** mutez, as a string (spec §3 "Wallet transaction"). */
  amount: string;
  parameters: { entrypoint: string; value: Micheline };
}

export interface WalletOrigination {
  kind: 'origination';
  script: { code: Micheline; storage: Micheline };
  /** mutez */
  balance: string;
}

export interface InjectionResult {
  opHash: string;
  /** For an origination: the new contract's address when the wallet knows it. */
  contractAddress?: string | undefined;
}

export interface ConnectedWallet {
  kind: 'sandbox' | 'beacon';
  network: string;
  address: string;
  /** A short label: the bootstrap account name for the sandbox wallet. */
  label: string;
  send(ops: WalletTransaction[]): Promise<InjectionResult>;
  originate(op: WalletOrigination): Promise<InjectionResult>;
  /** Forgets the wallet's session (log out); nothing to do for the sandbox wallet. */
  disconnect?: () => Promise<void>;
}

/** The user closed or refused the wallet prompt: callers ignore it silently. */
export class WalletAbortedError extends Error {
  override readonly name = 'WalletAbortedError';
}
