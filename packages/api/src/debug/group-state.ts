/**
 * The effects of a failed group's earlier contents on one of its operations (issue 20, replays). On Tezos a group
 * whose content fails is backtracked whole, yet its contents ran in order: content #2 saw what content #1 wrote,
 * an internal call saw its emitter's storage and the internal calls before it. The index keeps no state of
 * backtracked operations (their storage and big-map writes are not the chain's), so a replay inside a failed
 * group reads them from the group's receipt on the node (`…/operation_hashes`, then `…/operations/3/{i}`):
 * each backtracked result before the operation, in the order the chain applied them, and the operation's own.
 * A contract the group originated (a top-level or internal origination, backtracked since) is not in the index:
 * its script, initial storage, balance and bytes are read from the origination in the same receipt.
 */
import { toMicheline, type Micheline } from '@michelscope/michelson';
import type { ScriptParts } from '@michelscope/db/read';
import type { ApiContext } from '../context';
import { nodeRpc } from '../services/node-rpc';

/** One result of the receipt (top-level or internal), as the node writes it. */
interface ResultJson {
  status?: string;
  storage?: unknown;
  consumed_milligas?: string;
  lazy_storage_diff?: unknown;
  originated_contracts?: unknown;
  storage_size?: unknown;
  paid_storage_size_diff?: unknown;
}

/** A contract the group originated before the operation (backtracked since: the index keeps none of it). */
export interface GroupOrigination {
  /** its script as the index keeps one (parameter, storage and code types, views) */
  script: ScriptParts;
  /** the tez it was originated with */
  balance: bigint;
  /** the bytes its origination used and paid for */
  storageSize: number;
  paid: number;
}

/** What the group's backtracked operations before the replayed one had left. */
export interface GroupEffects {
  /** contracts' storage after their last backtracked call before the operation */
  storage: Map<string, Micheline>;
  /** big-map entries written (by key hash; null: removed), and maps allocated (fresh) or copied in the group */
  maps: Map<number, { entries: Map<string, Micheline | null>; fresh?: true; copyOf?: number }>;
  /** the replayed operation's own result in the receipt (a backtracked call's storage and big-map writes) */
  own?: { storage?: Micheline; bigMapDiffs: { ptr: number; key_hash: string; value: unknown }[] };
  /** contracts the group's earlier operations originated, by address (their initial storage is in `storage`) */
  originated: Map<string, GroupOrigination>;
}

/** Bounds of the group's read: the time of each node request, the group's results and diffs looked at. */
export const GROUP_LIMITS = { rpcTimeoutMs: 5_000, results: 1_000, updates: 20_000 };

interface Diff {
  kind?: string;
  id?: string;
  diff?: { action?: string; source?: string; updates?: { key_hash?: string; value?: unknown }[] };
}

/** The big-map writes of a result's lazy storage diff, applied to `maps`; the entries written, in order. */
function applyLazy(
  lazy: unknown,
  maps: GroupEffects['maps'],
  budget: { updates: number },
): { ptr: number; key_hash: string; value: unknown }[] {
  const written: { ptr: number; key_hash: string; value: unknown }[] = [];
  for (const d of Array.isArray(lazy) ? (lazy as Diff[]) : []) {
    if (d?.kind !== 'big_map' || !/^-?\d{1,19}$/.test(String(d.id))) continue;
    const ptr = Number(d.id);
    const action = d.diff?.action;
    if (action === 'remove') {
      maps.delete(ptr);
      continue;
    }
    let m = maps.get(ptr);
    if (action === 'alloc') m = { entries: new Map(), fresh: true };
    else if (action === 'copy' && /^-?\d{1,19}$/.test(String(d.diff?.source)))
      m = { entries: new Map(), copyOf: Number(d.diff!.source) };
    m ??= { entries: new Map() };
    maps.set(ptr, m);
    for (const u of d.diff?.updates ?? []) {
      if (--budget.updates < 0) throw new Error('too many big-map updates in the group');
      if (typeof u?.key_hash !== 'string') continue;
      const value = u.value === undefined || u.value === null ? null : toMicheline(u.value);
      m.entries.set(u.key_hash, value);
      // temporary maps (negative ids) are not the chain's: the receipt's writes of them are not compared
      if (ptr >= 0) written.push({ ptr, key_hash: u.key_hash, value });
    }
  }
  return written;
}

/**
 * The effects of the backtracked operations of group `hash` (block `level`) applied before its operation at
 * content `contentIndex` (an internal one: with `nonce`), and that operation's own result; undefined when the
 * node does not have the block's receipts (then the replay starts from the index's state, and says so in its
 * comparison if it differs).
 */
