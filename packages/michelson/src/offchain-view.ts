/**
 * Off-chain (TZIP-16 `michelsonStorageView`) views run through the node's `run_code` (bcd-api §6.6b):
 * a throw-away script whose parameter carries the view input and the contract storage, whose storage is
 * `option <returnType>`, and whose code is `{ CAR ; <view code> ; SOME ; NIL operation ; PAIR }`.
 */
import { isPrim, MichelsonDataError, toMicheline } from './micheline-core';
import type { Micheline, MichelinePrim } from './micheline-core';
import { toMiguel } from './miguel';
import type { MiguelNode } from './miguel';

export interface OffchainView {
  /** The view's parameter type; absent/null when the view takes none. */
  parameter?: unknown;
  /** The view's code (Micheline, or its JSON text as found in metadata). */
  code: unknown;
  returnType: unknown;
  /** The contract's storage type. */
  storageType: unknown;
}

/** Micheline from a value that may be JSON text (metadata documents hold either). */
function micheline(v: unknown, what: string): Micheline {
  let json = v;
  if (typeof v === 'string') {
    try {
      json = JSON.parse(v) as unknown;
    } catch {
      throw new MichelsonDataError(`off-chain view ${what} is not valid JSON`);
    }
  }
  try {
    return toMicheline(json);
  } catch (e) {
    throw new MichelsonDataError(`off-chain view ${what}: ${(e as Error).message}`);
  }
}

const prim = (name: string, ...args: Micheline[]): MichelinePrim =>
  args.length ? { prim: name, args } : { prim: name };

/** The script (`[parameter, storage, code]`) to send to `run_code` for this view. */
export function offchainViewScript(view: OffchainView): MichelinePrim[] {
  const storageType = micheline(view.storageType, 'storage type');
  const returnType = micheline(view.returnType, 'return type');
  const code = micheline(view.code, 'code');
  const param = view.parameter == null ? undefined : micheline(view.parameter, 'parameter type');
  return [
    prim('parameter', param === undefined ? storageType : prim('pair', param, storageType)),
    prim('storage', prim('option', returnType)),
    prim('code', [prim('CAR'), code, prim('SOME'), prim('NIL', prim('operation')), prim('PAIR')]),
  ];
}

/** The `run_code` input: `Pair <view input> <contract storage>`, or the storage alone for a view without parameter. */
export function offchainViewInput(storage: Micheline, input?: Micheline | null): Micheline {
  return input == null ? storage : prim('Pair', input, storage);
}

/** The view result from the `run_code` result storage: `Some x` → Miguel of x; `None` → null. */
export function offchainViewResult(returnType: unknown, resultStorage: unknown): MiguelNode[] | null {
  const storage = micheline(resultStorage, 'result');
  if (isPrim(storage) && storage.prim === 'None') return null;
  if (!isPrim(storage) || storage.prim !== 'Some' || storage.args?.length !== 1)
    throw new MichelsonDataError('off-chain view result is not an option value');
  return toMiguel(micheline(returnType, 'return type'), storage.args[0]!);
}
