/**
 * The debugger (issue 20): POST …/entrypoints/debug runs one call in our interpreter, in a debug worker
 * (debug/runner.ts), at the indexed head with the contract's stored storage and its balance, and answers every
 * step (location, stack, gas) as a compact trace with the script's formatted text and each step's place in it.
 */
import { DebugRequest, DebugResult, ErrorBody, NetworkName } from '@michelscope/api-types';
import { getHeads, operationById, previousStorage } from '@michelscope/db/read';
import {
  entrypointType,
  normalizeValue,
  parametersForExecution,
  toMicheline,
  type Micheline,
} from '@michelscope/michelson';
import { LIMITS, OPERATION_COST } from '@michelscope/interpreter';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import type { MetadataError } from '../debug/record';
import { DebugRunner } from '../debug/runner';
import { contractMetadataOf } from '../services/tokens';
import { HttpError } from '../errors';
import { fullScript, requireScript, resolveStorage } from '../services/contracts';
import { nodeRpc } from '../services/node-rpc';
import { ADDRESS_RE, AddressParams, CONTRACT_RE, requireAddress, requireNetwork } from '../validate';
import { asClientError } from './actions';
import { bundleCall, registerWhatIf, resolveWhatIfStart } from './whatif';

const E = { 400: ErrorBody, 404: ErrorBody, 502: ErrorBody, 503: ErrorBody, 504: ErrorBody };
export const debugRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext; runner?: DebugRunner }> = async (
  app,
  { ctx, runner: given },
) => {
  let runner = given;

  /** The contract's TZIP-16 static `errors` (a view-computed meaning is not run). */
  const staticErrors = async (network: string, address: string): Promise<MetadataError[]> => {
    const metadata = (await contractMetadataOf(ctx, network, address).catch(() => null)) as {
      errors?: unknown;
    } | null;
    return (Array.isArray(metadata?.errors) ? metadata.errors : [])
      .filter((e): e is MetadataError => !!e && typeof e === 'object' && 'error' in e && 'expansion' in e)
      .slice(0, 1000);
  };
  app.addHook('onClose', async () => {
    if (!given) await runner?.close();
  });
  registerWhatIf(app, ctx, () => (runner ??= new DebugRunner(ctx)));

  app.post(
    '/contract/:network/:address/entrypoints/debug',
    {
      schema: {
        summary:
          'Debug a call: run it in the interpreter and answer every step (location, typed stack, gas) as a compact trace',
        description:
          'Runs at the indexed head with the stored storage and the contract balance, in a worker with a wall-clock ' +
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
      requireNetwork(ctx, network);
      requireAddress(address, CONTRACT_RE, 'contract address', 404);
      const b = request.body;
      if (b.source) requireAddress(b.source, ADDRESS_RE, 'source');
      if (b.sender) requireAddress(b.sender, ADDRESS_RE, 'sender');
      const script = await requireScript(ctx, network, address);
      if (b.overrides || b.before?.length) {
        // a what-if call: the overridden state, after the bundle's earlier calls
        const w = await resolveWhatIfStart(ctx, network, address, script, b.overrides);
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
        const json = await runner.record(
          network,
          String(w.head.level),
          call,
          { inputs: inputsOf(call) },
          await staticErrors(network, address),
          undefined,
          { start: w.start, before },
        );
        return reply.type('application/json; charset=utf-8').send(json as unknown as DebugResult);
      }
      const param = toMicheline(script.parameter);
      const params =
        b.value !== undefined
          ? { entrypoint: b.name, value: asClientError(() => toMicheline(b.value)) }
          : asClientError(() => parametersForExecution(param, b.name, b.data ?? {}));
      const head = (await getHeads(ctx.db, [network])).get(network);
      if (!head) throw new HttpError(404, `network ${network} is not indexed yet`);
      const block = String(head.level);
      const storage = await resolveStorage(ctx, network, address, head.level);
      const balance = await nodeRpc<string>(
        ctx,
        network,
        `/chains/main/blocks/${block}/context/contracts/${address}/balance`,
      ).catch(() => '0');
      const chainId = head.chain_id ?? (await nodeRpc<string>(ctx, network, '/chains/main/chain_id'));
      const hard = head.hard_gas_limit_per_operation ?? LIMITS.hardGasLimitPerOperation / 1000;
      const gasLimit = Math.min(b.gas_limit ?? hard, hard) * 1000;
      const sender = b.sender ?? b.source;
      const call = {
        script: fullScript(script),
        storage,
        parameter: params.value,
        entrypoint: params.entrypoint,
        amount: String(b.amount ?? 0),
        balance: /^\d+$/.test(String(balance)) ? String(balance) : '0',
        ...(sender ? { sender } : {}),
        ...(b.source ? { source: b.source } : {}),
        self: address,
        now: String(Math.floor(head.timestamp.getTime() / 1000)),
        level: block,
        chainId,
        gasLimit,
        fixedMilligas: fixedCost(sender),
      };
      const errors = await staticErrors(network, address);
      runner ??= new DebugRunner(ctx);
      const json = await runner.record(network, block, call, { inputs: inputsOf(call) }, errors);
      // the worker built the JSON text: a string is sent as it is (no second serialisation on this thread)
      return reply.type('application/json; charset=utf-8').send(json as unknown as DebugResult);
    },
  );

  app.post(
    '/operation/:network/:id/debug',
    {
      schema: {
        summary:
          'Debug an indexed contract call: re-execute it at its level and compare with the recorded result',
        description:
          'The call (top-level or internal, applied or failed) runs in the interpreter with the storage before it ' +
          '(the previous stored storage, else the node’s at the level before), the big maps and balance of the ' +
          'level before, its sender, source, amount, parameter, level and time. `replay` says whether status, ' +
          'storage and gas equal the recorded ones, and what differs.',
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
      const op = await operationById(ctx.db, network, id);
      if (!op) throw new HttpError(404, 'not found');
      const address = op.destination ?? '';
      const prm = op.parameters as { entrypoint?: unknown; value?: unknown } | null;
      if (op.kind !== 'transaction' || !CONTRACT_RE.test(address) || !prm || prm.value === undefined)
        throw new HttpError(400, 'only a call of a contract (a transaction with parameters) can be debugged');
      if (op.status !== 'applied' && op.status !== 'failed')
        throw new HttpError(400, `a ${op.status} operation did not run: nothing to debug`);
      const script = await requireScript(ctx, network, address);
      const before = String(op.level - 1);
      const prev = await previousStorage(ctx.db, network, address, op.id);
      const storage =
        prev?.storage != null
          ? toMicheline(prev.storage)
          : toMicheline(
              await nodeRpc(
                ctx,
                network,
                `/chains/main/blocks/${before}/context/contracts/${address}/storage`,
              ),
            );
      const balance = await nodeRpc<string>(
        ctx,
        network,
        `/chains/main/blocks/${before}/context/contracts/${address}/balance`,
      ).catch(() => '0');
      const head = (await getHeads(ctx.db, [network])).get(network);
      const chainId = head?.chain_id ?? (await nodeRpc<string>(ctx, network, '/chains/main/chain_id'));
      // an internal call: SENDER is the calling contract, SOURCE the implicit account that started the group
      const sender = op.source ?? undefined;
      const source = (op.internal ? op.initiator : op.source) ?? undefined;
      // values as the chain passed them (optimized: addresses, keys, timestamps as bytes/ints), whose
      // parsing costs the gas the receipt paid; readable forms would cost more
      const entrypoint = typeof prm.entrypoint === 'string' ? prm.entrypoint : 'default';
      const param = toMicheline(script.parameter);
      const epType = entrypointType(param, entrypoint) ?? (entrypoint === 'default' ? param : undefined);
      const optimized = (type: unknown, v: Micheline): Micheline => {
        try {
          return normalizeValue(toMicheline(type), v, 'optimized');
        } catch {
          return v;
        }
      };
      // the receipt adds to the script's gas the fixed cost of a call (OPERATION_COST.call, the interpreter's
      // figure for Octez's) and the operation's own: a manager operation's, or an internal transfer's
      const consumed = Number(op.consumed_gas ?? 0);
      const fixed =
        OPERATION_COST.call + (op.internal ? OPERATION_COST.internalTransfer : OPERATION_COST.manager);
      const call = {
        script: fullScript(script),
        storage: optimized(script.storage, storage),
        parameter: epType ? optimized(epType, toMicheline(prm.value)) : toMicheline(prm.value),
        entrypoint,
        amount: String(op.amount ?? 0),
        balance: /^\d+$/.test(String(balance)) ? String(balance) : '0',
        ...(sender ? { sender } : {}),
        ...(source ? { source } : {}),
        self: address,
        now: String(Math.floor(new Date(op.timestamp).getTime() / 1000)),
        level: String(op.level),
        chainId,
        gasLimit: LIMITS.hardGasLimitPerOperation,
        fixedMilligas: fixed,
      };
      const milligas = Math.max(0, consumed - fixed);
      runner ??= new DebugRunner(ctx);
      const json = await runner.record(
        network,
        before,
        call,
        { inputs: inputsOf(call) },
        await staticErrors(network, address),
        {
          status: op.status,
          ...(op.status === 'applied' && op.storage != null ? { storage: toMicheline(op.storage) } : {}),
          storageType: toMicheline(script.storage),
          milligas,
        },
      );
      return reply.type('application/json; charset=utf-8').send(json as unknown as DebugResult);
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
  parameter: unknown;
  storage: unknown;
  amount: string;
  balance: string;
  sender?: string;
  source?: string;
  self: string;
  now: string;
  level: string;
  chainId: string;
}) {
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
