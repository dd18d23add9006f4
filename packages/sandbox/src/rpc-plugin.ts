// The Tezos node RPC subset served by the sandbox, as a Fastify plugin (routes at its root).
import { inputExcess } from '@michelscope/michelson';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import { blockJson, blockMetadata, levelInfo } from './block-builder';
import { blockOf, checkChain } from './block-id';
import { badBody } from './normalize';
import { RpcError } from './operation-types';
import { CHAIN_ID, MAX_OPERATIONS_TTL, NODE_VERSION, PROTOCOL, protocolConstants } from './protocol';
import { registerContractRoutes } from './rpc-contracts';
import { registerHelperRoutes } from './rpc-helpers';
import { registerScriptRoutes } from './rpc-scripts';
import { registerSmartRollupRoutes } from './smart-rollups';
import type { Sandbox } from './sandbox';
import type { ScriptRunner } from './script-runner';
import type { StoredBlock } from './chain-store';

type Params = Record<string, string>;

function send(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.type('application/json').send(JSON.stringify(value));
}

/**
 * The node RPC of `sandbox`. With `scripts`, script runs and simulations go to that pool of script
 * workers (time-limited, off this thread); without, they run in this thread.
 */
export function sandboxRpcPlugin(
  sandbox: Sandbox,
  opts: { scripts?: ScriptRunner } = {},
): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    app.setErrorHandler((err, req, reply) => {
      if (err instanceof RpcError) return send(reply.code(err.status), err.errors);
      const status = (err as { statusCode?: number }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return send(reply.code(status), [
          {
            kind: 'permanent',
            id: 'rpc.invalid_request',
            msg: err instanceof Error ? err.message : String(err),
          },
        ]);
      }
      req.log.error(err);
      return send(reply.code(500), [
        { kind: 'temporary', id: 'sandbox.internal_error', msg: 'internal error' },
      ]);
    });
    // deep Micheline would overflow the stack of the recursive typechecker, huge ints cost quadratic time in
    // the codecs: a 400 before any work
    app.addHook('preValidation', async (req) => {
      const excess = inputExcess(req.body);
      if (excess) throw badBody(excess);
    });
    app.setNotFoundHandler((_req, reply) =>
      send(reply.code(404), [{ kind: 'permanent', id: 'rpc.not_found', msg: 'Not found' }]),
    );

    app.get('/version', async (_req, reply) => send(reply, NODE_VERSION));
    app.get<{ Params: Params }>('/chains/:chain/chain_id', async (req, reply) => {
      checkChain(req.params.chain ?? '');
      return send(reply, CHAIN_ID);
    });
    // the sandbox keeps every block's context: an archive node
    app.get('/config/history_mode', async (_req, reply) => send(reply, { history_mode: 'archive' }));
    app.get<{ Params: Params }>('/chains/:chain/is_bootstrapped', async (req, reply) => {
      checkChain(req.params.chain ?? '');
      return send(reply, { bootstrapped: true, sync_state: 'synced' });
    });

    const blockRoute = (suffix: string, render: (b: ReturnType<typeof blockOf>, p: Params) => unknown) =>
      app.get<{ Params: Params }>(`/chains/:chain/blocks/:block${suffix}`, async (req, reply) =>
        send(reply, render(blockOf(sandbox, req.params), req.params)),
      );
    blockRoute('', (b) => blockJson(b));
    blockRoute('/header', (b) => ({ protocol: PROTOCOL, chain_id: CHAIN_ID, hash: b.hash, ...b.header }));
    blockRoute('/header/shell', (b) => {
      const h = b.header;
      return {
        level: h.level,
        proto: h.proto,
        predecessor: h.predecessor,
        timestamp: h.timestamp,
        validation_pass: h.validation_pass,
        operations_hash: h.operations_hash,
        fitness: h.fitness,
        context: h.context,
      };
    });
    blockRoute('/hash', (b) => b.hash);
    blockRoute('/protocols', () => ({ protocol: PROTOCOL, next_protocol: PROTOCOL }));
    blockRoute('/metadata', (b) => blockMetadata(b));
    blockRoute('/operations', (b) => b.operations);
    blockRoute('/operations/:pass', (b, p) => passOf(b.operations, p.pass));
    blockRoute('/operations/:pass/:index', (b, p) => {
      const list = passOf(b.operations, p.pass);
      const op = /^\d{1,6}$/.test(p.index ?? '') ? list[Number(p.index)] : undefined;
      if (!op)
        throw new RpcError(404, [
          { kind: 'permanent', id: 'rpc.not_found', msg: 'no operation at this index' },
        ]);
      return op;
    });
    blockRoute('/operation_hashes', (b) => b.operations.map((pass) => pass.map((o) => o.hash)));
    // Octez block_directory.ml: a pass beyond the block's validation passes raises Invalid_argument (a 500
    // `failure`); under /{pass}/{index} any miss is Not_found (404)
    blockRoute('/operation_hashes/:pass', (b, p) => {
      const i = offsetArg(p.pass, 'list_offset', 'Invalid list offset');
      const pass = i >= 0 ? b.operations[i] : undefined;
      if (!pass)
        throw new RpcError(500, [
          { kind: 'temporary', id: 'failure', msg: 'Invalid_argument("operations_hashes_path")' },
        ]);
      return pass.map((o) => o.hash);
    });
    blockRoute('/operation_hashes/:pass/:index', (b, p) => {
      const i = offsetArg(p.pass, 'list_offset', 'Invalid list offset');
      const j = offsetArg(p.index, 'operation_offset', 'Invalid operation offset');
      const op = i >= 0 && j >= 0 ? b.operations[i]?.[j] : undefined;
      if (!op) throw new RpcError(404, [{ kind: 'permanent', id: 'rpc.not_found', msg: 'Not found' }]);
      return op.hash;
    });
    blockRoute('/live_blocks', (b) => {
      const out: string[] = [];
      for (let l = b.header.level; l >= 0 && l > b.header.level - MAX_OPERATIONS_TTL; l--)
        out.push(sandbox.block(l)!.hash);
      return out;
    });
    blockRoute('/context/constants', () => protocolConstants(sandbox.blockTimeMs));
    blockRoute('/helpers/current_level', (b) => levelInfo(b.header.level));

    registerContractRoutes(app, sandbox);
    registerSmartRollupRoutes(app, sandbox);

    app.get<{ Params: Params }>('/chains/:chain/mempool/pending_operations', async (req, reply) => {
      checkChain(req.params.chain ?? '');
      const rejected = sandbox.rejectedOperations();
      return send(reply, {
        validated: sandbox.pendingOperations(),
        refused: rejected.refused,
        outdated: rejected.outdated,
        branch_refused: rejected.branch_refused,
        branch_delayed: rejected.branch_delayed,
        unprocessed: [],
      });
    });
    app.get<{ Params: Params }>('/chains/:chain/mempool/filter', async (req, reply) => {
      checkChain(req.params.chain ?? '');
      return send(reply, {
        minimal_fees: '100',
        minimal_nanotez_per_gas_unit: ['100', '1'],
        minimal_nanotez_per_byte: ['1000', '1'],
        replace_by_fee_factor: ['21', '20'],
        max_operations: 10000,
        max_total_bytes: 10000000,
      });
    });

    app.post('/injection/operation', async (req, reply) => {
      const q = req.query as Record<string, unknown>;
      if (typeof q.chain === 'string') checkChain(q.chain);
      const hash = await sandbox.inject(req.body);
      return send(reply, hash);
    });

    const monitors = new Set<{ end(): void }>();
    // Chunked stream of new heads ({hash, level, proto, predecessor, ...shell header}), one JSON per chunk.
    app.get<{ Params: Params }>('/monitor/heads/:chain', (req, reply) => {
      checkChain(req.params.chain ?? '');
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      reply.raw.write(headChunk(sandbox.head));
      const off = sandbox.onHead((b) => {
        if (!reply.raw.writableEnded && !reply.raw.destroyed) reply.raw.write(headChunk(b));
      });
      const stream = { end: () => reply.raw.end() };
      monitors.add(stream);
      req.raw.on('close', () => {
        off();
        monitors.delete(stream);
      });
    });
    app.addHook('preClose', async () => {
      for (const m of monitors) m.end();
    });

    registerHelperRoutes(app, sandbox, opts.scripts);
    registerScriptRoutes(app, sandbox, opts.scripts);
  };
}

