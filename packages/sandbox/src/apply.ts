// Application of one operation group (all contents share one source) to the state, producing the
// node's receipts. Validation failures (the node refuses the operation) throw an RpcError; an
// application failure gives `failed` on the failing content, `backtracked` on those applied before
// it and `skipped` after it, with the fees kept, as the protocol does.
import { getPkhfromPk } from '@taquito/utils';
import { backtrack } from '@michelscope/engine';
import { encodeExpr, type Expr } from '@michelscope/interpreter';
import { globalConstantHash } from '@michelscope/michelson';
import {
  balanceTooLow,
  consume,
  fail,
  MANAGER_MILLIGAS,
  OpFailure,
  originate,
  runInternal,
  transfer,
  transferTicket,
  type Applied,
  type Exec,
  type Group,
  type Origin,
} from './execute';
import {
  COST_PER_BYTE,
  HARD_GAS_LIMIT_PER_OPERATION,
  HARD_STORAGE_LIMIT_PER_OPERATION,
  ORIGINATION_SIZE,
  PROTO_ERROR_PREFIX as P,
} from './protocol';
import type {
  BalanceUpdate,
  InternalResult,
  ManagerContent,
  NodeError,
  OperationResult,
} from './operation-types';
import { RpcError } from './operation-types';
import { originateSmartRollup, validateSmartRollupOriginate } from './smart-rollups';
import type { State } from './state';
import type { Listings } from './voting';

export type { Origin } from './execute';
export const TRANSFER_MILLIGAS = MANAGER_MILLIGAS;
/** Burn for allocating a new implicit account or originating a contract: origination_size × cost_per_byte. */
export const ALLOCATION_BURN = BigInt(ORIGINATION_SIZE) * COST_PER_BYTE;
/** Bytes charged for a registered global constant beyond its expression. */
const CONSTANT_EXTRA_BYTES = 65n;

export interface ApplyContext {
  /** Hash of the operation (KT1 addresses derive from it). */
  hash: string;
  level: number;
  /** Timestamp of the block the operation goes into, in seconds. */
  now: bigint;
  origin?: Origin;
  /** The voting listings of the block's context (VOTING_POWER). */
  listings?: () => Listings;
}

export interface AppliedGroup {
  contents: ManagerContent[];
  fees: bigint;
}

function nat(value: string | undefined, field: string): bigint {
  if (value === undefined || !/^\d{1,30}$/.test(value)) {
    throw new RpcError(400, [
      { kind: 'permanent', id: 'sandbox.invalid_operation', msg: `invalid ${field}: ${value}` },
    ]);
  }
  return BigInt(value);
}

function reject(errors: NodeError[]): never {
  throw new RpcError(500, errors);
}

function safePkh(pk: string | undefined): string | undefined {
  try {
    return pk ? getPkhfromPk(pk) : undefined;
  } catch {
    return undefined;
  }
}

/** Fee phase: counters, keys, limits and fees, for every content. Any error refuses the operation. */
function payFees(state: State, contents: ManagerContent[]): bigint {
  const source = contents[0]!.source;
  let fees = 0n;
  let revealedInBatch = false;
  for (const c of contents) {
    if (c.source !== source)
      reject([{ kind: 'permanent', id: `${P}validate.operation.inconsistent_sources` }]);
    const gas = nat(c.gas_limit, 'gas_limit');
    const storage = nat(c.storage_limit, 'storage_limit');
    const fee = nat(c.fee, 'fee');
    const counter = nat(c.counter, 'counter');
    if (gas > BigInt(HARD_GAS_LIMIT_PER_OPERATION))
      reject([{ kind: 'permanent', id: `${P}gas_limit_too_high` }]);
    if (storage > BigInt(HARD_STORAGE_LIMIT_PER_OPERATION))
      reject([{ kind: 'permanent', id: `${P}storage_limit_too_high` }]);
    const account = state.implicit(source);
    if (!account || BigInt(account.balance) === 0n) {
      reject([{ kind: 'temporary', id: `${P}implicit.empty_implicit_contract`, implicit: source }]);
    }
    if (c.kind === 'reveal') {
      if (account.manager || revealedInBatch)
        reject([{ kind: 'branch', id: `${P}contract.previously_revealed_key`, contract: source }]);
      const pkh = safePkh(c.public_key);
      if (pkh !== source) {
        reject([
          {
            kind: 'permanent',
            id: `${P}contract.inconsistent_hash`,
            public_key: c.public_key,
            expected_hash: source,
            provided_hash: pkh,
          },
        ]);
      }
      revealedInBatch = true;
    } else if (!account.manager && !revealedInBatch) {
      reject([{ kind: 'temporary', id: `${P}contract.unrevealed_key`, contract: source }]);
    }
    if (c.kind === 'smart_rollup_originate') {
      const refused = validateSmartRollupOriginate(c);
      if (refused) reject([refused]);
    }
    const expected = BigInt(account.counter) + 1n;
    if (counter < expected) {
      reject([
        {
          kind: 'branch',
          id: `${P}contract.counter_in_the_past`,
          contract: source,
          expected: String(expected),
          found: String(counter),
        },
      ]);
    }
    if (counter > expected) {
      reject([
        {
          kind: 'temporary',
          id: `${P}contract.counter_in_the_future`,
          contract: source,
          expected: String(expected),
          found: String(counter),
        },
      ]);
    }
    const balance = BigInt(account.balance);
    if (balance < fee) reject(balanceTooLow(source, balance, fee));
    state.setImplicit(source, { ...account, balance: String(balance - fee), counter: String(counter) });
    fees += fee;
  }
  return fees;
}

