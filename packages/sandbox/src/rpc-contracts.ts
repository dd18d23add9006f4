// Context RPCs: implicit accounts, originated contracts (script, storage, entrypoints, sizes),
// big maps, and the sandbox's own endpoint for global constants. Any block can be asked for:
// older states come from the undo logs of later blocks.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { validateAddress, ValidationResult } from '@taquito/utils';
import { entrypointsOf, expandedCode, scriptSections } from './chain-context';
import { normalizeData, objectBody, unparsingMode } from './normalize';
import { RpcError } from './operation-types';
import { blockOf } from './block-id';
import { scriptExpressionHash } from '@michelscope/michelson';
import { ticketBalances, ticketHoldings } from './tickets';
import type { Sandbox } from './sandbox';
import { isOriginated, type ContractRecord, type ImplicitRecord, type State } from './state';

type Params = Record<string, string>;
type Account =
  | { kind: 'implicit'; address: string; rec: ImplicitRecord | undefined }
  | { kind: 'originated'; address: string; rec: ContractRecord };

function send(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.type('application/json').send(JSON.stringify(value));
}

function notFound(id: string, fields: Record<string, unknown>): RpcError {
  return new RpcError(404, [{ kind: 'temporary', id, ...fields }]);
}

function account(state: State, id: string): Account {
  if (validateAddress(id) !== ValidationResult.VALID || id.includes('%')) {
    throw new RpcError(400, [
      {
        kind: 'permanent',
        id: 'rpc.argument_parsing',
        msg: `Failed to parse argument 'contract_id' (${JSON.stringify(id.slice(0, 80))})`,
      },
    ]);
  }
  if (isOriginated(id)) {
    const rec = state.contract(id);
    if (!rec) throw notFound('proto.024-PtTALLiN.contract.non_existing_contract', { contract: id });
    return { kind: 'originated', address: id, rec };
  }
  if (!/^tz[1-4]/.test(id))
    throw notFound('proto.024-PtTALLiN.contract.non_existing_contract', { contract: id });
  return { kind: 'implicit', address: id, rec: state.implicit(id) };
}

function originated(a: Account): ContractRecord {
  if (a.kind !== 'originated') throw notFound('rpc.not_found', { msg: `${a.address} has no script` });
  return a.rec;
}

function storageType(state: State, c: ContractRecord): unknown {
  const t = scriptSections(expandedCode(state, c.code)).storage;
  if (!t)
    throw new RpcError(500, [
      { kind: 'temporary', id: 'sandbox.internal_error', msg: 'stored script has no storage section' },
    ]);
  return t;
}

