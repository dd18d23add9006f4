// helpers/scripts/*: run_code, trace_code, run_script_view, run_view (TZIP-4), pack_data,
// typecheck_code, entrypoints, normalize_data (rpc-normalize.ts). They run on the state of the requested block and change nothing.
// Over ~400 lines because the helpers/scripts RPCs share one set of body readers (gas, addresses, timestamps,
// chain id) and one way to run code on a block's state; normalize_data and the type map typecheck_code answers
// with are already modules of their own.
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  loadScript,
  MichelsonError,
  packValue,
  runContract,
  runView,
  toTy,
  type ChainContext,
  type Expr,
  type RunContractInput,
  type StepEvent,
} from '@michelscope/interpreter';
import { b58Encode, PrefixV2, validateAddress, validateChain, ValidationResult } from '@taquito/utils';
import { chainContext, entrypointsOf, expandedCode, scriptSections } from './chain-context';
import { blockOf } from './block-id';
import { badBody, interpreterFor, objectBody, unparsingMode } from './normalize';
import { normalizeDataRpc } from './rpc-normalize';
import { RpcError } from './operation-types';
import { typeMap, type TypeMapEntry } from './type-map';
import { originatedAddress } from './execute';
import { CHAIN_ID, HARD_GAS_LIMIT_PER_OPERATION, PROTO_ERROR_PREFIX as P } from './protocol';
import type { ScriptHost } from './script-host';
import type { ScriptRunner } from './script-runner';
import type { State } from './state';
import type { Listings } from './voting';

type Params = Record<string, string>;
const PROTO = P.slice('proto.'.length, -1);
/**
 * Octez's script RPCs (src/proto_alpha/lib_plugin/RPC.ml, `originate_dummy_contract`) originate their dummy
 * contract (run_code's SELF when none is given, run_view's callback) from an origination nonce initialised with
 * the zero operation hash: index 0, then CREATE_CONTRACT during the run takes indexes 1, 2, …
 */
const ZERO_OPERATION_HASH = b58Encode(new Uint8Array(32), PrefixV2.OperationHash);
export const DUMMY_CONTRACT = originatedAddress(ZERO_OPERATION_HASH, 0);

/** Octez's `undefined_operation_nonce`: CREATE_CONTRACT when no dummy contract initialised the nonce. */
class UndefinedOperationNonce extends Error {}

/**
 * The origination nonce of a run: after a dummy origination, CREATE_CONTRACT takes the next indexes of the
 * zero operation hash; without one (run_code given `self`, run_script_view), Octez has no nonce and
 * CREATE_CONTRACT fails with `undefined_operation_nonce`.
 */
function originations(dummy: boolean): { originatedAddress: () => string; failed: () => boolean } {
  let index = 1;
  let failed = false;
  return {
    originatedAddress: () => {
      if (dummy) return originatedAddress(ZERO_OPERATION_HASH, index++);
      failed = true;
      throw new UndefinedOperationNonce('undefined_operation_nonce');
    },
    failed: () => failed,
  };
}

function undefinedNonce(self: string): RpcError {
  return new RpcError(500, [
    {
      kind: 'temporary',
      id: `${P}michelson_v1.runtime_error`,
      contract_handle: self,
      contract_code: 'Deprecated',
    },
    { kind: 'permanent', id: `${P}undefined_operation_nonce` },
  ]);
}

/** A chain id is any well-encoded one (Octez validates its encoding only): CHAIN_ID pushes it. */
function chainIdOf(v: unknown): string {
  if (v === undefined || v === null) return CHAIN_ID;
  if (typeof v !== 'string' || validateChain(v) !== ValidationResult.VALID)
    throw badBody(`chain_id must be a base58 chain id (Net…), got ${JSON.stringify(v).slice(0, 80)}`);
  return v;
}

function send(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.type('application/json').send(JSON.stringify(value));
}

function scriptError(e: MichelsonError): RpcError {
  return new RpcError(500, e.toOctez(PROTO));
}

function optAddress(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || validateAddress(v) !== ValidationResult.VALID)
    throw badBody(`${field} must be an address`);
  return v;
}

function optNat(v: unknown, field: string): bigint | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') throw badBody(`${field} must be a number`);
  if (!/^\d{1,20}$/.test(String(v))) throw badBody(`${field} must be a natural number`);
  return BigInt(v);
}

function optTimestamp(v: unknown): bigint | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' && !/^-?\d+$/.test(v)) {
    const ms = Date.parse(v);
    if (Number.isNaN(ms)) throw badBody('now must be a timestamp');
    return BigInt(Math.floor(ms / 1000));
  }
  return optNat(v, 'now');
}

