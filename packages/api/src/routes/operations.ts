import { ErrorBody, ErrorLocation, FlowGraph, Miguel, Operation, TicketUpdate } from '@michelscope/api-types';
import {
  getContractScript,
  implicitOperations,
  operationById,
  operationsByHash,
  operationsByHashCounter,
  ticketUpdatesOfOperation,
} from '@michelscope/db/read';
import { errorWindow } from '@michelscope/michelson';
import { NetworkName } from '@michelscope/api-types';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { canHaveDiff, renderOperations, storageDiff } from '../render/operation';
import { ticketUpdate } from '../render/tickets';
import { fullScript } from '../services/contracts';
import { OPG_RE, requireNetwork } from '../validate';
import { scriptRejected } from '../services/receipt-errors';
import { opgFlow } from '../flow/opg';

const E = { 400: ErrorBody, 404: ErrorBody, 500: ErrorBody };
const tags = ['operation'];
const HashParams = Type.Object({ network: NetworkName, hash: Type.String({ maxLength: 64 }) });
const IdParams = Type.Object({
  network: NetworkName,
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});

export const operationRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  const checkHash = (network: string, hash: string, status = 400) => {
    requireNetwork(ctx, network);
    if (!OPG_RE.test(hash)) throw new HttpError(status, `invalid operation hash: ${hash.slice(0, 64)}`);
  };

  app.get(
    '/opg/:network/:hash',
    {
      schema: {
        summary: 'Operations of an operation group',
        description: 'An unknown hash gives `[]`.',
        tags,
        params: HashParams,
        querystring: Type.Object({
          with_storage_diff: Type.Optional(Type.Boolean()),
          with_mempool: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Type.Array(Operation), ...E },
      },
    },
    async (request) => {
      const { network, hash } = request.params;
      checkHash(network, hash);
      const rows = await operationsByHash(ctx.readDb, network, hash);
      return renderOperations(ctx.readDb, network, rows, {
        withStorageDiff: request.query.with_storage_diff === true,
      });
    },
  );

  app.get(
    '/opg/:network/:hash/flow',
    {
      schema: {
        summary: 'Flow graph of an operation group',
        description:
          'The group as a graph (issue 37): the accounts and contracts involved as nodes with their summed ' +
          'balance changes, each operation as an edge in execution order with its tez, token and ticket ' +
          'movements and events. An unknown hash gives 404.',
        tags,
        params: HashParams,
        response: { 200: FlowGraph, ...E },
      },
    },
    async (request) => {
      const { network, hash } = request.params;
      checkHash(network, hash, 404);
      const flow = await opgFlow(ctx.readDb, network, hash);
      if (!flow) throw new HttpError(404, 'operation group not found');
      return flow;
    },
  );

  app.get(
    '/opg/:network/:hash/:counter',
    {
      schema: {
        summary: 'One content of an operation group and its internal operations',
        tags,
        params: Type.Object({
          network: NetworkName,
          hash: Type.String({ maxLength: 64 }),
          counter: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
        }),
        response: { 200: Type.Array(Operation), ...E },
      },
    },
    async (request) => {
      const { network, hash, counter } = request.params;
      checkHash(network, hash, 404);
      const rows = await operationsByHashCounter(ctx.readDb, network, hash, counter);
      return renderOperations(ctx.readDb, network, rows);
    },
  );

  app.get(
    '/implicit/:network/:counter',
    {
      schema: {
        summary: 'Implicit operations of block {counter}',
        tags,
        params: Type.Object({
          network: NetworkName,
          counter: Type.Integer({ minimum: 0, maximum: 2147483647 }),
        }),
        response: { 200: Type.Array(Operation), ...E },
      },
    },
    async (request) => {
      const { network, counter } = request.params;
      requireNetwork(ctx, network);
      return renderOperations(ctx.readDb, network, await implicitOperations(ctx.readDb, network, counter));
    },
  );

  const load = async (network: string, id: number) => {
    requireNetwork(ctx, network);
    const op = await operationById(ctx.readDb, network, id);
    if (!op) throw new HttpError(404, 'not found');
    return op;
  };

  app.get(
    '/operation/:network/:id/diff',
    {
      schema: {
        summary: 'Storage diff of an operation (null when it has none)',
        tags,
        params: IdParams,
        response: { 200: Type.Union([Miguel, Type.Null()]), ...E },
      },
    },
    async (request) => {
      const op = await load(request.params.network, request.params.id);
      if (!canHaveDiff(op) || !op.destination) return null;
      const script = await getContractScript(ctx.readDb, request.params.network, op.destination);
      if (!script) return null;
      return (await storageDiff(ctx.readDb, request.params.network, op, script.storage)) ?? null;
    },
  );

  app.get(
    '/operation/:network/:id/error_location',
    {
      schema: {
        summary: 'Where a failed operation was rejected in the formatted code',
        tags,
        params: IdParams,
        response: { 200: ErrorLocation, ...E },
      },
    },
    async (request) => {
      const { network } = request.params;
      const op = await load(network, request.params.id);
      const rejected = scriptRejected(op.errors);
      if (!rejected) throw new HttpError(400, 'No reject script error in operation');
      if (typeof rejected.location !== 'number' || !op.destination)
        throw new HttpError(400, 'No location in the reject script error');
      const script = await getContractScript(ctx.readDb, network, op.destination);
      if (!script) throw new HttpError(404, 'not found');
      const code = fullScript(script);
      const found = errorWindow(code, rejected.location);
      if (!found) throw new HttpError(400, 'The error location is not in the script');
      return found;
    },
  );

  app.get(
    '/operation/:network/:id/ticket_updates',
    {
      schema: {
        summary: 'Ticket updates of an operation',
        tags,
        params: IdParams,
        response: { 200: Type.Array(TicketUpdate), ...E },
      },
    },
    async (request) => {
      const op = await load(request.params.network, request.params.id);
      const rows = await ticketUpdatesOfOperation(ctx.readDb, request.params.network, op.id);
      return rows.map((r) => ({ ...ticketUpdate(r), operation_hash: op.hash ?? '' }));
    },
  );
};