export function registerContractRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  const stateOf = (p: Params) => sandbox.stateAt(blockOf(sandbox, p).header.level);
  const base = '/chains/:chain/blocks/:block/context/contracts/:id';
  const get = (
    suffix: string,
    render: (a: Account, state: State, p: Params, q: Record<string, unknown>) => unknown,
  ) =>
    app.get<{ Params: Params; Querystring: Record<string, unknown> }>(base + suffix, async (req, reply) => {
      const state = stateOf(req.params);
      return send(reply, render(account(state, req.params.id ?? ''), state, req.params, req.query ?? {}));
    });
  const post = (
    suffix: string,
    render: (a: Account, state: State, body: Record<string, unknown>) => unknown,
  ) =>
    app.post<{ Params: Params }>(base + suffix, async (req, reply) => {
      const state = stateOf(req.params);
      return send(
        reply,
        render(account(state, req.params.id ?? ''), state, objectBody(req.body, 'a JSON object')),
      );
    });

  const balance = (a: Account) => a.rec?.balance ?? '0';
  get('', (a) => {
    if (a.kind === 'implicit') {
      const r = a.rec;
      return {
        balance: balance(a),
        ...(r?.delegate ? { delegate: r.delegate } : {}),
        counter: r?.counter ?? '0',
        revealed: r?.manager !== undefined,
      };
    }
    return {
      balance: a.rec.balance,
      ...(a.rec.delegate ? { delegate: a.rec.delegate } : {}),
      script: { code: a.rec.code, storage: a.rec.storage },
    };
  });
  for (const s of [
    '/balance',
    '/spendable',
    '/full_balance',
    '/balance_and_frozen_bonds',
    '/spendable_and_frozen_bonds',
  ])
    get(s, balance);
  get('/staked_balance', () => '0');
  get('/unstaked_frozen_balance', () => '0');
  get('/unstaked_finalizable_balance', () => '0');
  get('/counter', (a) => {
    if (a.kind === 'originated')
      throw notFound('rpc.not_found', { msg: 'originated contracts have no counter' });
    return a.rec?.counter ?? '0';
  });
  get('/manager_key', (a) => {
    if (a.kind === 'originated')
      throw notFound('rpc.not_found', { msg: 'originated contracts have no manager key' });
    return a.rec?.manager ?? null;
  });
  get('/delegate', (a) => {
    const d = a.rec?.delegate;
    if (!d) throw notFound('rpc.not_found', { msg: 'no delegate' });
    return d;
  });
  get('/script', (a) => {
    const c = originated(a);
    return { code: c.code, storage: c.storage };
  });
  post('/script/normalized', (a, state, body) => {
    const c = originated(a);
    return {
      code: c.code,
      storage: normalizeData(state, c.storage, storageType(state, c), unparsingMode(body.unparsing_mode)),
    };
  });
  get('/storage', (a) => originated(a).storage);
  post('/storage/normalized', (a, state, body) => {
    const c = originated(a);
    return normalizeData(state, c.storage, storageType(state, c), unparsingMode(body.unparsing_mode));
  });
  get('/storage/used_space', (a) => originated(a).used);
  get('/storage/paid_space', (a) => originated(a).paid);
  get('/entrypoints', (a, state) => {
    const c = originated(a);
    const parameter = scriptSections(expandedCode(state, c.code)).parameter;
    return { entrypoints: parameter ? entrypointsOf(parameter) : {} };
  });
  get('/entrypoints/:entrypoint', (a, state, p) => {
    const c = originated(a);
    const parameter = scriptSections(expandedCode(state, c.code)).parameter;
    const ep = p.entrypoint ?? '';
    const found = parameter
      ? (entrypointsOf(parameter)[ep] ?? (ep === 'default' ? parameter : undefined))
      : undefined;
    if (!found) throw notFound('proto.024-PtTALLiN.michelson_v1.no_such_entrypoint', { entrypoint: ep });
    return found;
  });
  get('/all_ticket_balances', (a, state) =>
    a.kind === 'originated'
      ? ticketBalances(ticketHoldings(state, a.rec.code, a.rec.storage))
      : state.ticketsOf(a.address).map((t) => ({ ...t.token, amount: t.amount })),
  );
  post('/big_map_get', (a, state, body) => {
    const c = originated(a);
    const key = normalizeData(state, body.key, body.type, 'Optimized');
    const hash = scriptExpressionHash(key);
    for (const id of bigMapIdsOf(c.storage)) {
      const entry = state.bigMapEntry(id, hash);
      if (entry) return entry.value;
    }
    throw notFound('rpc.not_found', { msg: 'no such key' });
  });

  const bigMapBase = '/chains/:chain/blocks/:block/context/big_maps/:id';
  const bigMapOf = (state: State, id: string | undefined) => {
    if (!/^-?\d{1,20}$/.test(id ?? ''))
      throw new RpcError(400, [
        { kind: 'permanent', id: 'rpc.argument_parsing', msg: `Failed to parse argument 'big_map_id'` },
      ]);
    const info = state.bigMap(id!);
    if (!info) throw notFound('rpc.not_found', { msg: `no big map ${id}` });
    return info;
  };
  const entryOf = (state: State, p: Params) => {
    bigMapOf(state, p.id);
    const h = p.script_expr ?? '';
    if (!/^expr[1-9A-HJ-NP-Za-km-z]{50}$/.test(h))
      throw new RpcError(400, [
        { kind: 'permanent', id: 'rpc.argument_parsing', msg: `Failed to parse argument 'script_expr'` },
      ]);
    const entry = state.bigMapEntry(p.id!, h);
    if (!entry) throw notFound('rpc.not_found', { msg: 'no such key' });
    return entry;
  };
  app.get<{ Params: Params; Querystring: Record<string, string> }>(bigMapBase, async (req, reply) => {
    const state = stateOf(req.params);
    bigMapOf(state, req.params.id);
    const offset = Number(req.query.offset ?? 0);
    const length = req.query.length === undefined ? Infinity : Number(req.query.length);
    if (!Number.isInteger(offset) || offset < 0 || !(length >= 0))
      throw new RpcError(400, [
        { kind: 'permanent', id: 'rpc.argument_parsing', msg: 'bad offset or length' },
      ]);
    const hashes = state.bigMapKeyHashes(req.params.id!).slice(offset, offset + length);
    return send(
      reply,
      hashes.map((h) => state.bigMapEntry(req.params.id!, h)!.value),
    );
  });
  app.get<{ Params: Params }>(`${bigMapBase}/:script_expr`, async (req, reply) =>
    send(reply, entryOf(stateOf(req.params), req.params).value),
  );
  app.post<{ Params: Params }>(`${bigMapBase}/:script_expr/normalized`, async (req, reply) => {
    const state = stateOf(req.params);
    const entry = entryOf(state, req.params);
    const mode = unparsingMode(objectBody(req.body, '{unparsing_mode}').unparsing_mode);
    return send(reply, normalizeData(state, entry.value, state.bigMap(req.params.id!)!.value_type, mode));
  });

  // The few raw-context paths the explorer reads (sizes, big-map types, Sapling states' bytes), as the node serves
  // them.
  const raw = '/chains/:chain/blocks/:block/context/raw/json';
  app.get<{ Params: Params }>(`${raw}/big_maps/index/:id/:field`, async (req, reply) => {
    const info = bigMapOf(stateOf(req.params), req.params.id);
    const field = req.params.field;
    if (field === 'total_bytes') return send(reply, info.total_bytes);
    if (field === 'key_type' || field === 'value_type') return send(reply, info[field]);
    throw notFound('rpc.not_found', { msg: `no raw field ${String(field).slice(0, 40)}` });
  });
  app.get<{ Params: Params }>(`${raw}/sapling/index/:id/:field`, async (req, reply) => {
    const info = stateOf(req.params).saplingState(req.params.id ?? '');
    if (!info) throw notFound('rpc.not_found', { msg: 'no such sapling state' });
    const field = req.params.field;
    if (field === 'total_bytes') return send(reply, info.total_bytes);
    if (field === 'memo_size') return send(reply, info.memo_size);
    throw notFound('rpc.not_found', { msg: `no raw field ${String(field).slice(0, 40)}` });
  });
  app.get<{ Params: Params }>(`${raw}/contracts/index/:id/:field`, async (req, reply) => {
    const a = account(stateOf(req.params), req.params.id ?? '');
    const field = req.params.field;
    if (field === 'balance') return send(reply, a.rec?.balance ?? '0');
    if (a.kind === 'originated' && field === 'used_bytes') return send(reply, a.rec.used);
    if (a.kind === 'originated' && field === 'paid_bytes') return send(reply, a.rec.paid);
    if (a.kind === 'implicit' && field === 'counter' && a.rec) return send(reply, a.rec.counter);
    throw notFound('rpc.not_found', { msg: `no raw field ${String(field).slice(0, 40)}` });
  });

  // Not a node RPC (the node only has the raw context): the value of a registered global constant.
  app.get<{ Params: Params }>(
    '/chains/:chain/blocks/:block/context/global_constants/:hash',
    async (req, reply) => {
      const value = stateOf(req.params).constant(req.params.hash ?? '');
      if (value === undefined) throw notFound('rpc.not_found', { msg: 'no such global constant' });
      return send(reply, value);
    },
  );
}

/** Big-map ids in a stored storage value: the ints that sit where big_map types are. */
function bigMapIdsOf(storage: unknown): string[] {
  const out: string[] = [];
  const walk = (e: unknown) => {
    if (Array.isArray(e)) e.forEach(walk);
    else if (e && typeof e === 'object') {
      const o = e as { int?: string; args?: unknown[] };
      if (typeof o.int === 'string') out.push(o.int);
      o.args?.forEach(walk);
    }
  };
  walk(storage);
  return out;
}