function gasOf(v: unknown): number {
  const g = optNat(v, 'gas');
  const limit = BigInt(HARD_GAS_LIMIT_PER_OPERATION) * 1000n;
  return Number(g === undefined || g * 1000n > limit ? limit : g * 1000n);
}

/** The common "who/when" fields of run_code-like bodies, with the node's defaults. */
function envFields(
  b: Record<string, unknown>,
  sandbox: ScriptHost,
  level: number,
): Partial<RunContractInput> {
  const chainId = chainIdOf(b.chain_id);
  const head = sandbox.block(level)!.header;
  // Octez lib_plugin/RPC.ml `sender_and_payer`: the body's `source` is SENDER, `payer` (an implicit account) is
  // SOURCE. Neither: SENDER is the contract run (self), SOURCE the zero implicit account; `source` alone: SOURCE
  // is still the zero account; `payer` alone: it is SENDER and SOURCE.
  const sender = optAddress(b.source, 'source');
  const payer = optAddress(b.payer, 'payer');
  if (payer?.startsWith('KT1')) throw badBody('payer must be an implicit account (tz…)');
  const self = optAddress(b.self, 'self');
  return {
    ...(sender ? { sender } : payer ? { sender: payer } : {}),
    ...(payer ? { source: payer } : {}),
    ...(self ? { self } : {}),
    now: optTimestamp(b.now) ?? BigInt(Math.floor(Date.parse(head.timestamp) / 1000)),
    level: optNat(b.level, 'level') ?? BigInt(level),
    chainId,
    gasLimit: gasOf(b.gas),
  };
}

function gasString(milligas: number): string {
  const whole = Math.floor(milligas / 1000);
  const frac = milligas % 1000;
  return frac === 0 ? String(whole) : `${whole}.${String(frac).padStart(3, '0').replace(/0+$/, '')}`;
}

/** The chain seen by run_code: the dummy SELF is originated with the script (CONTRACT finds it), as in Octez. */
function runChain(
  state: State,
  script: unknown,
  dummy: boolean,
  next: () => string,
  listings: () => Listings,
): ChainContext {
  const base = chainContext(state, { listings });
  const parameter = dummy ? scriptSections(expandedCode(state, script)).parameter : undefined;
  return {
    ...base,
    originatedAddress: next,
    contract: (addr) => (parameter && addr === DUMMY_CONTRACT ? { parameter } : base.contract!(addr)),
  };
}

function runCode(sandbox: ScriptHost, p: Params, body: unknown, trace: boolean) {
  const level = blockOf(sandbox, p).header.level;
  // A throwaway context, as Octez's: big maps the run creates or copies take the block's next fresh ids.
  const state = sandbox.stateAt(level).fork();
  let temporary = 0n;
  let temporarySapling = 0n;
  const b = objectBody(body, '{script, storage, input, amount, chain_id}');
  if (b.script === undefined || b.storage === undefined || b.input === undefined)
    throw badBody('script, storage and input are required');
  const amount = optNat(b.amount ?? '0', 'amount')!;
  const balance = optNat(b.balance, 'balance');
  const steps: Array<{ location: number; gas: string; stack: Expr[] }> = [];
  const mode = unparsingMode(b.unparsing_mode);
  const env = envFields(b, sandbox, level);
  const self = env.self ?? DUMMY_CONTRACT;
  const nonce = originations(env.self === undefined);
  const run = runContract({
    script: b.script as Expr,
    storage: b.storage as Expr,
    parameter: b.input as Expr,
    entrypoint: typeof b.entrypoint === 'string' ? b.entrypoint : 'default',
    amount,
    ...(balance !== undefined ? { balance: balance + amount } : {}),
    ...env,
    self,
    chain: runChain(state, b.script, env.self === undefined, nonce.originatedAddress, () =>
      sandbox.listingsAt(level),
    ),
    allocateBigMapId: () => state.nextBigMapId(),
    // Big maps carried by emitted operations: temporary ids (-1, -2, …), as in Octez.
    allocateTemporaryBigMapId: () => --temporary,
    // Sapling states likewise, from their own counter (Octez's Storage.Sapling.Next and Temp_ids).
    allocateSaplingId: () => state.nextSaplingId(),
    allocateTemporarySaplingId: () => --temporarySapling,
    unparsingMode: mode,
    ...(trace
      ? {
          onStep: (e: StepEvent) =>
            steps.push({ location: e.location, gas: gasString(e.gasLeft), stack: e.stack }),
        }
      : {}),
  });
  if (!run.ok) throw nonce.failed() ? undefinedNonce(self) : scriptError(run.error);
  const out: Record<string, unknown> = {
    storage: run.storage,
    operations: run.operations.map((o) => o.json),
  };
  if (trace) out.trace = steps;
  if (run.lazyStorageDiff.length > 0) out.lazy_storage_diff = run.lazyStorageDiff;
  return out;
}

