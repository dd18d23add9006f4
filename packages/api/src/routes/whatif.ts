/**
 * What-if (issue 20, capability 5): POST …/entrypoints/what_if runs a bundle of up to 5 calls of a contract in
 * order in our interpreter (the debug workers, debug/whatif.ts), against the indexed head or against the
 * overrides the caller gives; the debug route takes the same overrides (`resolveWhatIfStart`). Every override
 * is checked here, before anything runs: a bad one is a 400 naming it.
 */
import {
  ErrorBody,
  WhatIfOverrides,
  WhatIfRequest,
  WhatIfResult,
  type WhatIfCall,
} from '@michelscope/api-types';
import {
  bigMapsOfContract,
  blockAt,
  getHeads,
  originationOf,
  storageAsOf,
  touchedAfter,
  type ScriptParts,
} from '@michelscope/db/read';
import { LIMITS } from '@michelscope/interpreter';
import {
  bigMapKeyHash,
  buildTypeTree,
  isAddressLiteral,
  isChainIdValue,
  normalizeValue,
  parametersForExecution,
  toMicheline,
  type Micheline,
} from '@michelscope/michelson';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import type { DebugRunner } from '../debug/runner';
import { ORIGINATION_SIZE, type BundleCall, type BundleStart, type EntryOverride } from '../debug/whatif';
import { HttpError } from '../errors';
import { fullScript, requireScript, resolveStorage } from '../services/contracts';
import { nodeRpc } from '../services/node-rpc';
import { AddressParams, CONTRACT_RE, requireAddress, requireNetwork } from '../validate';
import { asClientError } from './actions';
import { sendValidatedJson } from '../validated-json';

type Overrides = Static<typeof WhatIfOverrides>;
/** The protocol's hard storage limit per operation when the head does not say (reference §6). */
const HARD_STORAGE_LIMIT = 60_000;
const E = { 400: ErrorBody, 404: ErrorBody, 502: ErrorBody, 503: ErrorBody, 504: ErrorBody };

/** A value checked against a type: the checker's reason as a 400 naming the field. */
function typed(what: string, type: Micheline, value: unknown): Micheline {
  try {
    const v = toMicheline(value);
    normalizeValue(type, v, 'keep');
    return v;
  } catch (e) {
    throw new HttpError(
      400,
      `${what} does not match its type: ${(e instanceof Error ? e.message : String(e)).slice(0, 300)}`,
    );
  }
}

function address(value: string | undefined, what: string, implicitOnly = false): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!isAddressLiteral(value) || (implicitOnly && !/^tz[1-4]/.test(value)))
    throw new HttpError(
      400,
      `${what}: invalid ${implicitOnly ? 'implicit account (tz1–tz4)' : 'address'} '${value.slice(0, 64)}'`,
    );
  return value;
}

function mutez(value: string | number | undefined, what: string): string | undefined {
  if (value === undefined) return undefined;
  const s = String(value);
  if (!/^\d{1,19}$/.test(s) || BigInt(s) > 9223372036854775807n)
    throw new HttpError(400, `${what}: mutez must be a whole number up to 2^63 - 1`);
  return String(BigInt(s));
}

/** `now` as seconds since the epoch: an integer (or its digits), or an ISO 8601 time. */
function seconds(value: string | number): string {
  if (typeof value === 'number' || /^\d{1,12}$/.test(value)) return String(value);
  const t = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(t))
    throw new HttpError(400, `now: expected an ISO 8601 time or seconds, got '${value.slice(0, 40)}'`);
  return String(Math.floor(t / 1000));
}

export interface WhatIfStart {
  start: BundleStart;
  /** Big-map names by id (the contract's). */
  names: Record<string, string | null>;
  /** Defaults of the calls (the overrides' source, sender and amount). */
  defaults: { source?: string | undefined; sender?: string | undefined; amount?: string | undefined };
  overridden: string[];
  head: { level: number; hardGas: number; hardStorage: number };
  /** The level whose state the run reads (the head, or the `at_level` asked for), and what changed since. */
  state: { level: number; head_level: number; changed_since: boolean };
}

/**
 * The block a run reads the contract's state at: the head, or `atLevel` checked against the head and the
 * contract's origination (400 outside them), with its time and chain id. `address_` undefined: a script not
 * deployed (a deploy's debugger), which has no origination and which nothing changes.
 */
export async function stateBlock(
  ctx: ApiContext,
  network: string,
  address_: string | undefined,
  atLevel: number | undefined,
) {
  const head = (await getHeads(ctx.readDb, [network])).get(network);
  if (!head) throw new HttpError(404, `network ${network} is not indexed yet`);
  if (atLevel === undefined || atLevel === head.level)
    return { head, level: head.level, timestamp: head.timestamp, chainId: head.chain_id, changed: false };
  if (atLevel > head.level)
    throw new HttpError(400, `at_level ${atLevel} is above the indexed head (level ${head.level})`);
  const origination = address_ === undefined ? undefined : await originationOf(ctx.readDb, network, address_);
  if (origination?.level !== undefined && atLevel < origination.level)
    throw new HttpError(
      400,
      `at_level ${atLevel} is before the contract's origination (level ${origination.level}): it had no state then`,
    );
  const block = await blockAt(ctx.readDb, network, atLevel);
  if (!block) throw new HttpError(400, `at_level ${atLevel}: block ${atLevel} is not indexed`);
  return {
    head,
    level: atLevel,
    timestamp: block.timestamp,
    chainId: block.chain_id,
    changed: address_ === undefined ? false : await touchedAfter(ctx.readDb, network, address_, atLevel),
  };
}

