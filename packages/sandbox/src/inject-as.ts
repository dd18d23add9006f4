// Signing and injecting an operation with a known secret key (the bootstrap accounts'), for tests and
// scripts that drive the chain in-process without a wallet.
import { InMemorySigner } from '@taquito/signer';
import type { Sandbox } from './sandbox';
import { forgeOperation } from './forging';

/**
 * Forges `contents` (manager operations without source, counter or limits, which get the source's
 * next counters and generous defaults unless given) on the head as branch, signs them with `from.sk`
 * and injects them. Returns the operation hash; the node's errors are thrown as RpcError.
 */
export async function injectAs(
  sandbox: Sandbox,
  from: { pkh: string; sk: string },
  contents: Array<Record<string, unknown>>,
): Promise<string> {
  const counter = BigInt(sandbox.pendingState().implicit(from.pkh)?.counter ?? '0');
  const full = contents.map((c, i) => ({
    source: from.pkh,
    fee: '10000',
    counter: String(counter + 1n + BigInt(i)),
    gas_limit: '100000',
    storage_limit: '10000',
    ...c,
  }));
  const bytes = await forgeOperation({ branch: sandbox.head.hash, contents: full });
  const signed = await (await InMemorySigner.fromSecretKey(from.sk)).sign(bytes, Uint8Array.of(3));
  return sandbox.inject(signed.sbytes);
}