function contractScript(state: State, address: unknown) {
  const a = optAddress(address, 'contract');
  const c = a ? state.contract(a) : undefined;
  if (!a || !c)
    throw new RpcError(404, [
      { kind: 'temporary', id: `${P}contract.non_existing_contract`, contract: String(address) },
    ]);
  return { address: a, c };
}

/** run_view (TZIP-4): calls `entrypoint` with (input, callback) and returns what reaches the callback. */
function runCallbackView(sandbox: ScriptHost, p: Params, body: unknown) {
  const level = blockOf(sandbox, p).header.level;
  const state = sandbox.stateAt(level);
  const b = objectBody(body, '{contract, entrypoint, input, chain_id}');
  const { address, c } = contractScript(state, b.contract);
  if (typeof b.entrypoint !== 'string') throw badBody('entrypoint is required');
  const parameter = scriptSections(expandedCode(state, c.code)).parameter;
  const epType = parameter ? entrypointsOf(parameter)[b.entrypoint] : undefined;
  const cb = epType as { prim?: string; args?: Array<{ prim?: string; args?: Expr[] }> } | undefined;
  const cbType = cb?.prim === 'pair' && cb.args?.[1]?.prim === 'contract' ? cb.args[1].args?.[0] : undefined;
  if (!cbType)
    throw new RpcError(500, [
      {
        kind: 'permanent',
        id: `${P}michelson_v1.run_view.ill_typed_view_entrypoint`,
        entrypoint: b.entrypoint,
      },
    ]);
  const base = chainContext(state, { listings: () => sandbox.listingsAt(level) });
  const chain: ChainContext = {
    ...base,
    contract: (addr) => (addr === DUMMY_CONTRACT ? { parameter: cbType } : base.contract!(addr)),
    originatedAddress: originations(true).originatedAddress,
  };
  const run = runContract({
    script: c.code,
    storage: c.storage,
    parameter: { prim: 'Pair', args: [b.input as Expr, { string: DUMMY_CONTRACT }] },
    entrypoint: b.entrypoint,
    balance: BigInt(c.balance),
    ...envFields(b, sandbox, level),
    self: address,
    chain,
    unparsingMode: unparsingMode(b.unparsing_mode),
  });
  if (!run.ok) throw scriptError(run.error);
  const call = run.operations
    .map((o) => o.json)
    .find((o) => o.kind === 'transaction' && o.destination === DUMMY_CONTRACT);
  if (!call || call.kind !== 'transaction')
    throw new RpcError(500, [
      { kind: 'permanent', id: `${P}michelson_v1.run_view.view_never_returns`, callback: DUMMY_CONTRACT },
    ]);
  return { data: call.parameters?.value ?? { prim: 'Unit' } };
}

/**
 * Octez's pack_data parses the type with parse_packable_ty: no lazy storage (big_map, sapling_state), operation nor
 * ticket, except inside a lambda (tezt/tests/hash_data.ml's "bad" cases: `{}` of `big_map nat bytes` or
 * `sapling_state 8`, tickets). The error and its location (pre-order node index in the type).
 */
function unpackableAt(type: unknown): { id: string; loc: number } | null {
  const ids: Record<string, string> = {
    big_map: 'michelson_v1.unexpected_lazy_storage',
    sapling_state: 'michelson_v1.unexpected_lazy_storage',
    operation: 'michelson_v1.unexpected_operation',
    ticket: 'michelson_v1.unexpected_ticket',
  };
  let loc = 0;
  // every node counts for locations; inside a lambda nothing is refused
  const walk = (e: unknown, inLambda: boolean): { id: string; loc: number } | null => {
    const here = loc++;
    let found: { id: string; loc: number } | null = null;
    const children = Array.isArray(e)
      ? e
      : e && typeof e === 'object' && 'prim' in e
        ? ((e as { args?: unknown[] }).args ?? [])
        : [];
    const prim = e && typeof e === 'object' && 'prim' in e ? e.prim : undefined;
    if (!inLambda && typeof prim === 'string' && ids[prim]) return { id: ids[prim], loc: here };
    for (const x of children) found ??= walk(x, inLambda || prim === 'lambda');
    return found;
  };
  return walk(type, false);
}

/** A script RPC: what it answers, from the chain (`host`), the path's parameters and the body. */
export type ScriptHandler = (host: ScriptHost, p: Params, body: unknown) => unknown;