function feeUpdates(source: string, fee: bigint, origin: Origin): BalanceUpdate[] {
  if (fee === 0n) return [];
  return [
    { kind: 'contract', contract: source, change: `-${fee}`, origin },
    { kind: 'accumulator', category: 'block fees', change: String(fee), origin },
  ];
}

/**
 * Validates and applies one operation on `state` (mutating it: fees and counters always, the rest
 * only when every content succeeds). Throws RpcError when the node would refuse the operation.
 */
export function applyOperation(state: State, contents: ManagerContent[], ctx: ApplyContext): AppliedGroup {
  if (contents.length === 0)
    reject([{ kind: 'permanent', id: 'sandbox.empty_operation', msg: 'no contents' }]);
  const origin = ctx.origin ?? 'block';
  const source = contents[0]!.source;
  const fees = payFees(state, contents);

  const work = state.fork();
  const group: Group = { hash: ctx.hash, originations: 0 };
  const results: OperationResult[] = [];
  const internals: InternalResult[][] = [];
  let failed = false;
  for (const c of contents) {
    const inner: InternalResult[] = [];
    internals.push(inner);
    if (failed) {
      results.push({ status: 'skipped' });
      continue;
    }
    const ex: Exec = {
      state: work,
      group,
      payer: source,
      origin,
      level: ctx.level,
      now: ctx.now,
      ...(ctx.listings ? { listings: ctx.listings } : {}),
      gasLeft: BigInt(c.gas_limit) * 1000n,
      nonce: 0,
      lastTemporaryBigMap: 0n,
      lastTemporarySapling: 0n,
    };
    const r = applyContent(ex, c, inner);
    results.push(r);
    if (r.status !== 'applied') failed = true;
  }
  if (failed) {
    backtrack(results, (r) => r);
    for (const inner of internals) backtrack(inner, (i) => i.result);
  } else work.commit();

  const out = contents.map((c, i) => {
    const metadata: NonNullable<ManagerContent['metadata']> = {
      balance_updates: feeUpdates(source, BigInt(c.fee), origin),
      operation_result: results[i]!,
    };
    if (internals[i]!.length > 0) metadata.internal_operation_results = internals[i]!;
    return { ...c, metadata };
  });
  return { contents: out, fees };
}

/** Applies one content on a fork of `ex.state`; commits it only on success. */
function applyContent(ex: Exec, c: ManagerContent, inner: InternalResult[]): OperationResult {
  const base = ex.state;
  const fork = base.fork();
  ex.state = fork;
  let top: OperationResult | undefined;
  try {
    consume(ex, MANAGER_MILLIGAS);
    const applied = dispatch(ex, c);
    top = applied.result;
    runInternal(ex, applied, inner);
    burnStorage(ex, c, top, inner);
    // Temporary big maps (negative ids) live only during the manager operation, as in Octez.
    fork.dropTemporaryBigMaps();
    fork.commit();
    for (const i of inner) i.result = ordered(i.result);
    return ordered(top);
  } catch (e) {
    if (!(e instanceof OpFailure)) throw e;
    if (!top) return { status: 'failed', errors: e.errors };
    // The content itself ran: an internal operation or the storage burn failed.
    backtrack(inner, (i) => i.result);
    const failedInside = inner.some((i) => i.result.status === 'failed');
    return { ...top, status: 'backtracked', ...(failedInside ? {} : { errors: e.errors }) };
  } finally {
    ex.state = base;
  }
}

const RESULT_FIELDS = [
  'status',
  'storage',
  'balance_updates',
  'ticket_updates',
  'ticket_receipt',
  'address',
  'genesis_commitment_hash',
  'originated_contracts',
  'consumed_milligas',
  'size',
  'storage_size',
  'paid_storage_size_diff',
  'allocated_destination_contract',
  'global_address',
  'lazy_storage_diff',
  'address_registry_diff',
  'errors',
] as const;

