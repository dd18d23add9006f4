/**
 * The deploy wizard's simulation: the origination run by the node (`helpers/scripts/simulate_operation`
 * through this origin's /rpc/{network} pass-through) for the wallet's account, without signing anything; at
 * the head, or at a share link's level (that block: its counter, constants, level and time).
 */
import { fetchResource, runAction } from '../../api/resources';
import type { Micheline } from '@michelscope/michelson';
import type { StateLevel } from '@michelscope/api-types';
import { isObject } from '../../api/parse';

/** The all-zero placeholder signature simulations carry (the node does not check it). */
export const SIMULATION_SIGNATURE =
  'sigUHx32f9wesZ1n2BWpixXz4AQaZggEtchaQNHYGRCoWNAXx45WGW2ua3apUUUAGMLPwAU41QoaFCzVSL61VaessLg4YbbP';

export interface OriginationSimulation {
  status: string;
  /** gas units (milligas / 1000) */
  consumedGas: number;
  /** the limits the simulation ran with (gas units, bytes) */
  gasLimit: number;
  storageLimit: number;
  storageSize: number;
  paidStorageSizeDiff: number;
  /** mutez: paid storage plus the origination burn */
  burned: number;
  originated: string | null;
  errors: string[];
  /** where it ran: the block's level and the head then (no contract's state is read: changed_since false) */
  at?: StateLevel | undefined;
  /** the block's time (RFC 3339), the origination's NOW */
  time?: string | undefined;
}

type Json = Record<string, unknown>;
const num = (o: Json, k: string) => {
  const n = Number(o[k] ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/** Reads the node's answer for the first content (the origination). */
export function parseOriginationResult(
  body: unknown,
  constants: { costPerByte: number; originationSize: number },
): OriginationSimulation {
  const content = isObject(body) && Array.isArray(body.contents) ? body.contents[0] : undefined;
  const metadata = isObject(content) && isObject(content.metadata) ? content.metadata : {};
  const result = isObject(metadata.operation_result) ? metadata.operation_result : {};
  const status = typeof result.status === 'string' ? result.status : 'unknown';
  const paid = num(result, 'paid_storage_size_diff');
  const originated = Array.isArray(result.originated_contracts) ? result.originated_contracts[0] : undefined;
  const errors = (Array.isArray(result.errors) ? result.errors : [])
    .filter(isObject)
    .map((e) => [e.id, e.with === undefined ? undefined : JSON.stringify(e.with)].filter(Boolean).join(': '));
  const sent = isObject(content) ? content : {};
  return {
    status,
    consumedGas: num(result, 'consumed_milligas') / 1000,
    gasLimit: num(sent, 'gas_limit'),
    storageLimit: num(sent, 'storage_limit'),
    storageSize: num(result, 'storage_size'),
    paidStorageSizeDiff: paid,
    burned: status === 'applied' ? (paid + constants.originationSize) * constants.costPerByte : 0,
    originated: typeof originated === 'string' ? originated : null,
    errors,
  };
}

export async function simulateOrigination(opts: {
  network: string;
  source: string;
  code: Micheline;
  storage: Micheline;
  /** mutez */
  balance: string;
  /** the block to run at (a share link's level); the head when absent */
  level?: number | undefined;
}): Promise<OriginationSimulation> {
  const { network, level } = opts;
  const [header, head, chainId, counter, constants] = await Promise.all([
    fetchResource('headHeader', { network, block: level }),
    level === undefined ? undefined : fetchResource('headHeader', { network }),
    fetchResource('chainId', { network }),
    fetchResource('counter', { network, address: opts.source, block: level }),
    fetchResource('networkConstants', { network, block: level ?? 'head' }),
  ]);
  const branch = isObject(header) && typeof header.hash === 'string' ? header.hash : '';
  const c = isObject(constants) ? constants : {};
  const operation = {
    branch,
    contents: [
      {
        kind: 'origination',
        source: opts.source,
        fee: '0',
        counter: String(BigInt(typeof counter === 'string' ? counter : '0') + 1n),
        gas_limit: String(num(c, 'hard_gas_limit_per_operation') || 1_040_000),
        storage_limit: String(num(c, 'hard_storage_limit_per_operation') || 60_000),
        balance: opts.balance || '0',
        script: { code: opts.code, storage: opts.storage },
      },
    ],
    signature: SIMULATION_SIGNATURE,
  };
  const body = await runAction(
    'simulateOperation',
    { network, block: level },
    { operation, chain_id: chainId },
  );
  const result = parseOriginationResult(body, {
    costPerByte: num(c, 'cost_per_byte') || 250,
    originationSize: num(c, 'origination_size') || 257,
  });
  const at = isObject(header) && typeof header.level === 'number' ? header.level : undefined;
  return {
    ...result,
    ...(at !== undefined
      ? { at: { level: at, head_level: (isObject(head) && Number(head.level)) || at, changed_since: false } }
      : {}),
    ...(isObject(header) && typeof header.timestamp === 'string' ? { time: header.timestamp } : {}),
  };
}