/** The RPCs under `/chains/:chain/blocks/:block/helpers/scripts/`, by name. */
export const scriptHandlers: Record<string, ScriptHandler> = {
  run_code: (sandbox, p, body) => runCode(sandbox, p, body, false),
  trace_code: (sandbox, p, body) => runCode(sandbox, p, body, true),
  run_view: (sandbox, p, body) => runCallbackView(sandbox, p, body),
  normalize_data: normalizeDataRpc,

  run_script_view: (sandbox, p, body) => {
    const level = blockOf(sandbox, p).header.level;
    const state = sandbox.stateAt(level);
    const b = objectBody(body, '{contract, view, input, chain_id}');
    const { address, c } = contractScript(state, b.contract);
    if (typeof b.view !== 'string') throw badBody('view is required');
    const unlimited = b.unlimited_gas === true;
    const run = runView({
      script: c.code,
      storage: c.storage,
      view: b.view,
      input: b.input as Expr,
      balance: BigInt(c.balance),
      ...envFields(b, sandbox, level),
      ...(unlimited ? { gasLimit: Number.MAX_SAFE_INTEGER } : {}),
      self: address,
      chain: chainContext(state, { listings: () => sandbox.listingsAt(level) }),
      unparsingMode: unparsingMode(b.unparsing_mode),
    });
    if (!run.ok) {
      if (run.error.message.startsWith('no view named')) {
        throw new RpcError(500, [
          { kind: 'permanent', id: `${P}michelson_v1.view_not_found`, contract: address, view: b.view },
        ]);
      }
      throw scriptError(run.error);
    }
    return { data: run.data };
  },

  pack_data: (sandbox, p, body) => {
    const state = sandbox.stateAt(blockOf(sandbox, p).header.level);
    const b = objectBody(body, '{data, type}');
    const unpackable = unpackableAt(b.type);
    if (unpackable)
      throw new RpcError(500, [{ kind: 'permanent', id: `${P}${unpackable.id}`, loc: unpackable.loc }]);
    try {
      const v = interpreterFor(state).parseValue(b.data as Expr, toTy(b.type as Expr));
      return { packed: packValue(v), gas: 'unaccounted' };
    } catch (e) {
      throw new RpcError(500, [
        {
          kind: 'permanent',
          id: `${P}michelson_v1.ill_typed_data`,
          msg: e instanceof Error ? e.message : String(e),
        },
      ]);
    }
  },

  typecheck_code: (sandbox, p, body) => {
    const state = sandbox.stateAt(blockOf(sandbox, p).header.level);
    const b = objectBody(body, '{program}');
    let loaded: ReturnType<typeof loadScript>;
    try {
      loaded = loadScript(b.program as Expr, chainContext(state), { legacy: b.legacy === true });
    } catch (e) {
      if (e instanceof MichelsonError) throw scriptError(e);
      throw badBody(e instanceof Error ? e.message : String(e));
    }
    let types: TypeMapEntry[] = [];
    if (b.show_types !== false) {
      try {
        types = typeMap(expandedCode(state, b.program));
      } catch {
        // Accepted by our interpreter but not by michel-codec (e.g. a legacy instruction): no map.
        types = [];
      }
    }
    return { type_map: types, gas: String(Math.ceil((loaded.size * 139) / 1000)) };
  },

  entrypoints: (_sandbox, _p, body) => {
    const b = objectBody(body, '{script}');
    if (!Array.isArray(b.script)) throw badBody('script must be a Micheline sequence');
    try {
      // Like the node, the whole script must parse and typecheck.
      loadScript(b.script as Expr, {}, { legacy: true });
    } catch (e) {
      if (e instanceof MichelsonError) throw scriptError(e);
      throw badBody(e instanceof Error ? e.message : String(e));
    }
    return { entrypoints: entrypointsOf(scriptSections(b.script as Expr[]).parameter!) };
  },
};

/**
 * Registers the script RPCs. With a `runner` (a pool of script workers) each runs there, on a snapshot
 * of the chain, under the runner's time limit; without, in this thread.
 */
export function registerScriptRoutes(app: FastifyInstance, sandbox: ScriptHost, runner?: ScriptRunner): void {
  for (const name of Object.keys(scriptHandlers)) {
    const path = `scripts/${name}`;
    app.post<{ Params: Params }>(`/chains/:chain/blocks/:block/helpers/${path}`, async (req, reply) =>
      runner
        ? reply
            .type('application/json')
            .send(await runner.run(path, req.params, req.body, runner.clientOf(req)))
        : send(reply, scriptHandlers[name]!(sandbox, req.params, req.body)),
    );
  }
}
