/**
 * Workspace calls (interact, simulate, views, fork) over the resource registry: the entrypoints' forms,
 * one entrypoint's or the storage's form with a model, a simulated call, a fork and the node's script.
 * Every answer is an api-types type (the API serialises it through the same schema).
 */
import { queryOptions } from '@tanstack/react-query';
import type { CallRequest, EntrypointSchema, Operation, StateLevel } from '@michelscope/api-types';
import type { RequestOptions } from './client';
import { fetchResource, resourceQuery, runAction } from './resources';

/** One entrypoint (or view / storage) form: name, type docs, JSON schema and an optional default model. */
export type FormSchema = EntrypointSchema;

/** The entrypoints, sorted by name (workspace spec §2, Interact tab). */
export const entrypointsQuery = (network: string, address: string) =>
  queryOptions({
    ...resourceQuery('entrypoints', { network, address }),
    select: (entrypoints: EntrypointSchema[]) =>
      [...entrypoints].sort((a, b) => a.name.localeCompare(b.name)),
    staleTime: 60_000,
  });

/** GET …/entrypoints/schema with fill_type latest (or operation with hash + counter). */
export function fetchEntrypointModel(
  network: string,
  address: string,
  params: { entrypoint: string; fill_type: 'latest' | 'operation'; hash?: string; counter?: number },
  options?: RequestOptions,
): Promise<FormSchema> {
  const { fill_type: fillType, ...rest } = params;
  return fetchResource('entrypointSchema', { network, address, fillType, ...rest }, options);
}

/** GET …/storage/schema with a fill type. */
export function fetchStorageSchema(
  network: string,
  address: string,
  fillType: 'empty' | 'current' | 'initial',
  options?: RequestOptions,
): Promise<FormSchema> {
  return fetchResource('storageSchema', { network, address, fillType }, options);
}

export interface CallSettings {
  source?: string | undefined;
  sender?: string | undefined;
  amount?: number | undefined;
  /** bytes; the node's maximum when absent */
  storageLimit?: number | undefined;
}

/**
 * Simulates a call: the main operation then its internal operations. With a source, POST
 * …/entrypoints/run_operation (the node applies it: gas, storage, burn, big-map changes, events); without
 * one, POST …/entrypoints/trace (run_code: the storage and internal operations only).
 */
export function simulateCall(
  network: string,
  address: string,
  name: string,
  data: unknown,
  settings: CallSettings,
): Promise<Operation[]> {
  const body: CallRequest = {
    name,
    data,
    ...(settings.source ? { source: settings.source } : {}),
    ...(settings.sender ? { sender: settings.sender } : {}),
    ...(settings.amount ? { amount: settings.amount } : {}),
    ...(settings.storageLimit !== undefined ? { storage_limit: settings.storageLimit } : {}),
  };
  return runAction(settings.source ? 'runOperation' : 'trace', { network, address }, body);
}

/** The contract's script from the node (through the server's RPC pass-through). */
export const scriptQuery = (network: string, address: string) =>
  queryOptions({ ...resourceQuery('script', { network, address }), staleTime: 60_000 });

/**
 * A failed view execution: shown in a dialog titled '{statusText} — {status}' with the server message, and
 * where it ran (`at`, from the answer's headers) when the run got that far.
 */
export class ViewExecutionError extends Error {
  override readonly name = 'ViewExecutionError';
  constructor(
    message: string,
    readonly status: number,
    readonly statusText: string,
    readonly at?: StateLevel | undefined,
  ) {
    super(message);
  }
}
