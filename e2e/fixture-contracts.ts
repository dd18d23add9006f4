/**
 * The largest contract of ../shared/fixtures/contracts and a storage value a fresh origination of it accepts:
 * used by e2e/read-states.e2e.ts ('Rendering: N%') and bench/web-render.ts (code render time).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { InMemorySigner } from '@taquito/signer';
import { TezosToolkit } from '@taquito/taquito';
import { BOOTSTRAP_ACCOUNTS } from '@michelscope/sandbox';

export interface Prim {
  prim: string;
  args?: Prim[];
}

/** The largest code.json under `dir` (by its Micheline JSON size), or undefined when there is none. */
export function largestFixtureContract(dir: string): { file: string; bytes: number } | undefined {
  if (!existsSync(dir)) return undefined;
  let best: { file: string; bytes: number } | undefined;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === 'code.json' && (!best || statSync(full).size > best.bytes))
        best = { file: full, bytes: statSync(full).size };
    }
  };
  walk(dir);
  return best;
}

const bootstrap = BOOTSTRAP_ACCOUNTS[0]!;

/** A value of a storage type that a fresh origination accepts (empty collections, zeros, None). */
export function defaultValue(t: Prim): unknown {
  const args = t.args ?? [];
  switch (t.prim) {
    case 'unit':
      return { prim: 'Unit' };
    case 'bool':
      return { prim: 'False' };
    case 'nat':
    case 'int':
    case 'mutez':
    case 'timestamp':
      return { int: '0' };
    case 'string':
      return { string: '' };
    case 'bytes':
      return { bytes: '' };
    case 'address':
    case 'key_hash':
      return { string: bootstrap.pkh };
    case 'key':
      return { string: bootstrap.pk };
    case 'option':
      return { prim: 'None' };
    case 'list':
    case 'set':
    case 'map':
    case 'big_map':
      return [];
    case 'pair':
      return { prim: 'Pair', args: args.map(defaultValue) };
    case 'or':
      return { prim: 'Left', args: [defaultValue(args[0]!)] };
    case 'lambda':
      return [{ prim: 'DROP' }, { prim: 'UNIT' }, { prim: 'FAILWITH' }];
    default:
      throw new Error(`no default value for a storage of type ${t.prim}`);
  }
}

/** Originates `code` with storage `init` from the first bootstrap account; resolves to the new address. */
export async function originateAsBootstrap(rpcUrl: string, code: unknown, init: unknown): Promise<string> {
  const tezos = new TezosToolkit(rpcUrl);
  tezos.setProvider({
    signer: await InMemorySigner.fromSecretKey(bootstrap.sk),
    config: { confirmationPollingTimeoutSecond: 120 },
  });
  const op = await tezos.contract.originate({ code: code as object[], init: init as object });
  await op.confirmation(1);
  if (!op.contractAddress) throw new Error(`origination ${op.hash} has no contract address`);
  return op.contractAddress;
}

/** Calls `address` (entrypoint default) with the Micheline `value` from the first bootstrap account; resolves to the operation's hash once included. */
export async function callAsBootstrap(rpcUrl: string, address: string, value: unknown): Promise<string> {
  const tezos = new TezosToolkit(rpcUrl);
  tezos.setProvider({
    signer: await InMemorySigner.fromSecretKey(bootstrap.sk),
    config: { confirmationPollingTimeoutSecond: 120 },
  });
  const op = await tezos.contract.transfer({
    to: address,
    amount: 0,
    parameter: { entrypoint: 'default', value: value as object },
  });
  await op.confirmation(1);
  return op.hash;
}
