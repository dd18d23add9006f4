/**
 * Simulations through the network's node RPC (reference §6.5, §6.6, §6.6b): entrypoints/trace (run_code),
 * entrypoints/run_operation (run_operation), views/execute (run_script_view; off-chain views wrapped and
 * run with run_code). The node's Michelson errors come back as a failed operation, not as an HTTP error.
 */
import { CallRequest, ErrorBody, FlowGraph, Miguel, Operation, ViewRequest } from '@michelscope/api-types';
import { getHeads, getScriptTypes } from '@michelscope/db/read';
import {
  decodeParameters,
  diffValues,
  formToMicheline,
  formatTezosErrors,
  parametersForExecution,
  toMicheline,
  toMiguel,
} from '@michelscope/michelson';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { fullScript, requireScript, resolveStorage } from '../services/contracts';
import { nodeRpc, NodeRpcError } from '../services/node-rpc';
import { storageViewResult } from '../debug/storage-view';
import { offChainViewScript, onChainView, storageViewOf } from '../services/views';
import { ADDRESS_RE, AddressParams, CONTRACT_RE, requireAddress, requireNetwork } from '../validate';
import { asClientError } from './actions';
import { nodeHeadBlock, nodeStorageAt, type NodeBlock } from './simulate-node-state';
import {
  destinations,
  internalOperation,
  mainOperation,
  safeMiguel,
  simulatedOperations,
  type Head,
} from './simulate-operations';
import { stateBlock, storageAt } from './whatif';
import { operationsFlow } from '../flow/operations';

const E = { 400: ErrorBody, 404: ErrorBody, 500: ErrorBody, 502: ErrorBody, 504: ErrorBody };
const VIEW_TIMEOUT_MS = 20_000;
/** …/views/execute's headers: where the view ran (its answer stays the result alone, as BCD's clients read it). */
const VIEW_STATE_HEADERS = {
  'x-simulated-level': Type.Integer({
    description: 'the level whose state the view read (the head, or `at_level`)',
  }),
  'x-head-level': Type.Integer({ description: 'the indexed head when it ran' }),
  'x-changed-since': Type.Boolean({
    description:
      'an applied operation reached the contract after x-simulated-level (its state at the head may differ)',
  }),
};
const DUMMY_SIGNATURE =
  'sigUHx32f9wesZ1n2BWpixXz4AQaZggEtchaQNHYGRCoWNAXx45WGW2ua3apUUUAGMLPwAU41QoaFCzVSL61VaessLg4YbbP';
/** run_code's SELF when the body names none; the node reports it as the source of what the contract emits. */
export const RUN_CODE_DEFAULT_SELF = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';

function checkAddr(v: string | undefined, what: string) {
  if (v) requireAddress(v, ADDRESS_RE, what);
}

/** A node rejection: Tezos errors → a failed main operation (200); anything else → 400 with the text. */
function rejection(e: unknown, main: Operation): Operation[] {
  if (e instanceof NodeRpcError) {
    const errors = e.tezosErrors();
    if (errors) return [{ ...main, status: 'failed', errors: formatTezosErrors(errors) }];
    throw new HttpError(400, `node: ${e.body.slice(0, 300) || e.status}`);
  }
  throw e;
}

/** The node's `undefined_operation_nonce`: run_code given `self` reached a CREATE_CONTRACT. */
function lacksOriginationNonce(e: unknown): boolean {
  if (!(e instanceof NodeRpcError)) return false;
  return (e.tezosErrors() ?? []).some((x) =>
    String((x as { id?: unknown }).id).endsWith('.undefined_operation_nonce'),
  );
}

