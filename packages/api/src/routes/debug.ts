/**
 * The debugger (issue 20): POST …/entrypoints/debug runs one call in our interpreter, in a debug worker
 * (debug/runner.ts), at the indexed head with the contract's stored storage and its balance, and answers every
 * step (location, stack, gas) as a compact trace with the script's formatted text and each step's place in it.
 */
import {
  DebugRequest,
  DebugResult,
  ErrorBody,
  NetworkName,
  ScriptDebugRequest,
  ViewRequest,
} from '@michelscope/api-types';
import { formToMicheline, parametersForExecution, toMicheline, type Micheline } from '@michelscope/michelson';
import { constants as zlib } from 'node:zlib';
import { LIMITS, OPERATION_COST } from '@michelscope/interpreter';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import { metadataErrors } from '../debug/metadata-errors';
import type { DebugCall } from '../debug/record';
import { replayInput } from '../debug/replay-input';
import { DebugRunner } from '../debug/runner';
import { fullScript, requireScript } from '../services/contracts';
import { nodeRpc } from '../services/node-rpc';
import { offChainViewScript, onChainView, storageViewOf } from '../services/views';
import { ADDRESS_RE, AddressParams, CONTRACT_RE, requireAddress, requireNetwork } from '../validate';
import { asClientError } from './actions';
import { RUN_CODE_DEFAULT_SELF } from './simulate';
import { bundleCall, registerWhatIf, resolveWhatIfStart, stateBlock, storageAt } from './whatif';
import { sendValidatedJson } from '../validated-json';

const E = { 400: ErrorBody, 404: ErrorBody, 502: ErrorBody, 503: ErrorBody, 504: ErrorBody };
/**
 * A recording's answer is megabytes of JSON (2.6 MB for 100,000 steps): brotli quality 2 takes 22 ms where the
 * API's default 4 takes 53 ms (more through the stream) for 9 % more bytes (0.24 MB against 0.22 MB), and gzip
 * level 1 18 ms where 6 takes 80 ms (bench/RESULTS.md, issue 20): the debugger opens that much sooner.
 */
