/** Wallet texts of the workspace spec §8. */
export const WALLET_MESSAGES = {
  aborted: 'Connection with the wallet has been aborted.',
  txError: 'Something is wrong with either the network or the transaction.',
  injected: 'Operation has been sucessfully injected',
  broadcasted: 'The transaction has successfully been broadcasted to the network.',
  wrongNetwork: 'The networks of the active wallet and the current contract do not match.',
} as const;