export const simulateRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  const head = async (network: string): Promise<Head> => {
    const h = (await getHeads(ctx.readDb, [network])).get(network);
    return { level: h?.level ?? 0, protocol: h?.protocol ?? '', chainId: h?.chain_id ?? '' };
  };
  const chainId = async (network: string, known: string) =>
    known || (await nodeRpc<string>(ctx, network, '/chains/main/chain_id'));

  /** What both call simulations start with: checks, script, parameters, head, the main operation. */
  const prepareCall = async (p: { network: string; address: string }, b: CallRequest) => {
    const { network, address } = p;
    requireNetwork(ctx, network);
    requireAddress(address, CONTRACT_RE, 'contract address', 404);
    checkAddr(b.source, 'source');
    checkAddr(b.sender, 'sender');
    const script = await requireScript(ctx, network, address);
    const param = toMicheline(script.parameter);
    const params = asClientError(() => parametersForExecution(param, b.name, b.data ?? {}));
    const h = await head(network);
    const main = mainOperation(h, network, ctx.now(), address, b);
    const decoded = safeMiguel(() => decodeParameters(param, params));
    if (decoded) main.parameters = decoded;
    return { network, address, script, params, h, main };
  };

  app.post(
    '/contract/:network/:address/entrypoints/trace',
    {
      schema: {
        summary: 'Simulate a call with run_code: main operation + internal operations with storage diff',
        description:
          'run_code runs with `self` the contract. A call that reaches CREATE_CONTRACT runs again without ' +
          '`self` (the node has an origination nonce only for its dummy contract, as in Octez): SELF is then ' +
          'run_code’s dummy contract and the new contracts get the addresses of the zero operation hash ' +
          '(KT1Mjjcb6tmSsLm7Cb3DSQszePjfchPM4Uxm first).',
        tags: ['contract'],
        params: AddressParams,
        body: CallRequest,
        response: { 200: Type.Array(Operation), ...E },
      },
    },
    async (request) => {
      const b = request.body;
      const { network, address, script, params, h, main } = await prepareCall(request.params, b);
      const storage = await resolveStorage(ctx, network, address);
      const cid = await chainId(network, h.chainId);
      const body: Record<string, unknown> = {
        script: fullScript(script),
        storage,
        input: params.value,
        amount: String(b.amount ?? 0),
        chain_id: cid,
        ...(cid === 'NetXm8tYqnMWky1' ? {} : { balance: '0' }),
        ...(b.gas_limit ? { gas: String(b.gas_limit) } : {}),
        ...(b.source ? { source: b.source } : {}),
        ...(b.sender ? { payer: b.sender } : {}),
        self: address,
        ...(params.entrypoint !== 'default' ? { entrypoint: params.entrypoint } : {}),
      };
      const runCode = (b: Record<string, unknown>) =>
        nodeRpc<{ storage?: unknown; operations?: unknown[] }>(
          ctx,
          network,
          '/chains/main/blocks/head/helpers/scripts/run_code',
          b,
        );
      let res: { storage?: unknown; operations?: unknown[] };
      try {
        res = await runCode(body).catch((e: unknown) => {
          if (!lacksOriginationNonce(e)) throw e;
          // Octez's run_code has an origination nonce only when it originates its dummy SELF (no `self`):
          // a CREATE_CONTRACT then fails with undefined_operation_nonce. Run as the reference's RunCode does,
          // without `self`: the call originates from the zero operation hash's nonce, as Octez's regression
          // outputs show (KT1Mjjcb6tmSsLm7Cb3DSQszePjfchPM4Uxm first).
          const { self: _self, ...withoutSelf } = body;
          return runCode(withoutSelf);
        });
      } catch (e) {
        return rejection(e, main);
      }
      if (res.storage !== undefined) {
        const d = safeMiguel(() =>
          diffValues(toMicheline(script.storage), toMicheline(res.storage), storage),
        );
        if (d) main.storage_diff = d;
      }
      // what the contract emitted comes from the called contract (a node that ignores `self` says otherwise)
      const internals = (Array.isArray(res.operations) ? res.operations.slice(0, 1000) : []).map((o) => {
        const op = o as Record<string, unknown>;
        return op.source === RUN_CODE_DEFAULT_SELF ? { ...op, source: address } : op;
      });
      const types = await getScriptTypes(ctx.readDb, network, destinations(internals));
      return [main, ...internals.map((o) => internalOperation(main, o, 'applied', types))];
    },
  );

  /** run_operation of one call: the simulated call and the internal operations the node reported. */
  const runOperation = async (request: {
    params: { network: string; address: string };
    body: CallRequest;
  }): Promise<{ ops: Operation[]; receipt?: { res: { contents?: unknown[] }; block: NodeBlock } }> => {
    const b = request.body;
    if (!b.source) throw new HttpError(400, 'source is required');
    const { network, address, script, params, h, main } = await prepareCall(request.params, b);
    // One state for the run, its 'from' and the level shown: the node simulates at its head, which may be
    // ahead of the indexer, so the storage before and the big-map values before are read from the node at
    // the block it ran on, and that block's level is the one the result names. A head that moved during the
    // run is run again (at most twice more).
    let run: { res: { contents?: unknown[] }; block: NodeBlock; costPerByte: number } | null = null;
    for (let attempt = 0; attempt < 3 && run === null; attempt++) {
      const block = await nodeHeadBlock(ctx, network);
      const at = `/chains/main/blocks/${block.hash}`;
      const counter = await nodeRpc<string>(
        ctx,
        network,
        `${at}/context/contracts/${b.source}/counter`,
      ).catch(() => '0');
      const constants = await nodeRpc<{
        hard_gas_limit_per_operation?: string;
        hard_storage_limit_per_operation?: string;
        cost_per_byte?: string;
      }>(ctx, network, `${at}/context/constants`);
      const content = {
        kind: 'transaction',
        source: b.source,
        fee: '0',
        counter: String(BigInt(counter) + 1n),
        gas_limit: String(b.gas_limit ?? constants.hard_gas_limit_per_operation ?? '1040000'),
        storage_limit: String(storageLimitOf(b.storage_limit, constants.hard_storage_limit_per_operation)),
        amount: String(b.amount ?? 0),
        destination: address,
        parameters: params,
      };
      main.gas_limit = Number(content.gas_limit);
      main.storage_limit = Number(content.storage_limit);
      main.level = block.level;
      let res: { contents?: unknown[] };
      try {
        res = await nodeRpc(ctx, network, '/chains/main/blocks/head/helpers/scripts/run_operation', {
          operation: { branch: block.hash, contents: [content], signature: DUMMY_SIGNATURE },
          chain_id: await chainId(network, h.chainId),
        });
      } catch (e) {
        return { ops: rejection(e, main) };
      }
      const after = await nodeHeadBlock(ctx, network).catch(() => block);
      if (after.hash === block.hash || attempt === 2)
        run = { res, block, costPerByte: Number(constants.cost_per_byte ?? 0) || 0 };
    }
    const { res, block, costPerByte } = run!;
    const storageType = toMicheline(script.storage);
    const previous = await nodeStorageAt(ctx, network, address, block, storageType).catch(() =>
      resolveStorage(ctx, network, address).catch(() => undefined),
    );
    const ops = await simulatedOperations(ctx, res, main, {
      storageType,
      previous: previous ?? { prim: 'Unit' },
      costPerByte,
      block,
    });
    return { ops, receipt: { res, block } };
  };

  app.post(
    '/contract/:network/:address/entrypoints/run_operation',
    {
      schema: {
        summary: 'Simulate a call with run_operation (source required)',
        tags: ['contract'],
        params: AddressParams,
        body: CallRequest,
        response: { 200: Type.Array(Operation), ...E },
      },
    },
    async (request) => (await runOperation(request)).ops,
  );

  app.post(
    '/contract/:network/:address/entrypoints/run_operation/flow',
    {
      schema: {
        summary: 'Simulate a call with run_operation and answer its flow graph',
        description:
          'The flow graph (issue 37) of what …/entrypoints/run_operation answers, before anything is sent: the ' +
          'simulated call and its internal operations as edges, the accounts and contracts as nodes (aliases, ' +
          'tags and token metadata from the index), token movements checked against the ledger changes of the ' +
          'receipt, ticket movements from its ticket receipts.',
        tags: ['contract'],
        params: AddressParams,
        body: CallRequest,
        response: { 200: FlowGraph, ...E },
      },
    },
    async (request) => {
      const { ops, receipt } = await runOperation(request);
      return operationsFlow(ctx, request.params.network, ops, receipt);
    },
  );

  app.post(
    '/contract/:network/:address/views/execute',
    {
      schema: {
        summary: 'Execute an on-chain view (run_script_view) or an off-chain michelsonStorageView (run_code)',
        description:
          'Runs on the node at the indexed head, or with `at_level` at that past block (against the contract’s ' +
          'storage, big maps and balance at its end, with its level and time: a shared view rerun as it was; 400 ' +
          'above the head, before the contract’s origination or for a block not indexed). The answer is the ' +
          'view’s result (null: none); where it ran is in the headers x-simulated-level, x-head-level and ' +
          'x-changed-since.',
        tags: ['views'],
        params: AddressParams,
        body: ViewRequest,
        response: {
          200: Type.Union([Type.Array(Miguel), Type.Null()], {
            description: 'the view’s result as Miguel trees (null: the off-chain view returned none)',
            headers: VIEW_STATE_HEADERS,
          }),
          ...E,
          // a view that fails (FAILWITH, gas…) says where it ran as a result does
          400: Type.Object(ErrorBody.properties, {
            description:
              'bad input, or the view failed (FAILWITH, out of gas…): then the headers say where it ran',
            headers: VIEW_STATE_HEADERS,
          }),
        },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, CONTRACT_RE, 'contract address', 404);
      const b = request.body;
      checkAddr(b.source, 'source');
      checkAddr(b.sender, 'sender');
      const script = await requireScript(ctx, network, address);
      // the block it runs at: the indexed head, or the pinned level (checked as the what-if checks it)
      const at = await stateBlock(ctx, network, address, b.at_level);
      const block = String(at.level);
      const cid = await chainId(network, at.chainId ?? '');
      reply.header('x-simulated-level', block);
      reply.header('x-head-level', String(at.head.level));
      reply.header('x-changed-since', String(at.changed));
      if (b.kind === 'on-chain') {
        const view = onChainView(script.views, b.name, b.data);
        try {
          const res = await nodeRpc<{ data: unknown }>(
            ctx,
            network,
            `/chains/main/blocks/${block}/helpers/scripts/run_script_view`,
            {
              contract: address,
              view: view.name,
              input: view.input,
              chain_id: cid,
              unparsing_mode: 'Readable',
              ...(b.source ? { source: b.source } : {}),
              ...(b.sender ? { payer: b.sender } : {}),
              ...(b.gas_limit ? { gas: String(b.gas_limit) } : {}),
            },
            VIEW_TIMEOUT_MS,
          );
          return asClientError(() => toMiguel(view.outputType, toMicheline(res.data)));
        } catch (e) {
          throw viewError(e);
        }
      }
      const msv = storageViewOf(b.view);
      const storage = await storageAt(ctx, network, address, at);
      const {
        script: viewScript,
        input,
        returnType,
      } = offChainViewScript(msv, toMicheline(script.storage), storage, (t) =>
        asClientError(() => formToMicheline(t, b.data ?? {})),
      );
      try {
        const res = await nodeRpc<{ storage: unknown }>(
          ctx,
          network,
          `/chains/main/blocks/${block}/helpers/scripts/run_code`,
          {
            script: viewScript,
            storage: { prim: 'None' },
            input,
            amount: String(b.amount ?? 0),
            chain_id: cid,
            balance: '0',
            // SELF and SELF_ADDRESS are the contract's, as TZIP-16 says (and as …/views/debug runs it)
            self: address,
          },
          VIEW_TIMEOUT_MS,
        );
        const out = storageViewResult(toMicheline(res.storage));
        return out === undefined ? null : asClientError(() => toMiguel(returnType, out));
      } catch (e) {
        throw viewError(e);
      }
    },
  );
};

function viewError(e: unknown): unknown {
  if (e instanceof NodeRpcError) {
    const errs = formatTezosErrors(e.tezosErrors());
    const text = errs?.map((x) => [x.title, x.with].filter(Boolean).join(': ')).join('; ');
    return new HttpError(400, text || `node answered ${e.status}`);
  }
  return e;
}

/** The storage limit of a simulated call: the one asked for, capped at the node's per-operation maximum. */
export function storageLimitOf(asked: number | undefined, hard: string | undefined): number {
  const max = Number(hard ?? '60000');
  return asked === undefined ? max : Math.min(asked, max);
}
