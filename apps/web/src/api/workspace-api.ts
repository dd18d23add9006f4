/**
 * Workspace calls (interact, simulate, views, deploy, fork): /v1/contract/{n}/{a}/entrypoints…, views/execute,
 * POST /v1/michelson, POST /v1/fork, and the node script through /rpc/{network}. Answers are untrusted: each
 * parser keeps only well-formed fields.
 */
import { queryOptions } from '@tanstack/react-query';
import type { JsonSchema, Micheline } from '@michelscope/michelson';
import { API_BASE, getJson, requestJson, type RequestOptions } from './client';
import type { Typedef } from './contract-types';
import { isObject } from './parse';
import type { Operation } from './opg-types';

const enc = encodeURIComponent;
const base = (network: string, address: string) => `/contract/${enc(network)}/${enc(address)}`;
type Json = Record<string, unknown>;

/** One entrypoint (or view / storage) form: name, type docs, JSON schema and an optional default model. */
export interface FormSchema {
  name: string;
  typedef: Typedef[];
  schema: JsonSchema | null;
  default_model?: Record<string, unknown> | undefined;
}

export function parseFormSchema(raw: unknown): FormSchema | null {
  if (!isObject(raw)) return null;
  const name = typeof raw.name === 'string' ? raw.name : '';
  const typedef = Array.isArray(raw.typedef) ? (raw.typedef.filter(isObject) as unknown as Typedef[]) : [];
  const schema = isObject(raw.schema) ? (raw.schema as unknown as JsonSchema) : null;
  const model = isObject(raw.default_model) ? raw.default_model : undefined;
  return { name, typedef, schema, ...(model ? { default_model: model } : {}) };
}

/** Entrypoints sorted by name (workspace spec §2, Interact tab). */
export function parseEntrypoints(raw: unknown): FormSchema[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .map(parseFormSchema)
    .filter((e): e is FormSchema => e !== null)
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const entrypointsQuery = (network: string, address: string) =>
  queryOptions({
    queryKey: ['entrypoints', network, address] as const,
    queryFn: ({ signal }) =>
      getJson(`${base(network, address)}/entrypoints`, { signal }).then(parseEntrypoints),
    staleTime: 60_000,
  });

/** GET …/entrypoints/schema with fill_type latest (or operation with hash + counter). */
export function fetchEntrypointModel(
  network: string,
  address: string,
  params: { entrypoint: string; fill_type: 'latest' | 'operation'; hash?: string; counter?: number },
  options?: RequestOptions,
): Promise<FormSchema | null> {
  const q = new URLSearchParams({ entrypoint: params.entrypoint, fill_type: params.fill_type });
  if (params.hash) q.set('hash', params.hash);
  if (params.counter !== undefined) q.set('counter', String(params.counter));
  return getJson(`${base(network, address)}/entrypoints/schema?${q.toString()}`, options).then(
    parseFormSchema,
  );
}

/** GET …/storage/schema with a fill type. */
export function fetchStorageSchema(
  network: string,
  address: string,
  fillType: 'empty' | 'current' | 'initial',
  options?: RequestOptions,
): Promise<FormSchema | null> {
  return getJson(`${base(network, address)}/storage/schema?fill_type=${fillType}`, options).then(
    parseFormSchema,
  );
}

const n = (o: Json, k: string) => (typeof o[k] === 'number' && Number.isFinite(o[k]) ? o[k] : 0);
const s = (o: Json, k: string) => (typeof o[k] === 'string' ? o[k] : null);

export interface CallSettings {
  source?: string | undefined;
  sender?: string | undefined;
  amount?: number | undefined;
}

/**
 * Simulates a call: the main operation then its internal operations. With a source, POST
 * …/entrypoints/run_operation (the node applies it: gas, storage, burn, big-map changes, events); without
 * one, POST …/entrypoints/trace (run_code: the storage and internal operations only).
 */
export async function simulateCall(
  network: string,
  address: string,
  name: string,
  data: unknown,
  settings: CallSettings,
): Promise<Operation[]> {
  const body: Json = { name, data };
  if (settings.source) body.source = settings.source;
  if (settings.sender) body.sender = settings.sender;
  if (settings.amount) body.amount = settings.amount;
  const route = settings.source ? 'run_operation' : 'trace';
  const res = await requestJson(`${API_BASE}${base(network, address)}/entrypoints/${route}`, {
    method: 'POST',
    body,
  });
  if (!Array.isArray(res.body)) throw new Error('The simulation answer is not a list of operations');
  return res.body as Operation[];
}

/** POST /v1/fork: code and storage ready for an origination. */
export async function prepareFork(body: {
  network: string;
  address: string;
  storage: unknown;
}): Promise<{ code: Micheline; storage: Micheline }> {
  const res = await requestJson(`${API_BASE}/fork`, { method: 'POST', body });
  const b = res.body;
  if (!isObject(b) || b.code === undefined || b.storage === undefined)
    throw new Error('The fork answer has no code and storage');
  return { code: b.code as Micheline, storage: b.storage as Micheline };
}

/** The contract's script from the node (through the server's RPC pass-through). */
export async function fetchScript(
  network: string,
  address: string,
  options?: RequestOptions,
): Promise<{ code: Micheline[]; storage: Micheline }> {
  const url = `/rpc/${enc(network)}/chains/main/blocks/head/context/contracts/${enc(address)}/script`;
  const { body } = await requestJson(url, options);
  if (!isObject(body) || !Array.isArray(body.code)) throw new Error(`No script for ${address} on ${network}`);
  return { code: body.code as Micheline[], storage: body.storage as Micheline };
}

export const scriptQuery = (network: string, address: string) =>
  queryOptions({
    queryKey: ['script', network, address] as const,
    queryFn: ({ signal }) => fetchScript(network, address, { signal }),
    staleTime: 60_000,
  });

/** An on-chain view with its parameter form (GET …/views/schema). */
export interface ViewForm extends FormSchema {
  kind: string;
  description: string;
  implementation: number;
  error: string | null;
}

export function parseViewForms(raw: unknown): ViewForm[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).flatMap((v) => {
    const f = parseFormSchema(v);
    if (!f) return [];
    return [
      {
        ...f,
        kind: s(v, 'kind') ?? 'on-chain',
        description: s(v, 'description') ?? '',
        implementation: n(v, 'implementation'),
        error: s(v, 'error'),
      },
    ];
  });
}

export const viewFormsQuery = (network: string, address: string) =>
  queryOptions({
    queryKey: ['view_forms', network, address] as const,
    queryFn: ({ signal }) =>
      getJson(`${base(network, address)}/views/schema`, { signal }).then(parseViewForms),
    staleTime: 60_000,
  });

/** A failed view execution: shown in a dialog titled '{statusText} — {status}' with the server message. */
export class ViewExecutionError extends Error {
  override readonly name = 'ViewExecutionError';
  constructor(
    message: string,
    readonly status: number,
    readonly statusText: string,
  ) {
    super(message);
  }
}
