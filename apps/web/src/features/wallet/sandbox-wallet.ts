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

/** Batch margins: extra gas and storage over an estimate, and the fee of the extra gas. */
export const GAS_MARGIN = 1000;
export const STORAGE_MARGIN = 100;

/** The limits and fee of one batched operation from Taquito's estimate plus the margins. */
export function withMargin(
  e: { gasLimit: number; storageLimit: number; suggestedFeeMutez: number } | undefined,
): { gasLimit?: number; storageLimit?: number; fee?: number } {
  if (!e) return {};
  return {
    gasLimit: e.gasLimit + GAS_MARGIN,
    storageLimit: e.storageLimit + STORAGE_MARGIN,
    // 0.1 mutez per gas unit of the extra gas, rounded up.
    fee: e.suggestedFeeMutez + Math.ceil(GAS_MARGIN / 10),
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
  const [{ TezosToolkit, OpKind }, { InMemorySigner }] = await Promise.all([
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
      // Batches carry a safety margin over the estimate: the sandbox can charge a little more gas when it
      // applies a batch than when it simulates it (Taquito's own margin is only 100 gas per operation).
      const params = ops.map(toTransferParams);
      const estimates = await toolkit.estimate.batch(params.map((p) => ({ kind: OpKind.TRANSACTION, ...p })));
      let batch = toolkit.contract.batch();
      params.forEach((p, i) => {
        batch = batch.withTransfer({ ...p, ...withMargin(estimates[i]) });
      });
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