export async function groupEffects(
  ctx: ApiContext,
  network: string,
  op: { level: number; hash: string; content_index: number; internal: boolean; nonce: number | null },
  limits = GROUP_LIMITS,
): Promise<GroupEffects | undefined> {
  const block = `/chains/main/blocks/${op.level}`;
  const get = <T>(path: string) =>
    nodeRpc<T>(ctx, network, `${block}${path}`, undefined, limits.rpcTimeoutMs).catch(() => undefined);
  // every validation pass's hashes (a few kilobytes; not every node serves one pass alone), the managers' is 3
  const hashes = await get<unknown>('/operation_hashes');
  const managers = Array.isArray(hashes) ? (hashes as unknown[])[3] : undefined;
  const index = Array.isArray(managers) ? managers.indexOf(op.hash) : -1;
  if (index < 0) return undefined;
  const group = await get<{ hash?: string; contents?: unknown[] }>(`/operations/3/${index}`);
  if (group?.hash !== op.hash || !Array.isArray(group.contents)) return undefined;
  const out: GroupEffects = { storage: new Map(), maps: new Map(), originated: new Map() };
  const budget = { updates: limits.updates };
  let seen = 0;
  const take = (r: ResultJson, destination: unknown, own: boolean): void => {
    if (++seen > limits.results) throw new Error('too many results in the group');
    if (own) {
      const diffs = applyLazy(r.lazy_storage_diff, new Map(), budget);
      out.own = {
        ...(r.storage !== undefined ? { storage: toMicheline(r.storage) } : {}),
        bigMapDiffs: diffs,
      };
      return;
    }
    // only what ran to its end left anything (a failed result is the last: nothing after it ran)
    if (r.status !== 'backtracked' && r.status !== 'applied') return;
    if (typeof destination === 'string' && r.storage !== undefined)
      out.storage.set(destination, toMicheline(r.storage));
    applyLazy(r.lazy_storage_diff, out.maps, budget);
  };
  /** An origination that ran: its contract's script, initial storage, balance and bytes. */
  const originate = (o: { kind?: unknown; balance?: unknown; script?: unknown }, r: ResultJson): void => {
    if (o.kind !== 'origination' || (r.status !== 'backtracked' && r.status !== 'applied')) return;
    const address = Array.isArray(r.originated_contracts) ? r.originated_contracts[0] : undefined;
    const script = o.script as { code?: unknown; storage?: unknown } | undefined;
    if (typeof address !== 'string' || !Array.isArray(script?.code) || script.storage === undefined) return;
    const section = (prim: string) =>
      (script.code as { prim?: unknown; args?: unknown[] }[]).find((x) => x?.prim === prim)?.args?.[0];
    const parts = {
      parameter: section('parameter'),
      storage: section('storage'),
      code: section('code'),
      views: (script.code as { prim?: unknown }[]).filter((x) => x?.prim === 'view'),
    };
    if (parts.parameter === undefined || parts.storage === undefined || parts.code === undefined) return;
    const bytes = (v: unknown) => (/^\d{1,15}$/.test(String(v)) ? Number(v) : 0);
    out.originated.set(address, {
      script: parts,
      balance: /^\d{1,30}$/.test(String(o.balance)) ? BigInt(String(o.balance)) : 0n,
      storageSize: bytes(r.storage_size),
      paid: bytes(r.paid_storage_size_diff),
    });
    out.storage.set(address, toMicheline(script.storage));
  };
  try {
    for (const [i, c] of group.contents.entries()) {
      if (i > op.content_index) break;
      const content = c as {
        kind?: unknown;
        destination?: unknown;
        balance?: unknown;
        script?: unknown;
        metadata?: {
          operation_result?: ResultJson;
          internal_operation_results?: {
            kind?: unknown;
            destination?: unknown;
            nonce?: unknown;
            balance?: unknown;
            script?: unknown;
            result?: ResultJson;
          }[];
        };
      };
      const top = content.metadata?.operation_result ?? {};
      if (i === op.content_index && !op.internal) {
        take(top, content.destination, true);
        break;
      }
      take(top, content.destination, false);
      originate(content, top);
      for (const inner of content.metadata?.internal_operation_results ?? []) {
        const mine = i === op.content_index && op.internal && Number(inner.nonce) === op.nonce;
        take(inner.result ?? {}, inner.destination, mine);
        if (mine) break;
        originate(inner, inner.result ?? {});
      }
    }
  } catch {
    return undefined;
  }
  return out;
}

/**
 * A big-map entry as the group's earlier operations left it: `{ value }` (null: removed or absent from a map
 * allocated in the group), `{ ptr }` to read on from (the source of a copy made in the group), else undefined.
 */
export function groupEntry(
  effects: GroupEffects | undefined,
  ptr: number,
  keyHash: string,
): { value: Micheline | null } | { ptr: number } | undefined {
  const m = effects?.maps.get(ptr);
  if (!m) return undefined;
  if (m.entries.has(keyHash)) return { value: m.entries.get(keyHash)! };
  if (m.fresh) return { value: null };
  if (m.copyOf !== undefined) return groupEntry(effects, m.copyOf, keyHash) ?? { ptr: m.copyOf };
  return undefined;
}
