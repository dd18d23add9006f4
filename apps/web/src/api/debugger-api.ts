/**
 * The debugger's resource: POST /v1/contract/{network}/{address}/entrypoints/debug (one call recorded step by
 * step). The answer is untrusted: the parser checks the trace's columns agree before the debugger reads them.
 */
import type { GasProfile, WhatIfCall, WhatIfOverrides } from '@michelscope/api-types';
import type { CompactTrace, Micheline } from '@michelscope/michelson';
import { API_BASE, requestJson, type RequestOptions } from './client';
import { isObject } from './parse';

const enc = encodeURIComponent;

/** What to debug: an entrypoint with its form (a simulation) or its Micheline parameter (an internal call). */
export interface DebugRequest {
  name: string;
  data?: unknown;
  value?: Micheline;
  amount?: number;
  source?: string;
  sender?: string;
  /** a what-if call: the overridden state and the bundle's calls before it */
  overrides?: WhatIfOverrides;
  before?: WhatIfCall[];
}

export interface DebugEmitted {
  kind: string;
  destination?: string;
  amount?: string;
  entrypoint?: string;
  parameter?: Micheline;
  tag?: string;
}

export type { GasProfile };

export interface DebugResult {
  code: string;
  spans: Record<string, [number, number, number]>;
  blocks: Record<string, number>;
  enclosing: Record<string, number>;
  trace: CompactTrace;
  /** gas per line and per block (absent from an older answer) */
  profile?: GasProfile;
  status: 'applied' | 'failed';
  consumed_milligas: number;
  gas_limit: number;
  storage?: Micheline;
  operations: DebugEmitted[];
  failure?: {
    kind: string;
    message: string;
    location?: number;
    with?: Micheline;
    /** the value's entry in the contract's TZIP-16 `errors` */
    meaning?: { text: string; languages?: string[] };
  };
  /** a replayed indexed call: its recorded result and what differs */
  replay?: {
    recorded: { status: string; consumed_milligas: number };
    equal: boolean;
    differences: string[];
  };
  inputs: {
    self: string;
    entrypoint: string;
    source?: string;
    sender?: string;
    amount: string;
    level: string;
  };
}

const arr = (v: unknown): v is unknown[] => Array.isArray(v);

export function parseDebugResult(raw: unknown): DebugResult {
  if (!isObject(raw) || !isObject(raw.trace) || typeof raw.code !== 'string' || !isObject(raw.inputs))
    throw new Error('The debugger answer is not a recorded call');
  const t = raw.trace;
  const steps = typeof t.steps === 'number' ? t.steps : -1;
  const columns = [t.loc, t.gas, t.pop, t.push];
  if (steps < 0 || !columns.every((c) => arr(c) && c.length === steps) || !arr(t.items) || !arr(t.types))
    throw new Error('The debugger answer has an inconsistent trace');
  if (!arr(t.checkpoints) || typeof t.gas_start !== 'number')
    throw new Error('The debugger answer has an inconsistent trace');
  return {
    code: raw.code,
    spans: (isObject(raw.spans) ? raw.spans : {}) as DebugResult['spans'],
    blocks: (isObject(raw.blocks) ? raw.blocks : {}) as DebugResult['blocks'],
    enclosing: (isObject(raw.enclosing) ? raw.enclosing : {}) as DebugResult['enclosing'],
    trace: t as unknown as CompactTrace,
    ...(isObject(raw.profile) && arr(raw.profile.frames) && arr(raw.profile.lines)
      ? { profile: raw.profile as unknown as GasProfile }
      : {}),
    status: raw.status === 'failed' ? 'failed' : 'applied',
    consumed_milligas: typeof raw.consumed_milligas === 'number' ? raw.consumed_milligas : 0,
    gas_limit: typeof raw.gas_limit === 'number' ? raw.gas_limit : 0,
    ...(raw.storage !== undefined ? { storage: raw.storage as Micheline } : {}),
    operations: (arr(raw.operations) ? raw.operations.filter(isObject) : []) as unknown as DebugEmitted[],
    ...(isObject(raw.failure) ? { failure: raw.failure as unknown as DebugResult['failure'] } : {}),
    ...(isObject(raw.replay) && Array.isArray(raw.replay.differences)
      ? { replay: raw.replay as unknown as NonNullable<DebugResult['replay']> }
      : {}),
    inputs: raw.inputs as unknown as DebugResult['inputs'],
  };
}

export async function fetchDebug(
  network: string,
  address: string,
  body: DebugRequest,
  options?: RequestOptions,
): Promise<DebugResult> {
  const res = await requestJson(`${API_BASE}/contract/${enc(network)}/${enc(address)}/entrypoints/debug`, {
    ...options,
    method: 'POST',
    body,
  });
  return parseDebugResult(res.body);
}

/** Replays an indexed contract call at its level (POST /v1/operation/{network}/{id}/debug). */
export async function fetchOperationDebug(
  network: string,
  id: number,
  options?: RequestOptions,
): Promise<DebugResult> {
  const res = await requestJson(`${API_BASE}/operation/${enc(network)}/${id}/debug`, {
    ...options,
    method: 'POST',
    body: {},
  });
  return parseDebugResult(res.body);
}
