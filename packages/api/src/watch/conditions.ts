/**
 * Watch conditions (issue 39) matched against what the indexer stored for a block: operations (decoded
 * entrypoint, parameters, status, amount, storage after the call), events (tag, payload), big-map diffs, and
 * the FA1.2/FA2 transfers read from `transfer` calls' parameters. Pure but for the lookups of a value before the
 * block (a threshold's crossing), which the evaluator answers from the database.
 */
import type { WatchCondition } from '@michelscope/api-types';
import type { WatchBigMapFact, WatchOperationFact } from '@michelscope/db/watch';
import { decodeAddressBytes, toMiguel, type Micheline, type MiguelNode } from '@michelscope/michelson';

/** The facts of the levels evaluated (for the addresses some rule watches). */
export interface BlockFacts {
  network: string;
  operations: WatchOperationFact[];
  bigMaps: WatchBigMapFact[];
}

/** What matching needs beyond the block's facts. */
export interface FactLookups {
  /** The storage type of a contract (its script's `storage` section). */
  storageType(address: string): Promise<unknown>;
  /** A contract's storage at the end of the level before `level`. */
  storageBefore(address: string, level: number): Promise<unknown>;
  /** A big-map key's value at the end of the level before `level` (undefined: none). */
  bigMapValueBefore(ptr: number, keyHash: string, level: number): Promise<unknown>;
}

