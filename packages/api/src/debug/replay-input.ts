/**
 * A replay's inputs (POST /v1/operation/{network}/{id}/debug): an indexed contract call, read from the index and
 * the node, as the debug runner takes it — the call with the state it ran with, what the chain recorded of it
 * (compared with the replay's result), and, for a call backtracked for its storage, the what-if bundle that runs
 * it again with its storage limit.
 */
import {
  balanceChangeInBlock,
  bigMapChangesOf,
  getContractScript,
  getHeads,
  operationById,
  originationsBefore,
  previousStorage,
  storageSpaceInBlock,
  type BlockPosition,
} from '@michelscope/db/read';
import { LIMITS, OPERATION_COST } from '@michelscope/interpreter';
import { toMicheline, type Micheline } from '@michelscope/michelson';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { fullScript } from '../services/contracts';
import { nodeRpc } from '../services/node-rpc';
import { scriptRejected } from '../services/receipt-errors';
import { CONTRACT_RE } from '../validate';
import { groupEffects } from './group-state';
import type { DebugCall } from './record';
import type { RecordedResult } from './replay';
import type { ReplayPosition } from './runner';
import { ORIGINATION_SIZE, type BundleCall, type BundleStart } from './whatif';

/** What the debug runner's `record` takes to replay an indexed call. */
export interface ReplayInput {
  /** The contract called. */
  address: string;
  /** The level before the call's: the end state the replay starts from. */
  block: string;
  call: DebugCall;
  /** What the chain recorded of the call: the replay's result is compared with it. */
  recorded: RecordedResult;
  /** A call backtracked for its storage: its run again with its storage limit, as a what-if bundle. */
  bundle: { start: BundleStart; before: BundleCall[]; call: BundleCall } | undefined;
  /** Where in its block the call ran, with what its group's earlier (backtracked) operations had left. */
  at: ReplayPosition;
}

/**
 * The inputs of the replay of operation `id` (a contract call: top-level or internal, applied, failed or
 * backtracked) on `network`: 404 when it or its script is missing, 400 when it is not a call that ran.
 */