const RECORDING_COMPRESSION = {
  brotliOptions: {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 2, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
  },
  zlibOptions: { level: 1 },
};
export const debugRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext; runner?: DebugRunner }> = async (
  app,
  { ctx, runner: given },
) => {
  let runner = given;

  /** A request's checks (network, contract, source and sender addresses), then the contract's script. */
  const checkedScript = (network: string, address: string, b: { source?: string; sender?: string }) => {
    requireNetwork(ctx, network);
    requireAddress(address, CONTRACT_RE, 'contract address', 404);
    if (b.source) requireAddress(b.source, ADDRESS_RE, 'source');
    if (b.sender) requireAddress(b.sender, ADDRESS_RE, 'sender');
    return requireScript(ctx, network, address);
  };
  /**
   * What a call at the indexed head (or, with `atLevel`, at the end of that past block: the what-if's
   * `stateBlock` and `storageAt`) runs with: the block, the contract's storage and balance, time, gas, and
   * where it ran (`state`).
   */
  const headState = async (
    network: string,
    address: string,
    gasLimit: number | undefined,
    atLevel?: number,
  ) => {
    const at = await stateBlock(ctx, network, address, atLevel);
    const block = String(at.level);
    const storage = await storageAt(ctx, network, address, at);
    const balance = await nodeRpc<string>(
      ctx,
      network,
      `/chains/main/blocks/${block}/context/contracts/${address}/balance`,
    ).catch(() => '0');
    const chainId = at.chainId ?? (await nodeRpc<string>(ctx, network, '/chains/main/chain_id'));
    const hard = at.head.hard_gas_limit_per_operation ?? LIMITS.hardGasLimitPerOperation / 1000;
    return {
      block,
      storage,
      balance: /^\d+$/.test(String(balance)) ? String(balance) : '0',
      chainId,
      now: String(Math.floor(at.timestamp.getTime() / 1000)),
      gasLimit: Math.min(gasLimit ?? hard, hard) * 1000,
      state: { level: at.level, head_level: at.head.level, changed_since: at.changed },
    };
  };
  app.addHook('onClose', async () => {
    if (!given) await runner?.close();
  });
  registerWhatIf(app, ctx, () => (runner ??= new DebugRunner(ctx)));

  app.post(
    '/contract/:network/:address/entrypoints/debug',
    {
      compress: RECORDING_COMPRESSION,
      schema: {
        summary:
          'Debug a call: run it in the interpreter and answer every step (location, typed stack, gas) as a compact trace',
        description:
          'Runs at the indexed head (or, with `at_level`, against the state at the end of that block) with the ' +
          'stored storage and the contract balance, in a worker with a wall-clock ' +
          'limit (504 past it). The trace equals the node’s trace_code for the same inputs; a failed call is ' +
          'recorded up to the failing instruction (`failure`).',
        tags: ['contract'],
        params: AddressParams,
        body: DebugRequest,
        response: { 200: DebugResult, ...E },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      const b = request.body;
      const script = await checkedScript(network, address, b);
      if (b.overrides || b.before?.length || b.storage_limit !== undefined || b.at_level !== undefined) {
        // a what-if call: the overridden state, after the bundle's earlier calls (a storage limit needs the
        // what-if's run of the internal operations and its storage accounting; a pinned level, its state read)
        const w = await resolveWhatIfStart(ctx, network, address, script, b.overrides, b.at_level);
        const before = (b.before ?? []).map((c, i) => bundleCall(script, w, c, `before[${i}]`));
        const c = bundleCall(script, w, b, 'call');
        const call = {
          script: w.start.script,
          storage: w.start.storage,
          parameter: c.parameter,
          entrypoint: c.entrypoint,
          amount: c.amount,
          balance: w.start.balance,
          ...(c.sender ? { sender: c.sender } : {}),
          ...(c.source ? { source: c.source } : {}),
          self: address,
          now: w.start.now,
          level: w.start.level,
          chainId: w.start.chainId,
          gasLimit: c.gasLimit,
          fixedMilligas: fixedCost(c.sender),
        };
        runner ??= new DebugRunner(ctx);
        const json = await runner
          .forClient(request.ip)
          .record(
            network,
            String(w.state.level),
            call,
            { inputs: inputsOf(call), ...(b.at_level !== undefined ? { state: w.state } : {}) },
            await metadataErrors(ctx, network, address),
            undefined,
            { start: w.start, before, ...(c.storageLimit !== undefined ? { call: c } : {}) },
          );
        return sendValidatedJson(reply, json);
      }
      const param = toMicheline(script.parameter);
      const params =
        b.value !== undefined
          ? { entrypoint: b.name, value: asClientError(() => toMicheline(b.value)) }
          : asClientError(() => parametersForExecution(param, b.name, b.data ?? {}));
      const at = await headState(network, address, b.gas_limit);
      const sender = b.sender ?? b.source;
      const call = {
        script: fullScript(script),
        storage: at.storage,
        parameter: params.value,
        entrypoint: params.entrypoint,
        amount: String(b.amount ?? 0),
        balance: at.balance,
        ...(sender ? { sender } : {}),
        ...(b.source ? { source: b.source } : {}),
        self: address,
        now: at.now,
        level: at.block,
        chainId: at.chainId,
        gasLimit: at.gasLimit,
        fixedMilligas: fixedCost(sender),
      };
      const errors = await metadataErrors(ctx, network, address);
      runner ??= new DebugRunner(ctx);
      const json = await runner
        .forClient(request.ip)
        .record(network, at.block, call, { inputs: inputsOf(call) }, errors);
      // the worker built the JSON text and checked it against DebugResult: sent as it is (no second
      // serialisation on this thread)
      return sendValidatedJson(reply, json);
    },
  );

  app.post(
    '/contract/:network/:address/views/debug',
    {
      compress: RECORDING_COMPRESSION,
      schema: {
        summary:
          'Debug a view: run an on-chain or off-chain (TZIP-16) view in the interpreter, every step recorded',
        description:
          'The same request as …/views/execute, answered as …/entrypoints/debug answers a call (locations, typed ' +
          'stacks, gas) with the view’s `result`. An on-chain view runs as run_script_view does (the script’s ' +
          '`view`, its input paired with the storage); an off-chain michelsonStorageView runs as the wrapper ' +
          'script that …/views/execute gives run_code. At the indexed head, or with `at_level` against the state ' +
          'at the end of that block (as …/views/execute), in a worker with a wall-clock limit; `state` says the ' +
          'level it ran at, the head, and whether the contract changed since.',
        tags: ['views'],
        params: AddressParams,
        body: ViewRequest,
        response: { 200: DebugResult, ...E },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      const b = request.body;
      const script = await checkedScript(network, address, b);
      const at = await headState(network, address, b.gas_limit, b.at_level);
      const sender = b.sender ?? b.source;
      const common = {
        ...(sender ? { sender } : {}),
        ...(b.source ? { source: b.source } : {}),
        self: address,
        now: at.now,
        level: at.block,
        chainId: at.chainId,
        gasLimit: at.gasLimit,
        fixedMilligas: 0,
      };
      let call: DebugCall;
      let name: string;
      if (b.kind === 'on-chain') {
        const view = onChainView(script.views, b.name, b.data);
        name = view.name;
        const body = { script: fullScript(script), storage: at.storage, parameter: view.input };
        call = { ...body, entrypoint: name, view: name, amount: '0', balance: at.balance, ...common };
      } else {
        const w = offChainViewScript(storageViewOf(b.view), toMicheline(script.storage), at.storage, (t) =>
          asClientError(() => formToMicheline(t, b.data ?? {})),
        );
        name = b.name ?? 'off-chain view';
        const body = { script: w.script, storage: { prim: 'None' }, parameter: w.input, storageView: true };
        call = { ...body, entrypoint: 'default', amount: String(b.amount ?? 0), balance: '0', ...common };
      }
      runner ??= new DebugRunner(ctx);
      const json = await runner
        .forClient(request.ip)
        .record(
          network,
          at.block,
          call,
          { inputs: inputsOf(call), view: { kind: b.kind, name }, state: at.state },
          await metadataErrors(ctx, network, address),
        );
      return sendValidatedJson(reply, json);
    },
  );

  app.post(
    '/script/:network/debug',
    {
      compress: RECORDING_COMPRESSION,
      schema: {
        summary: 'Debug a call of an undeployed script: run its code with a given storage and parameter',
        description:
          'A deploy’s debugger: the script (typechecked as a new origination) runs at the indexed head (or, ' +
          'with `at_level`, at that block’s level and time) like run_code runs it (SELF is run_code’s default ' +
          'address, the balance and amount given), every step recorded as …/entrypoints/debug answers; `state` ' +
          'says the level it ran at. Bad Micheline is a 400; an ill-typed script or value is a failed run ' +
          '(`failure`).',
        tags: ['contract'],
        params: Type.Object({ network: NetworkName }),
        body: ScriptDebugRequest,
        response: { 200: DebugResult, ...E },
      },
    },
    async (request, reply) => {
      const { network } = request.params;
      requireNetwork(ctx, network);
      const b = request.body;
      if (b.source) requireAddress(b.source, ADDRESS_RE, 'source');
      if (b.sender) requireAddress(b.sender, ADDRESS_RE, 'sender');
      const script = asClientError(() => b.script.map((x) => toMicheline(x)));
      // the block it runs at: the indexed head, or a deploy link's level (its level and time)
      const at = await stateBlock(ctx, network, undefined, b.at_level);
      const head = at.head;
      const hard = head.hard_gas_limit_per_operation ?? LIMITS.hardGasLimitPerOperation / 1000;
      const sender = b.sender ?? b.source;
      const call: DebugCall = {
        script,
        storage: asClientError(() => toMicheline(b.storage)),
        parameter: asClientError(() => toMicheline(b.parameter)),
        entrypoint: b.entrypoint ?? 'default',
        amount: String(b.amount ?? 0),
        balance: String(b.balance ?? 0),
        ...(sender ? { sender } : {}),
        ...(b.source ? { source: b.source } : {}),
        // an undeployed script runs as run_code runs it without `self`
        self: RUN_CODE_DEFAULT_SELF,
        now: String(Math.floor(at.timestamp.getTime() / 1000)),
        level: String(at.level),
        chainId: at.chainId ?? (await nodeRpc<string>(ctx, network, '/chains/main/chain_id')),
        gasLimit: Math.min(b.gas_limit ?? hard, hard) * 1000,
        fixedMilligas: fixedCost(sender),
        newScript: true,
      };
      runner ??= new DebugRunner(ctx);
      const json = await runner.forClient(request.ip).record(network, String(at.level), call, {
        inputs: inputsOf(call),
        state: { level: at.level, head_level: head.level, changed_since: false },
      });
      return sendValidatedJson(reply, json);
    },
  );

  app.post(
    '/operation/:network/:id/debug',
    {
      compress: RECORDING_COMPRESSION,
      schema: {
        summary:
          'Debug an indexed contract call: re-execute it at its level and compare with the recorded result',
        description:
          'The call (top-level or internal, applied, failed or backtracked) runs ' +
          'in the interpreter with the state it ran with: ' +
          'the end of the level before, changed by the operations of its block before it (its storage, contracts’ ' +
          'balances, big-map entries), its sender, source, amount, parameter, level and time, as the protocol ' +
          'applies it. In a failed group, the group’s earlier operations (contents before it, its emitter and the ' +
          'internal calls before it), backtracked since, count as applied: their storage and big-map writes are ' +
          'read from the group’s receipt on the node, and so is the script, initial storage and balance of a contract ' +
          'the group originated (404 when the node no longer has the block’s receipt). `replay` says whether status, storage, the script’s gas (to ' +
          'the milligas), the entries written in big maps and a failure’s FAILWITH value equal the recorded ones, ' +
          'and what differs; a backtracked call ran to its end, so its replay applies and is compared with its ' +
          'receipt. A call backtracked for its storage runs ' +
          'again with its storage_limit and fails as `failure.storage` says (the limit, the bytes it needs); ' +
          '`replay` then compares its gas and the growth of its contract with the receipt’s.',
        tags: ['operation'],
        params: Type.Object({
          network: NetworkName,
          id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
        }),
        response: { 200: DebugResult, ...E },
      },
    },
    async (request, reply) => {
      const { network, id } = request.params;
      requireNetwork(ctx, network);
      const r = await replayInput(ctx, network, id);
      runner ??= new DebugRunner(ctx);
      const json = await runner
        .forClient(request.ip)
        .record(
          network,
          r.block,
          r.call,
          { inputs: inputsOf(r.call) },
          await metadataErrors(ctx, network, r.address),
          r.recorded,
          r.bundle,
          r.at,
        );
      return sendValidatedJson(reply, json);
    },
  );
};

/**
 * The fixed cost the node's receipt adds to a call's script gas: a call's, and the operation's own (a manager
 * operation's, or an internal transfer's when a contract sends it).
 */
const fixedCost = (sender: string | undefined) =>
  OPERATION_COST.call +
  (sender?.startsWith('KT1') ? OPERATION_COST.internalTransfer : OPERATION_COST.manager);

/** The inputs a recording ran with, echoed in the answer (`inputs`). */
function inputsOf(call: {
  entrypoint: string;
  parameter: Micheline;
  storage: Micheline;
  amount: string;
  balance: string;
  sender?: string;
  source?: string;
  self: string;
  now: string;
  level: string;
  chainId: string;
}): DebugResult['inputs'] {
  return {
    entrypoint: call.entrypoint,
    parameter: call.parameter,
    storage: call.storage,
    amount: call.amount,
    balance: call.balance,
    ...(call.sender ? { sender: call.sender } : {}),
    ...(call.source ? { source: call.source } : {}),
    self: call.self,
    now: new Date(Number(call.now) * 1000).toISOString().replace('.000Z', 'Z'),
    level: call.level,
    chain_id: call.chainId,
  };
}