/** One fact that matched a rule: a delivery. */
export interface WatchMatch {
  level: number;
  operation_hash: string | null;
  /** Unique per rule: the same fact found again (a replayed block, another API process) has the same key. */
  key: string;
  matched: Record<string, unknown>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The operation's identity within its block, stable across processes and re-indexing. */
function opKey(
  network: string,
  o: { level: number; hash: string | null },
  op: WatchOperationFact | undefined,
  id: number,
) {
  const at = op ? `${op.content_index}.${op.nonce ?? '-'}` : String(id);
  return `${network}:${o.level}:${o.hash ?? `#${id}`}:${at}`;
}

/** A Micheline scalar as plain text: a string, an int, `0x…` bytes (an address's bytes as its base58). */
export function scalarText(v: unknown): string | undefined {
  if (!isObj(v)) return undefined;
  if (typeof v.string === 'string') return v.string;
  if (typeof v.int === 'string') return v.int;
  if (typeof v.bytes === 'string') {
    if (v.bytes.length === 44 || v.bytes.length > 44) {
      try {
        return decodeAddressBytes(v.bytes);
      } catch {
        /* not an address */
      }
    }
    return `0x${v.bytes}`;
  }
  return undefined;
}

const intOf = (v: unknown): bigint | undefined => {
  if (isObj(v) && typeof v.int === 'string') return BigInt(v.int);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return undefined;
};

/** Right combs flattened: `Pair a (Pair b c)` and `Pair a b c` both give [a, b, c]. */
function pairLeaves(v: unknown): unknown[] {
  if (isObj(v) && v.prim === 'Pair' && Array.isArray(v.args))
    return v.args.flatMap((a, i, all) => (i === all.length - 1 ? pairLeaves(a) : [a]));
  return [v];
}

const addressOf = (v: unknown): string | undefined => {
  const t = scalarText(v);
  return t && /^(tz[1-4]|KT1|sr1)/.test(t) ? t : undefined;
};

export interface TokenTransfer {
  standard: 'fa1.2' | 'fa2';
  from: string;
  to: string;
  token_id: string;
  amount: string;
}

/**
 * The transfers of a `transfer` call's parameter (raw Micheline): FA1.2 `(from, (to, value))` and FA2
 * `list (from_, list (to_, (token_id, amount)))`. An unrecognised shape gives [].
 */
export function decodeTokenTransfers(value: unknown): TokenTransfer[] {
  const flat = pairLeaves(value);
  if (flat.length === 3) {
    const [from, to, amount] = [addressOf(flat[0]), addressOf(flat[1]), intOf(flat[2])];
    if (from && to && amount !== undefined)
      return [{ standard: 'fa1.2', from, to, token_id: '0', amount: amount.toString() }];
  }
  if (!Array.isArray(value)) return [];
  const out: TokenTransfer[] = [];
  for (const item of value) {
    const [fromV, txs, ...rest] = pairLeaves(item);
    const from = addressOf(fromV);
    if (!from || !Array.isArray(txs) || rest.length) return [];
    for (const tx of txs) {
      const [toV, idV, amountV, ...more] = pairLeaves(tx);
      const to = addressOf(toV);
      const id = intOf(idV);
      const amount = intOf(amountV);
      if (!to || id === undefined || amount === undefined || more.length) return [];
      out.push({ standard: 'fa2', from, to, token_id: id.toString(), amount: amount.toString() });
    }
  }
  return out;
}

/** The storage type section's content (a script's `storage` column may hold `storage <type>` or the type). */
function typeOf(t: unknown): Micheline | undefined {
  if (Array.isArray(t)) return typeOf(t.find((x) => isObj(x) && x.prim === 'storage'));
  if (isObj(t) && t.prim === 'storage' && Array.isArray(t.args)) return t.args[0] as Micheline;
  return isObj(t) ? (t as unknown as Micheline) : undefined;
}

const trees = new WeakMap<object, { type: unknown; node: MiguelNode | undefined }>();

/** The node at `path` (dot-separated field names) of a storage value's named tree, or undefined. */
export function storageField(type: unknown, value: unknown, path: string): MiguelNode | undefined {
  const ty = typeOf(type);
  if (!ty || value === undefined || value === null) return undefined;
  let node: MiguelNode | undefined;
  // the same stored value is read by every storage rule of its contract: its tree is built once
  const cached = isObj(value) || Array.isArray(value) ? trees.get(value) : undefined;
  if (cached && cached.type === type) node = cached.node;
  else {
    try {
      node = toMiguel(ty, value as Micheline)[0];
    } catch {
      return undefined;
    }
    if (isObj(value) || Array.isArray(value)) trees.set(value, { type, node });
  }
  for (const name of path.split('.')) {
    node = findChild(node, name);
    if (!node) return undefined;
  }
  return node;
}

/** A named child, looking through unnamed pairs (a nested tuple's fields are the record's). */
function findChild(node: MiguelNode | undefined, name: string): MiguelNode | undefined {
  for (const c of node?.children ?? []) {
    if (c.name === name) return c;
  }
  for (const c of node?.children ?? []) {
    if (c.prim === 'pair' && !c.name) {
      const found = findChild(c, name);
      if (found) return found;
    }
  }
  return undefined;
}

const nodeInt = (n: MiguelNode | undefined): bigint | undefined => intOf(n?.value);

/** Whether `prev` → `next` crosses a threshold: rises to `above` or falls to `below` (prev unknown: next is there). */
export function crosses(
  prev: bigint | undefined,
  next: bigint | undefined,
  above: string | undefined,
  below: string | undefined,
): boolean {
  if (next === undefined) return false;
  if (above !== undefined) {
    const t = BigInt(above);
    if (next >= t && (prev === undefined || prev < t)) return true;
  }
  if (below !== undefined) {
    const t = BigInt(below);
    if (next <= t && (prev === undefined || prev > t)) return true;
  }
  return false;
}

/** The facts of `facts` that match a rule on `address`. */
export async function matchCondition(
  cond: WatchCondition,
  address: string,
  facts: BlockFacts,
  lookups: FactLookups,
): Promise<WatchMatch[]> {
  const out: WatchMatch[] = [];
  const net = facts.network;
  switch (cond.kind) {
    case 'call': {
      const statuses = cond.status ?? ['applied'];
      for (const o of facts.operations) {
        if (o.kind !== 'transaction' || o.destination !== address) continue;
        if (cond.entrypoints.length && !cond.entrypoints.includes(o.entrypoint ?? 'default')) continue;
        if (!statuses.includes(o.status as 'applied')) continue;
        if (cond.sender && o.source !== cond.sender) continue;
        const amount = BigInt(o.amount || '0');
        if (cond.amount_gte !== undefined && amount < BigInt(cond.amount_gte)) continue;
        if (cond.amount_lte !== undefined && amount > BigInt(cond.amount_lte)) continue;
        const params = isObj(o.parameters) ? o.parameters.value : undefined;
        out.push({
          level: o.level,
          operation_hash: o.hash,
          key: `${opKey(net, o, o, o.id)}:call`,
          matched: {
            kind: 'call',
            entrypoint: o.entrypoint,
            parameters: params ?? null,
            sender: o.source,
            initiator: o.initiator,
            amount: o.amount,
            status: o.status,
            internal: o.internal,
            counter: o.counter,
          },
        });
      }
      break;
    }
    case 'event':
      for (const o of facts.operations) {
        if (o.kind !== 'event' || o.source !== address || o.status !== 'applied') continue;
        if (cond.tags.length && !cond.tags.includes(o.tag ?? '')) continue;
        out.push({
          level: o.level,
          operation_hash: o.hash,
          key: `${opKey(net, o, o, o.id)}:event`,
          matched: { kind: 'event', tag: o.tag, payload: o.payload ?? null, emitter: o.source },
        });
      }
      break;
    case 'origination':
      for (const o of facts.operations) {
        if (o.kind !== 'origination' || o.source !== address || o.status !== 'applied') continue;
        out.push({
          level: o.level,
          operation_hash: o.hash,
          key: `${opKey(net, o, o, o.id)}:origination`,
          matched: {
            kind: 'origination',
            originated: o.destination,
            factory: o.source,
            initiator: o.initiator,
          },
        });
      }
      break;
    case 'token_transfer':
      for (const o of facts.operations) {
        if (o.kind !== 'transaction' || o.destination !== address || o.status !== 'applied') continue;
        if (o.entrypoint !== 'transfer' || !isObj(o.parameters)) continue;
        const min = BigInt(cond.amount_gte);
        decodeTokenTransfers(o.parameters.value).forEach((t, i) => {
          if (BigInt(t.amount) < min) return;
          if (cond.token_id !== undefined && t.token_id !== cond.token_id) return;
          out.push({
            level: o.level,
            operation_hash: o.hash,
            key: `${opKey(net, o, o, o.id)}:transfer:${i}`,
            matched: { kind: 'token_transfer', token: address, ...t, sender: o.source },
          });
        });
      }
      break;
    case 'big_map': {
      const ops = new Map(facts.operations.map((o) => [o.id, o]));
      const last = new Map<string, unknown>(); // key hash → value after the previous diff in the facts
      for (const d of facts.bigMaps) {
        if (d.contract !== address) continue;
        if (typeof cond.big_map === 'number' ? d.ptr !== cond.big_map : d.name !== cond.big_map) continue;
        if (cond.key_hash && d.key_hash !== cond.key_hash) continue;
        if (cond.key !== undefined && scalarText(d.key) !== cond.key) continue;
        const threshold = cond.above !== undefined || cond.below !== undefined;
        const slot = `${d.ptr}:${d.key_hash}`;
        let prev: unknown = last.get(slot);
        if (threshold && !last.has(slot)) prev = await lookups.bigMapValueBefore(d.ptr, d.key_hash, d.level);
        last.set(slot, d.value);
        if (threshold && !crosses(intOf(prev), intOf(d.value), cond.above, cond.below)) continue;
        const op = ops.get(d.operation_id);
        out.push({
          level: d.level,
          operation_hash: d.hash,
          key: `${opKey(net, d, op, d.operation_id)}:big_map:${d.ptr}:${d.key_hash}`,
          matched: {
            kind: 'big_map',
            big_map: d.ptr,
            name: d.name,
            key: d.key,
            key_hash: d.key_hash,
            value: d.value ?? null,
            removed: d.value === null || d.value === undefined,
            ...(threshold ? { previous: prev ?? null } : {}),
          },
        });
      }
      break;
    }
    case 'storage': {
      const calls = facts.operations.filter(
        (o) =>
          o.destination === address &&
          o.status === 'applied' &&
          o.storage !== null &&
          o.storage !== undefined,
      );
      if (calls.length === 0) break;
      const type = await lookups.storageType(address);
      const prevStorage: unknown = await lookups.storageBefore(address, calls[0]!.level);
      let prev = nodeInt(storageField(type, prevStorage, cond.path));
      for (const o of calls) {
        const field = storageField(type, o.storage, cond.path);
        const next = nodeInt(field);
        const hit = crosses(prev, next, cond.above, cond.below);
        if (hit)
          out.push({
            level: o.level,
            operation_hash: o.hash,
            key: `${opKey(net, o, o, o.id)}:storage:${cond.path}`,
            matched: {
              kind: 'storage',
              path: cond.path,
              value: next?.toString() ?? null,
              previous: prev?.toString() ?? null,
              entrypoint: o.entrypoint,
              sender: o.source,
            },
          });
        prev = next ?? prev;
      }
      break;
    }
  }
  return out;
}
