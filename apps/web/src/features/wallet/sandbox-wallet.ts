/**
 * The sandbox wallet: signs in the browser with a bootstrap account through Taquito's InMemorySigner,
 * talking to the node RPC pass-through `/rpc/{network}` of this origin. Taquito loads only when used.
 */
import type { SandboxAccount } from './sandbox-accounts';
import type { ConnectedWallet, InjectionResult, WalletOrigination, WalletTransaction } from './wallet-ops';

/** The RPC base of a network on this origin. */
export function rpcUrl(network: string, origin: string): string {
  return `${origin}/rpc/${encodeURIComponent(network)}`;
}

/** Taquito's transfer parameters for one wallet transaction (amount in mutez). */
export function toTransferParams(tx: WalletTransaction) {
  const amount = Number(tx.amount);
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`Invalid amount: ${tx.amount}`);
  return {
    to: tx.destination,
    amount,
    mutez: true,
    parameter: { entrypoint: tx.parameters.entrypoint, value: tx.parameters.value as object },
  };
}

/** Taquito's signer expects Node's Buffer global: the `buffer` package provides it in the browser. */
async function ensureBuffer(): Promise<void> {
  const g = globalThis as { Buffer?: unknown };
  if (g.Buffer) return;
  g.Buffer = (await import('buffer')).Buffer;
}

export async function createSandboxWallet(
  network: string,
  account: SandboxAccount,
  origin: string,
): Promise<ConnectedWallet> {
  await ensureBuffer();
  const [{ TezosToolkit }, { InMemorySigner }] = await Promise.all([
    import('@taquito/taquito'),
    import('@taquito/signer'),
  ]);
  const toolkit = new TezosToolkit(rpcUrl(network, origin));
  toolkit.setSignerProvider(await InMemorySigner.fromSecretKey(account.sk));

  return {
    kind: 'sandbox',
    network,
    address: account.pkh,
    label: account.name,
    async send(ops: WalletTransaction[]): Promise<InjectionResult> {
      if (ops.length === 0) throw new Error('Nothing to send');
      if (ops.length === 1) {
        const op = await toolkit.contract.transfer(toTransferParams(ops[0]!));
        return { opHash: op.hash };
      }
      let batch = toolkit.contract.batch();
      for (const tx of ops) batch = batch.withTransfer(toTransferParams(tx));
      const op = await batch.send();
      return { opHash: op.hash };
    },
    async originate(op: WalletOrigination): Promise<InjectionResult> {
      const balance = Number(op.balance || '0');
      const res = await toolkit.contract.originate({
        code: op.script.code as object[],
        init: op.script.storage as object,
        balance: String(balance),
        mutez: true,
      });
      return { opHash: res.hash, contractAddress: res.contractAddress };
    },
  };
}
