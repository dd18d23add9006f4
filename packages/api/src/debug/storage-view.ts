/**
 * A TZIP-16 off-chain michelsonStorageView run as a script: the wrapper script run_code runs, and the view's
 * result out of its storage after the run (views execution and debugging, simulation, error views).
 */
import type { Micheline } from '@michelscope/michelson';

/**
 * A TZIP-16 michelsonStorageView as a script that run_code runs: its parameter is the view's input paired with
 * the contract's storage (the storage alone for a view without input), its storage `Some result` after.
 */
export function storageViewScript(
  paramType: Micheline | undefined,
  storageType: Micheline,
  returnType: Micheline,
  code: Micheline,
): Micheline[] {
  return [
    { prim: 'parameter', args: [paramType ? { prim: 'pair', args: [paramType, storageType] } : storageType] },
    { prim: 'storage', args: [{ prim: 'option', args: [returnType] }] },
    {
      prim: 'code',
      args: [
        [
          { prim: 'CAR' },
          ...(Array.isArray(code) ? code : [code]),
          { prim: 'SOME' },
          { prim: 'NIL', args: [{ prim: 'operation' }] },
          { prim: 'PAIR' },
        ],
      ],
    },
  ];
}

/** An off-chain view's result out of its wrapper script's storage after the run (`Some result`), or undefined. */
export function storageViewResult(storage: Micheline): Micheline | undefined {
  return !Array.isArray(storage) && 'prim' in storage && storage.prim === 'Some'
    ? storage.args?.[0]
    : undefined;
}
