/**
 * Wallets on public networks: octez.connect (Beacon's successor, `@tezos-x/octez.connect-dapp`) driven
 * through Taquito. A small Taquito WalletProvider maps transfers and originations to octez.connect
 * operation requests, so every send goes `TezosToolkit.wallet` → `DAppClient.requestOperation`.
 * The SDK loads only when someone connects.
 */
import type { WalletOriginateParams, WalletProvider, WalletTransferParams } from '@taquito/taquito';
import type { ConnectedWallet, InjectionResult, WalletOrigination, WalletTransaction } from './wallet-ops';
import { WalletAbortedError } from './wallet-ops';
import { WALLET_MESSAGES } from './wallet-messages';
import { toTransferParams, rpcUrl } from './sandbox-wallet';

/** The permission scopes asked of the wallet: operation requests and signing. */
export const PERMISSION_SCOPES = ['operation_request', 'sign'] as const;

export const DAPP_NAME = 'Michelscope';

/** The user closed or refused the wallet prompt (octez.connect's ABORTED_ERROR): ignored silently. */
export function isUserAbort(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const err = e as { errorType?: unknown; name?: unknown };
  return err.errorType === 'ABORTED_ERROR' || err.name === 'AbortedBeaconError';
}

/**
 * octez.connect's network of an explorer network: the named networks it knows, else a custom network
 * with this origin's RPC pass-through.
 */
export function walletNetwork(
  network: string,
  origin: string,
): { type: string; rpcUrl?: string; name?: string } {
  const known = ['mainnet', 'ghostnet', 'weeklynet', 'dailynet', 'shadownet', 'tallinnnet', 'ushuaianet'];
  return known.includes(network)
    ? { type: network }
    : { type: 'custom', name: network, rpcUrl: rpcUrl(network, origin) };
}

/** The explorer network an account was granted on (custom networks carry our name). */
export function accountNetwork(account: { network?: { type?: string; name?: string } }): string {
  const n = account.network;
  if (!n?.type) return '';
  return n.type === 'custom' ? (n.name ?? 'custom') : n.type;
}

/** Rejections of the wallet become WalletAbortedError when the user aborted. */
async function wrap<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isUserAbort(e)) throw new WalletAbortedError('aborted in the wallet');
    throw e;
  }
}

interface DAppClientLike {
  requestPermissions(input: { scopes: string[] }): Promise<{ address: string; publicKey?: string }>;
  getActiveAccount(): Promise<
    { address: string; publicKey?: string; network?: { type?: string; name?: string } } | undefined
  >;
  requestOperation(input: { operationDetails: unknown[] }): Promise<{ transactionHash: string }>;
  requestSignPayload(input: { payload: string }): Promise<{ signature: string }>;
  clearActiveAccount(): Promise<void>;
  destroy(): Promise<void>;
}

/** Drops what the wallet fills in itself (fees and limits left undefined by Taquito). */
function forWallet(op: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(op).filter(([, v]) => v !== undefined));
}

let client: DAppClientLike | null = null;
let clientNetwork = '';

/** One DAppClient at a time, for the network it was made for (octez.connect fixes it at construction). */
async function dappClient(network: string, origin: string): Promise<DAppClientLike> {
  if (client && clientNetwork === network) return client;
  await client?.destroy();
  client = null;
  clientNetwork = network;
  const g = globalThis as { Buffer?: unknown };
  if (!g.Buffer) g.Buffer = (await import('buffer')).Buffer;
  const { DAppClient, NetworkType } = await import('@tezos-x/octez.connect-dapp');
  const wanted = walletNetwork(network, origin);
  // octez.connect's network type is an enum of the same strings
  const type = Object.values(NetworkType).find((t) => String(t) === wanted.type) ?? NetworkType.CUSTOM;
  client = new DAppClient({ name: DAPP_NAME, network: { ...wanted, type } }) as unknown as DAppClientLike;
  return client;
}

/** Forgets the connected account (the menu's "Log out"). */
export async function disconnectOctezConnect(): Promise<void> {
  await client?.clearActiveAccount();
}

/**
 * Connects a wallet through octez.connect: reuses the active account when there is one (no repeated
 * permission request), else asks for the permission scopes. Rejects with WalletAbortedError when the user
 * closes the prompt.
 */
export async function createOctezConnectWallet(
  network: string,
  origin: string,
  options: { fresh?: boolean } = {},
): Promise<ConnectedWallet> {
  const dapp = await dappClient(network, origin);
  if (options.fresh) await dapp.clearActiveAccount();
  let active = await dapp.getActiveAccount();
  if (!active) {
    try {
      await wrap(() => dapp.requestPermissions({ scopes: [...PERMISSION_SCOPES] }));
    } catch (e) {
      if (e instanceof WalletAbortedError) throw e;
      throw new Error(WALLET_MESSAGES.aborted);
    }
    active = await dapp.getActiveAccount();
  }
  if (!active) throw new WalletAbortedError('no account');
  const account = active;

  const { TezosToolkit, createTransferOperation, createOriginationOperation, OpKind } =
    await import('@taquito/taquito');
  const provider = {
    getPKH: () => Promise.resolve(account.address),
    getPK: () => Promise.resolve(account.publicKey ?? ''),
    mapTransferParamsToWalletParams: async (p: () => Promise<WalletTransferParams>) =>
      forWallet(await createTransferOperation(await p())),
    mapOriginateParamsToWalletParams: async (p: () => Promise<WalletOriginateParams>) =>
      forWallet(await createOriginationOperation(await p())),
    sendOperations: (ops: unknown[]) =>
      wrap(() => dapp.requestOperation({ operationDetails: ops })).then((r) => r.transactionHash),
    sign: (bytes: string) => wrap(() => dapp.requestSignPayload({ payload: bytes })).then((r) => r.signature),
  };
  const unsupported = () => Promise.reject(new Error('Not supported by this explorer'));
  const walletProvider: WalletProvider = {
    ...provider,
    mapTransferTicketParamsToWalletParams: unsupported,
    mapRegisterGlobalConstantParamsToWalletParams: unsupported,
    mapStakeParamsToWalletParams: unsupported,
    mapUnstakeParamsToWalletParams: unsupported,
    mapFinalizeUnstakeParamsToWalletParams: unsupported,
    mapDelegateParamsToWalletParams: unsupported,
    mapIncreasePaidStorageWalletParams: unsupported,
  };
  const toolkit = new TezosToolkit(rpcUrl(network, origin));
  toolkit.setWalletProvider(walletProvider);

  return {
    kind: 'beacon',
    network: accountNetwork(account) || network,
    address: account.address,
    label: 'octez.connect',
    disconnect: disconnectOctezConnect,
    async send(ops: WalletTransaction[]): Promise<InjectionResult> {
      if (ops.length === 0) throw new Error('Nothing to send');
      const batch = toolkit.wallet.batch(
        ops.map((tx) => ({ kind: OpKind.TRANSACTION, ...toTransferParams(tx) })),
      );
      const op = await batch.send();
      return { opHash: op.opHash };
    },
    async originate(op: WalletOrigination): Promise<InjectionResult> {
      const res = await toolkit.wallet
        .originate({
          code: op.script.code as object[],
          init: op.script.storage,
          balance: op.balance || '0',
          mutez: true,
        })
        .send();
      return { opHash: res.opHash };
    },
  };
}
