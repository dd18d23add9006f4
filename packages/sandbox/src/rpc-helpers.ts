// helpers/scripts/simulate_operation, run_operation, helpers/preapply/operations and
// helpers/forge/operations: what Taquito's estimate + send needs. Simulation runs on the head
// state plus the mempool, and never changes it.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { b58DecodeAndCheckPrefix, buf2hex, encodeOpHash, signaturePrefixes } from '@taquito/utils';
import { applyOperation } from './apply';
import { decodeSigned, parseUnsigned } from './decode';
import { forgeOperation } from './forging';
import { RpcError } from './operation-types';
import { CHAIN_ID } from './protocol';
import { blockOf, checkChain } from './block-id';
import type { Sandbox } from './sandbox';
import type { ScriptHost } from './script-host';
import type { ScriptRunner } from './script-runner';

type Params = Record<string, string>;

function badBody(msg: string): RpcError {
  return new RpcError(400, [{ kind: 'permanent', id: 'rpc.invalid_body', msg }]);
}

async function forge(op: unknown): Promise<string> {
  if (!op || typeof op !== 'object') throw badBody('expected an operation object {branch, contents}');
  const { branch, contents } = op as { branch?: unknown; contents?: unknown };
  if (typeof branch !== 'string' || !Array.isArray(contents) || contents.length === 0) {
    throw badBody('expected an operation object {branch, contents}');
  }
  try {
    return await forgeOperation({ branch, contents: contents.map(stripMetadata) });
  } catch (e) {
    throw badBody(`cannot forge the operation: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function stripMetadata(c: unknown): Record<string, unknown> {
  if (!c || typeof c !== 'object') throw badBody('each content must be an object');
  const { metadata: _metadata, ...rest } = c as Record<string, unknown>;
  return rest;
}

function send(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.type('application/json').send(JSON.stringify(value));
}

type Handler = (host: ScriptHost, p: Params, body: unknown) => Promise<unknown>;

const simulate: Handler = async (sandbox, params, reqBody) => {
  blockOf(sandbox, params);
  const body = reqBody as { operation?: unknown; chain_id?: unknown } | null;
  if (!body || typeof body !== 'object') throw badBody('expected {operation, chain_id}');
  if (body.chain_id !== undefined && body.chain_id !== CHAIN_ID)
    throw badBody(`unknown chain_id ${JSON.stringify(body.chain_id)}`);
  const hex = await forge(body.operation);
  const { contents } = await parseUnsigned(hex);
  const hash = encodeOpHash(hex + '00'.repeat(64));
  const applied = applyOperation(sandbox.pendingState().fork(), contents, {
    hash,
    ...sandbox.nextBlockContext(),
    origin: 'simulation',
  });
  return { contents: applied.contents };
};

/**
 * The helpers that run operations or encode them (paths under `/chains/:chain/blocks/:block/helpers/`):
 * they read the head state plus the mempool (`pendingState`) and change nothing.
 */
export const helperHandlers: Record<string, Handler> = {
  'scripts/simulate_operation': simulate,
  'scripts/run_operation': simulate,
  'forge/operations': async (sandbox, params, body) => {
    blockOf(sandbox, params);
    return forge(body);
  },
  'preapply/operations': async (sandbox, params, body) => {
    blockOf(sandbox, params);
    if (!Array.isArray(body) || body.length === 0) throw badBody('expected a list of signed operations');
    const state = sandbox.pendingState().fork();
    const out: unknown[] = [];
    for (const op of body as Array<{ signature?: unknown }>) {
      const hex = await forge(op);
      let sig: string;
      try {
        sig = buf2hex(b58DecodeAndCheckPrefix(String(op.signature), signaturePrefixes, true));
      } catch {
        throw badBody('missing or malformed signature');
      }
      const decoded = await decodeSigned(hex + sig, state);
      const applied = applyOperation(state, decoded.contents, {
        hash: decoded.hash,
        ...sandbox.nextBlockContext(),
      });
      out.push({ contents: applied.contents, signature: decoded.signature });
    }
    return out;
  },
};

/** Registers the helpers; with a `runner` they run in its script workers (see registerScriptRoutes). */
export function registerHelperRoutes(app: FastifyInstance, sandbox: Sandbox, runner?: ScriptRunner): void {
  for (const [path, handler] of Object.entries(helperHandlers)) {
    app.post<{ Params: Params }>(`/chains/:chain/blocks/:block/helpers/${path}`, async (req, reply) =>
      runner
        ? reply
            .type('application/json')
            .send(await runner.run(path, req.params, req.body, runner.clientOf(req)))
        : send(reply, await handler(sandbox, req.params, req.body)),
    );
  }

  app.get<{ Params: Params }>('/chains/:chain/blocks', async (req, reply) => {
    checkChain(req.params.chain ?? '');
    return send(reply, [[sandbox.head.hash]]);
  });
}