/** The state a what-if (or a debug run with overrides) starts from: the head's, with the overrides checked and applied. */
export async function resolveWhatIfStart(
  ctx: ApiContext,
  network: string,
  address_: string,
  script: ScriptParts,
  o: Overrides = {},
  atLevel?: number,
): Promise<WhatIfStart> {
  const at = await stateBlock(ctx, network, address_, atLevel);
  const head = at.head;
  const storageType = toMicheline(script.storage);
  const overridden = Object.keys(o).filter((k) => o[k as keyof Overrides] !== undefined);
  const source = address(o.source, 'source', true);
  const sender = address(o.sender, 'sender');
  const amount = mutez(o.amount, 'amount');
  const balance = mutez(o.balance, 'balance');
  if (o.chain_id !== undefined && !(o.chain_id.startsWith('Net') && isChainIdValue(o.chain_id)))
    throw new HttpError(400, `chain_id: invalid chain id '${o.chain_id.slice(0, 32)}' (expected Net…)`);
  const storage =
    o.storage !== undefined
      ? typed('storage', storageType, o.storage)
      : await storageAt(ctx, network, address_, at);

  const maps = await bigMapsOfContract(ctx.readDb, network, address_);
  const names: Record<string, string | null> = {};
  for (const m of maps) names[String(m.ptr)] = m.name;
  const entries: EntryOverride[] = (o.big_maps ?? []).map((e, i) => {
    const what = `big_maps[${i}]`;
    if ((e.ptr === undefined) === (e.path === undefined))
      throw new HttpError(400, `${what}: give either ptr or path`);
    const map =
      e.ptr !== undefined
        ? maps.find((m) => m.ptr === e.ptr)
        : maps.find((m) => m.name === e.path || m.name === `%${e.path}`);
    if (!map)
      throw new HttpError(
        400,
        `${what}: unknown big map ${e.ptr !== undefined ? e.ptr : `'${String(e.path).slice(0, 64)}'`} of this contract` +
          (maps.length
            ? ` (its big maps: ${maps.map((m) => `${m.ptr}${m.name ? ` ${m.name}` : ''}`).join(', ')})`
            : ''),
      );
    const keyType = buildTypeTree(toMicheline(map.key_type));
    const key = typed(`${what}.key`, toMicheline(map.key_type), e.key);
    const value = e.value === null ? null : typed(`${what}.value`, toMicheline(map.value_type), e.value);
    return { ptr: map.ptr, keyHash: asClientError(() => bigMapKeyHash(key, keyType)), key, value };
  });

  const contractBalance =
    balance ??
    (await nodeRpc<string>(
      ctx,
      network,
      `/chains/main/blocks/${at.level}/context/contracts/${address_}/balance`,
    ).catch(() => '0'));
  const chainId = o.chain_id ?? at.chainId ?? (await nodeRpc<string>(ctx, network, '/chains/main/chain_id'));
  // the bytes the storage uses and has paid for: the node's figures at the level (absent: its storage's size)
  const space = (what: string) =>
    nodeRpc<string>(
      ctx,
      network,
      `/chains/main/blocks/${at.level}/context/contracts/${address_}/storage/${what}`,
    ).then(
      (v) => (/^\d+$/.test(String(v)) ? String(v) : undefined),
      () => undefined,
    );
  const [usedSpace, paidSpace] = await Promise.all([space('used_space'), space('paid_space')]);
  return {
    start: {
      script: fullScript(script),
      storageType,
      parameterType: toMicheline(script.parameter),
      self: address_,
      storage,
      balance: /^\d+$/.test(String(contractBalance)) ? String(contractBalance) : '0',
      now: o.now !== undefined ? seconds(o.now) : String(Math.floor(at.timestamp.getTime() / 1000)),
      level: String(o.level ?? at.level),
      chainId,
      entries,
      usedSpace,
      paidSpace,
      costPerByte: String(head.cost_per_byte ?? 0),
      originationSize: ORIGINATION_SIZE,
    },
    names,
    defaults: { source, sender, amount },
    overridden,
    head: {
      level: head.level,
      hardGas: head.hard_gas_limit_per_operation ?? LIMITS.hardGasLimitPerOperation / 1000,
      hardStorage: head.hard_storage_limit_per_operation ?? HARD_STORAGE_LIMIT,
    },
    state: { level: at.level, head_level: head.level, changed_since: at.changed },
  };
}