export async function replayInput(ctx: ApiContext, network: string, id: number): Promise<ReplayInput> {
  const op = await operationById(ctx.readDb, network, id);
  if (!op) throw new HttpError(404, 'not found');
  const address = op.destination ?? '';
  const prm = op.parameters as { entrypoint?: unknown; value?: unknown } | null;
  if (op.kind !== 'transaction' || !CONTRACT_RE.test(address) || !prm || prm.value === undefined)
    throw new HttpError(400, 'only a call of a contract (a transaction with parameters) can be debugged');
  // a call backtracked for its storage ran to its end: only the storage check after it failed
  const exhausted =
    op.status === 'backtracked' &&
    !op.internal &&
    Array.isArray(op.errors) &&
    op.errors.some((e) => {
      const id = (e as { id?: unknown } | null)?.id;
      return typeof id === 'string' && id.endsWith('.storage_exhausted.operation');
    });
  // applied, failed, or backtracked (it ran to its end, then its group failed: its effects were undone)
  if (op.status !== 'applied' && op.status !== 'failed' && op.status !== 'backtracked')
    throw new HttpError(400, `a ${op.status} operation did not run: nothing to debug`);
  const before = String(op.level - 1);
  // in a failed group, what its earlier contents (and, for an internal call, its emitter and the internal
  // calls before it) had done, undone since: from the group's receipt on the node
  const group =
    op.hash &&
    (op.status === 'backtracked' || (op.status === 'failed' && (op.content_index > 0 || op.internal)))
      ? await groupEffects(ctx, network, {
          level: op.level,
          hash: op.hash,
          content_index: op.content_index,
          internal: op.internal,
          nonce: op.nonce,
        })
      : undefined;
  // a contract its group originated (backtracked since) is not in the index: its script is the origination's,
  // from the group's receipt on the node
  const originated = group?.originated.get(address);
  const script = originated?.script ?? (await getContractScript(ctx.readDb, network, address));
  if (!script) {
    const inGroup =
      op.status !== 'applied' &&
      (await originationsBefore(ctx.readDb, network, { level: op.level, beforeId: op.id, hash: op.hash })) >
        0;
    throw new HttpError(
      404,
      inGroup
        ? `${address} was originated by this failed group (backtracked since): the replay needs its script ` +
            `from the receipt of block ${op.level} on the node, which did not give it`
        : 'not found',
    );
  }
  // the state it ran with: the end of the level before, changed by the operations of its block before it
  // (its group's earlier ones included)
  const at: ReplayPosition = { level: op.level, beforeId: op.id, hash: op.hash, group };
  const prev =
    group?.storage.get(address) ?? (await previousStorage(ctx.readDb, network, address, op.id))?.storage;
  const storage =
    prev != null
      ? toMicheline(prev)
      : toMicheline(
          await nodeRpc(ctx, network, `/chains/main/blocks/${before}/context/contracts/${address}/storage`),
        );
  const balanceBefore = await nodeRpc<string>(
    ctx,
    network,
    `/chains/main/blocks/${before}/context/contracts/${address}/balance`,
  ).catch(() => '0');
  // a contract the group originated: the tez it was originated with (the node has no balance of it before)
  const balance = originated
    ? originated.balance + (await balanceChangeInBlock(ctx.readDb, network, address, at))
    : /^\d+$/.test(String(balanceBefore))
      ? BigInt(balanceBefore) + (await balanceChangeInBlock(ctx.readDb, network, address, at))
      : 0n;
  const head = (await getHeads(ctx.readDb, [network])).get(network);
  const chainId = head?.chain_id ?? (await nodeRpc<string>(ctx, network, '/chains/main/chain_id'));
  // an internal call: SENDER is the calling contract, SOURCE the implicit account that started the group
  const sender = op.source ?? undefined;
  const source = (op.internal ? op.initiator : op.source) ?? undefined;
  // the parameter as the operation's receipt has it: a top-level call's as its sender wrote it, an internal
  // call's as its emitter printed it (already typed: the call pays only its type's equality with the
  // entrypoint's, not its decoding nor parsing, runContract's ticketsInParameter); the storage the worker
  // re-prints in the chain's own form
  const entrypoint = typeof prm.entrypoint === 'string' ? prm.entrypoint : 'default';
  // the receipt adds to the script's gas the fixed cost of a call (OPERATION_COST.call, the interpreter's
  // figure for Octez's) and the operation's own: a manager operation's, or an internal transfer's
  const consumed = Number(op.consumed_gas ?? 0);
  const fixed =
    OPERATION_COST.call + (op.internal ? OPERATION_COST.internalTransfer : OPERATION_COST.manager);
  // what it wrote in big maps, and the ids the chain gave those it allocated (the replay gives them too)
  const written = op.status === 'applied' ? await bigMapChangesOf(ctx.readDb, network, op.id) : undefined;
  const call: DebugCall = {
    script: fullScript(script),
    storage,
    parameter: toMicheline(prm.value),
    entrypoint,
    amount: String(op.amount ?? 0),
    balance: String(balance < 0n ? 0n : balance),
    ...(sender ? { sender } : {}),
    ...(source ? { source } : {}),
    self: address,
    now: String(Math.floor(new Date(op.timestamp).getTime() / 1000)),
    level: String(op.level),
    chainId,
    gasLimit: LIMITS.hardGasLimitPerOperation,
    fixedMilligas: fixed,
    // as the protocol applied it: storage and emitted operations unparsed (and paid) in Optimized mode
    unparsingMode: 'Optimized' as const,
    ...(op.internal ? { internal: true } : {}),
    ...(op.hash
      ? { originations: { hash: op.hash, before: await originationsBefore(ctx.readDb, network, at) } }
      : {}),
    ...(written?.fresh.length ? { bigMapIds: written.fresh } : {}),
  };
  const milligas = Math.max(0, consumed - fixed);
  // a failed call's FAILWITH value, as its receipt's script_rejected error has it
  const failedWith = op.status === 'failed' ? rejectedWith(op.errors) : undefined;
  // storage exhausted: the call runs again with its storage limit, from the bytes its contract used and had
  // paid for then (the node's at L-1, changed by the calls of block L before it), as the what-if counts them
  const limited = exhausted
    ? await storageCheck(ctx, network, address, at, before, {
        script: fullScript(script),
        storageType: toMicheline(script.storage),
        parameterType: toMicheline(script.parameter),
        self: address,
        storage,
        balance: call.balance,
        now: call.now,
        level: call.level,
        chainId,
        entries: [],
        costPerByte: String(head?.cost_per_byte ?? 0),
        originationSize: ORIGINATION_SIZE,
      })
    : undefined;
  const limitedCall: BundleCall = {
    entrypoint,
    parameter: call.parameter,
    amount: call.amount,
    ...(sender ? { sender } : {}),
    ...(source ? { source } : {}),
    gasLimit: call.gasLimit,
    storageLimit: Number(op.storage_limit ?? 0),
  };
  const recorded: RecordedResult = {
    status: op.status,
    ...(op.status === 'applied' && op.storage != null ? { storage: toMicheline(op.storage) } : {}),
    // a backtracked call's storage and big-map writes: its receipt's (the index keeps none of them)
    ...(op.status === 'backtracked' && group?.own?.storage !== undefined
      ? { storage: group.own.storage }
      : {}),
    ...(op.status === 'backtracked' && group?.own ? { bigMapDiffs: group.own.bigMapDiffs } : {}),
    storageType: toMicheline(script.storage),
    milligas,
    ...(written && !written.more ? { bigMapDiffs: written.diffs } : {}),
    ...(failedWith !== undefined ? { failedWith } : {}),
    ...(exhausted
      ? { storageExhausted: { contract: address, paid: Number(op.paid_storage_size_diff ?? 0) } }
      : {}),
  };
  return {
    address,
    block: before,
    call,
    recorded,
    bundle: limited ? { start: limited, before: [], call: limitedCall } : undefined,
    at,
  };
}

/** The FAILWITH value of a receipt's script_rejected error, as Micheline. */
function rejectedWith(errors: unknown): Micheline | undefined {
  const value = scriptRejected(errors)?.with;
  try {
    return value === undefined ? undefined : toMicheline(value);
  } catch {
    return undefined;
  }
}

/** A replay's start with the bytes `address` used and had paid for before the call at `at` (BundleStart). */
async function storageCheck(
  ctx: ApiContext,
  network: string,
  address: string,
  at: BlockPosition,
  before: string,
  start: Omit<BundleStart, 'usedSpace' | 'paidSpace'>,
): Promise<BundleStart> {
  const space = (what: string) =>
    nodeRpc<string>(
      ctx,
      network,
      `/chains/main/blocks/${before}/context/contracts/${address}/storage/${what}`,
    ).then(
      (v) => (/^\d+$/.test(String(v)) ? Number(v) : undefined),
      () => undefined,
    );
  const [used, paid, inBlock] = await Promise.all([
    space('used_space'),
    space('paid_space'),
    storageSpaceInBlock(ctx.readDb, network, address, at),
  ]);
  const usedSpace = inBlock.used ?? used;
  return {
    ...start,
    usedSpace: usedSpace !== undefined ? String(usedSpace) : undefined,
    paidSpace: paid !== undefined ? String(paid + inBlock.paid) : undefined,
  };
}
