/**
 * A contract's views as they are executed (…/views/execute) and debugged (…/views/debug): an on-chain view of
 * the script by name, and an off-chain TZIP-16 michelsonStorageView wrapped in a script that run_code runs
 * (parameter: the view's input paired with the contract's storage; storage: the result as an option).
 */
import { formToMicheline, toMicheline, type Micheline } from '@michelscope/michelson';
import { storageViewScript } from '../debug/storage-view';
import { HttpError } from '../errors';
import { asClientError } from '../routes/actions';

/** An on-chain view of the script (`name`): its input type, output type and the input read from the form. */
export function onChainView(views: unknown, name: string | undefined, data: unknown) {
  if (!name) throw new HttpError(400, 'name is required for an on-chain view');
  const view = (Array.isArray(views) ? views : []).find(
    (v) => ((v as { args?: Array<{ string?: string }> }).args?.[0]?.string ?? '') === name,
  ) as { args: unknown[] } | undefined;
  if (!view) throw new HttpError(404, `view not found: ${name.slice(0, 64)}`);
  const inputType = toMicheline(view.args[1]);
  return {
    name,
    outputType: toMicheline(view.args[2]),
    input: asClientError(() => formToMicheline(inputType, data ?? {})),
  };
}

export interface MichelsonStorageView {
  parameter?: unknown;
  returnType?: unknown;
  code?: unknown;
}

/**
 * A michelsonStorageView as a script for run_code: its `input` is the view's parameter (`value`, Micheline)
 * paired with `storage`, or `storage` alone for a view without a parameter; it ends with `Some result`.
 */
export function offChainViewScript(
  msv: MichelsonStorageView | undefined,
  storageType: Micheline,
  storage: Micheline,
  value: (parameterType: Micheline) => Micheline,
): { script: Micheline[]; input: Micheline; returnType: Micheline } {
  if (!msv || msv.returnType === undefined || msv.code === undefined)
    throw new HttpError(
      400,
      'view.michelsonStorageView with returnType and code is required for an off-chain view',
    );
  const returnType = asClientError(() => toMicheline(msv.returnType));
  const paramType = msv.parameter === undefined ? undefined : asClientError(() => toMicheline(msv.parameter));
  const input: Micheline = paramType ? { prim: 'Pair', args: [value(paramType), storage] } : storage;
  const code = asClientError(() => toMicheline(msv.code));
  const script = storageViewScript(paramType, storageType, returnType, code);
  return { script, input, returnType };
}

/** The michelsonStorageView of an off-chain view request (`view` as the metadata declares the implementation). */
export const storageViewOf = (view: unknown): MichelsonStorageView | undefined =>
  (view as { michelsonStorageView?: MichelsonStorageView } | undefined)?.michelsonStorageView;