/** A result with its fields in the order of the node's JSON encoding. */
function ordered(r: OperationResult): OperationResult {
  const out: Record<string, unknown> = {};
  for (const k of RESULT_FIELDS) if (r[k] !== undefined) out[k] = r[k];
  return out as unknown as OperationResult;
}

function dispatch(ex: Exec, c: ManagerContent): Applied {
  switch (c.kind) {
    case 'reveal': {
      const a = ex.state.implicit(c.source)!;
      ex.state.setImplicit(c.source, { ...a, manager: c.public_key! });
      return { result: { status: 'applied', consumed_milligas: String(MANAGER_MILLIGAS) }, emitted: [] };
    }
    case 'transaction':
      return transfer(ex, {
        source: c.source,
        destination: c.destination!,
        amount: BigInt(c.amount ?? '0'),
        entrypoint: c.parameters?.entrypoint ?? 'default',
        ...(c.parameters ? { parameter: c.parameters.value as Expr } : {}),
        internal: false,
      });
    case 'origination':
      return originate(ex, {
        source: c.source,
        balance: BigInt(c.balance ?? '0'),
        code: c.script?.code,
        storage: c.script?.storage,
        ...(c.delegate ? { delegate: c.delegate } : {}),
        internal: false,
      });
    case 'delegation': {
      const a = ex.state.implicit(c.source)!;
      if (c.delegate && c.delegate !== c.source && !ex.state.isDelegate(c.delegate)) {
        fail('contract.manager.unregistered_delegate', { hash: c.delegate }, 'permanent');
      }
      if (c.delegate === undefined && a.delegate === undefined)
        fail('contract.manager.no_deletion', { contract: c.source }, 'permanent');
      if (c.delegate !== undefined && c.delegate === a.delegate)
        fail('contract.manager.delegate.unchanged', {}, 'temporary');
      const { delegate: _old, ...rest } = a;
      ex.state.setImplicit(c.source, c.delegate ? { ...rest, delegate: c.delegate } : rest);
      return { result: { status: 'applied', consumed_milligas: String(MANAGER_MILLIGAS) }, emitted: [] };
    }
    case 'register_global_constant': {
      const value = c.value as Expr;
      const hash = globalConstantHash(value);
      if (ex.state.constant(hash)) fail('Expression_already_registered', {}, 'permanent');
      const size = BigInt(encodeExpr(value).length) + CONSTANT_EXTRA_BYTES;
      consume(ex, size * 10n);
      ex.state.setConstant(hash, value);
      return {
        result: {
          status: 'applied',
          consumed_milligas: String(MANAGER_MILLIGAS + size * 10n),
          storage_size: String(size),
          global_address: hash,
        },
        emitted: [],
      };
    }
    case 'transfer_ticket':
      return transferTicket(ex, c);
    case 'smart_rollup_originate':
      return originateSmartRollup(ex, c);
    default:
      fail('sandbox.unsupported_operation', { kind: String((c as { kind: unknown }).kind) }, 'permanent');
  }
}

/**
 * Storage burns of a content, charged to its source: the paid bytes of each result, plus
 * origination_size for each origination and new implicit account, within the storage limit.
 */
function burnStorage(ex: Exec, c: ManagerContent, top: OperationResult, inner: InternalResult[]): void {
  let left = BigInt(c.storage_limit);
  const charge = (r: OperationResult) => {
    let bytes = BigInt(r.paid_storage_size_diff ?? '0');
    if (r.global_address) bytes = BigInt(r.storage_size ?? '0');
    if (r.genesis_commitment_hash) bytes = BigInt(r.size ?? '0');
    const burns: bigint[] = [];
    if (bytes > 0n) burns.push(bytes * COST_PER_BYTE);
    if (r.originated_contracts?.length || r.allocated_destination_contract) {
      bytes += BigInt(ORIGINATION_SIZE);
      burns.push(ALLOCATION_BURN);
    }
    if (bytes === 0n) return;
    left -= bytes;
    if (left < 0n) fail('storage_exhausted.operation');
    for (const amount of burns) {
      const balance = ex.state.balance(ex.payer);
      if (balance < amount)
        throw new OpFailure([
          { kind: 'temporary', id: `${P}contract.cannot_pay_storage_fee` },
          ...balanceTooLow(ex.payer, balance, amount),
        ]);
      ex.state.credit(ex.payer, -amount);
      r.balance_updates = [
        ...(r.balance_updates ?? []),
        { kind: 'contract', contract: ex.payer, change: `-${amount}`, origin: ex.origin },
        { kind: 'burned', category: 'storage fees', change: String(amount), origin: ex.origin },
      ];
    }
  };
  charge(top);
  for (const i of inner) charge(i.result);
}
