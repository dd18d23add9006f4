// Re-printing stored Micheline (kept in the node's Optimized form) in another unparsing mode,
// and small validation helpers shared by the RPC routes.
import { defaultEnv, Interpreter, toTy, unparse, type Expr } from '@michelscope/interpreter';
import { chainContext } from './chain-context';
import { RpcError } from './operation-types';
import { CHAIN_ID } from './protocol';
import type { State } from './state';

export type UnparsingMode = 'Readable' | 'Optimized' | 'Optimized_legacy';

export function badBody(msg: string): RpcError {
  return new RpcError(400, [{ kind: 'permanent', id: 'rpc.invalid_body', msg }]);
}

export function unparsingMode(value: unknown): UnparsingMode {
  if (value === undefined || value === null) return 'Readable';
  if (value === 'Readable' || value === 'Optimized' || value === 'Optimized_legacy') return value;
  throw badBody(`unknown unparsing_mode ${JSON.stringify(value).slice(0, 40)}`);
}

/** An interpreter bound to a state, for parsing values with their types (big maps, lambdas). */
export function interpreterFor(state: State): Interpreter {
  return new Interpreter({ env: defaultEnv({ chainId: CHAIN_ID }), chain: chainContext(state) });
}

/** Typechecks `data` against `type` and prints it in `mode`; throws a node error when ill-typed. */
export function normalizeData(state: State, data: unknown, type: unknown, mode: UnparsingMode): Expr {
  try {
    const it = interpreterFor(state);
    return unparse(it.parseValue(data as Expr, toTy(type as Expr)), mode);
  } catch (e) {
    throw new RpcError(400, [
      {
        kind: 'permanent',
        id: 'proto.024-PtTALLiN.michelson_v1.ill_typed_data',
        msg: e instanceof Error ? e.message : String(e),
      },
    ]);
  }
}

/** Plain JSON object check for request bodies. */
export function objectBody(body: unknown, what: string): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badBody(`expected ${what}`);
  return body as Record<string, unknown>;
}
