/**
 * The debugger (issue 20): POST …/entrypoints/debug runs one call in our interpreter, in a debug worker
 * (debug/runner.ts), at the indexed head with the contract's stored storage and its balance, and answers every
 * step (location, stack, gas) as a compact trace with the script's formatted text and each step's place in it.
 */
import { DebugResult, ErrorBody } from '@michelscope/api-types';
import { getHeads } from '@michelscope/db/read';
import { parametersForExecution, toMicheline } from '@michelscope/michelson';
import { LIMITS } from '@michelscope/interpreter';
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

const E = { 400: ErrorBody, 404: ErrorBody, 502: ErrorBody, 503: ErrorBody, 504: ErrorBody };
const Mutez = Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }));
const Addr = Type.Optional(Type.String({ maxLength: 64 }));

const DebugBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255, description: 'entrypoint' }),
  data: Type.Optional(Type.Unknown({ description: 'the entrypoint form (as …/entrypoints/trace takes it)' })),
  value: Type.Optional(
    Type.Unknown({ description: 'or the parameter of the entrypoint as Micheline (an internal call)' }),
  ),
  amount: Mutez,
  gas_limit: Mutez,
  source: Addr,
  sender: Addr,
});

export const debugRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext; runner?: DebugRunner }> = async (
  app,
  { ctx, runner: given },
) => {
  let runner = given;
  app.addHook('onClose', async () => {
    if (!given) await runner?.close();
  });

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
        body: DebugBody,
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
      };
      // the TZIP-16 static `errors` (a view-computed meaning is not run)
      const metadata = (await contractMetadataOf(ctx, network, address).catch(() => null)) as {
        errors?: unknown;
      } | null;
      const errors = (Array.isArray(metadata?.errors) ? metadata.errors : [])
        .filter((e): e is MetadataError => !!e && typeof e === 'object' && 'error' in e && 'expansion' in e)
        .slice(0, 1000);
      runner ??= new DebugRunner(ctx);
      const json = await runner.record(
        network,
        block,
        call,
        {
          inputs: {
            entrypoint: call.entrypoint,
            parameter: call.parameter,
            storage: call.storage,
            amount: call.amount,
            balance: call.balance,
            ...(sender ? { sender } : {}),
            ...(b.source ? { source: b.source } : {}),
            self: address,
            now: new Date(Number(call.now) * 1000).toISOString().replace('.000Z', 'Z'),
            level: block,
            chain_id: chainId,
          },
        },
        errors,
      );
      // the worker built the JSON text: a string is sent as it is (no second serialisation on this thread)
      return reply.type('application/json; charset=utf-8').send(json as unknown as DebugResult);
    },
  );
};