/** One chunk of `/monitor/heads/:chain`: the block's hash and shell header, as one JSON line. */
export function headChunk(b: StoredBlock): string {
  const {
    payload_hash: _p,
    payload_round: _r,
    proof_of_work_nonce: _n,
    liquidity_baking_toggle_vote: _v,
    signature: _s,
    ...shell
  } = b.header;
  return JSON.stringify({ hash: b.hash, ...shell, protocol_data: '' }) + '\n';
}

/** An int path argument as OCaml's int_of_string reads it (sign, 0x/0o/0b, `_`); else a 400 as Octez's. */
function offsetArg(v: string | undefined, name: string, invalid: string): number {
  const s = v ?? '';
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|[0-9][0-9_]*)$/.exec(s);
  const n = m
    ? Number(
        m[2]!
          .replace(/_/g, '')
          .replace(/^0[oO]/, '0o')
          .replace(/^0[bB]/, '0b'),
      )
    : NaN;
  if (!m || !Number.isSafeInteger(n))
    throw new RpcError(400, [
      {
        kind: 'permanent',
        id: 'rpc.argument_parsing',
        msg: `Failed to parse argument '${name}' (${JSON.stringify(s.slice(0, 80))}): ${invalid} (${s.slice(0, 80)})`,
      },
    ]);
  return m[1] === '-' ? -n : n;
}

function passOf<T>(operations: T[][], pass: string | undefined): T[] {
  const list = /^\d$/.test(pass ?? '') ? operations[Number(pass)] : undefined;
  if (!list)
    throw new RpcError(404, [{ kind: 'permanent', id: 'rpc.not_found', msg: 'no such validation pass' }]);
  return list;
}