/**
 * The contract's storage at the end of the block a run reads (`stateBlock`'s): at the head, the head's; at a past
 * block, the indexed one (its last call at or before it), else the node's at that block.
 */
export async function storageAt(
  ctx: ApiContext,
  network: string,
  address_: string,
  at: { level: number; head: { level: number } },
): Promise<Micheline> {
  if (at.level === at.head.level) return resolveStorage(ctx, network, address_, at.level);
  const stored = await storageAsOf(ctx.readDb, network, address_, at.level);
  return stored?.storage != null
    ? toMicheline(stored.storage)
    : resolveStorage(ctx, network, address_, at.level);
}

/** A call of the bundle (or the debugged one) with its parameter built and its fields checked. */
export function bundleCall(
  script: ScriptParts,
  w: WhatIfStart,
  c: Pick<
    WhatIfCall,
    'name' | 'data' | 'value' | 'amount' | 'source' | 'sender' | 'gas_limit' | 'storage_limit'
  >,
  what: string,
): BundleCall {
  const param = toMicheline(script.parameter);
  const params =
    c.value !== undefined
      ? { entrypoint: c.name, value: asClientError(() => toMicheline(c.value)) }
      : asClientError(() => {
          try {
            return parametersForExecution(param, c.name, c.data ?? {});
          } catch (e) {
            if (e instanceof Error) e.message = `${what}: ${e.message}`;
            throw e;
          }
        });
  const source = address(c.source, `${what}.source`, true) ?? w.defaults.source;
  const sender = address(c.sender, `${what}.sender`) ?? w.defaults.sender ?? source;
  return {
    entrypoint: params.entrypoint,
    parameter: params.value,
    amount: mutez(c.amount, `${what}.amount`) ?? w.defaults.amount ?? '0',
    ...(sender ? { sender } : {}),
    ...(source ? { source } : {}),
    gasLimit: Math.min(c.gas_limit ?? w.head.hardGas, w.head.hardGas) * 1000,
    ...(c.storage_limit !== undefined ? { storageLimit: Math.min(c.storage_limit, w.head.hardStorage) } : {}),
  };
}

export function registerWhatIf(app: FastifyInstance, ctx: ApiContext, runner: () => DebugRunner): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/contract/:network/:address/entrypoints/what_if',
    {
      schema: {
        summary:
          'What-if: run a bundle of up to 5 calls against an overridden state, with the diff they make',
        description:
          'Runs the calls in order in the interpreter (in a debug worker, with its wall-clock limit: 504 past ' +
          'it), each from the state the previous one left (storage, balance, big maps). `overrides` replaces ' +
          'what the head has: the storage (typechecked), the balance, `now`, the level, the chain id, big-map ' +
          'entries (by id or field name; `value` null removes the key), and the source, sender and amount the ' +
          'calls default to. Each call runs with its internal operations, depth first as the chain applies ' +
          'them (at most 1,000 per call): calls of other contracts run against the state the bundle left, ' +
          'tez move, originations create contracts; a failed operation fails its call (the answer names it). ' +
          'A call with `storage_limit` fails when the storage it pays for exceeds it. Each call answers its ' +
          'status, gas (milligas as the node counts it), storage, storage diff, errors, internal operations ' +
          'with their status, events, balance updates, the storage of every contract it touched, and its ' +
          'fees (paid storage, storage and allocation burn at the network cost per byte, the limits and fee ' +
          "Taquito's estimate proposes); the whole bundle its storage diff, the storage of every contract it " +
          'changed, the big-map keys it added, changed and removed, the balance changes and the totals. A bad ' +
          'override is a 400 naming it. With `at_level` the calls run against the state at the end of that block ' +
          "(the contract's storage, big maps and balance, the block's level and time: a shared simulation rerun " +
          'as it was); `state` says the level run at, the head, and whether the contract changed since.',
        tags: ['contract'],
        params: AddressParams,
        body: WhatIfRequest,
        response: { 200: WhatIfResult, ...E },
      },
    },
    async (request, reply) => {
      const { network, address: self } = request.params;
      requireNetwork(ctx, network);
      requireAddress(self, CONTRACT_RE, 'contract address', 404);
      const b = request.body;
      const script = await requireScript(ctx, network, self);
      const w = await resolveWhatIfStart(ctx, network, self, script, b.overrides, b.at_level);
      const calls = b.calls.map((c, i) => bundleCall(script, w, c, `calls[${i}]`));
      const first = calls[0];
      const json = await runner()
        .forClient(request.ip)
        .whatIf(network, String(w.state.level), {
          ...w.start,
          calls,
          names: w.names,
          state: w.state,
          inputs: {
            balance: w.start.balance,
            now: new Date(Number(w.start.now) * 1000).toISOString().replace('.000Z', 'Z'),
            level: w.start.level,
            chain_id: w.start.chainId,
            ...(first?.source ? { source: first.source } : {}),
            ...(first?.sender ? { sender: first.sender } : {}),
            overridden: w.overridden,
          },
        });
      // checked against WhatIfResult in the worker: sent as it is
      return sendValidatedJson(reply, json);
    },
  );
}
