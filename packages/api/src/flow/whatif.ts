/**
 * The flow graph of a what-if bundle (issue 37): each call of the bundle as a top-level edge followed by the
 * internal operations it ran, built by the same builder as an indexed group's. Token movements are checked
 * against the ledger big maps' changes of their call (read from the overlay after each call); the worker has
 * no database, so nodes carry no alias, tags or token metadata.
 */
import type { FlowGraph, MiguelNode } from '@michelscope/api-types';
import { ZERO_PKH } from '@michelscope/interpreter';
import { toMiguel, type Micheline } from '@michelscope/michelson';
import { buildFlow, ledgerKey, tokenTransfers, type FlowOp } from './build';

/** The overlay's view the snapshot reads (a structural subset of debug/whatif-overlay's Overlay). */
export interface LedgerOverlay {
  changes(): Array<{
    ptr: bigint;
    keys: Array<{ keyHash: string; key: unknown; before: unknown; after: unknown }>;
  }>;
  typesOf(id: bigint): { key: Micheline; value: Micheline } | null;
  ownerOf(id: bigint): string | null;
}

/** Token ledger balances the bundle changed so far: contract → `holder|token_id` → {before the bundle, now}. */
export type LedgerSnapshot = Map<string, Map<string, { before: bigint; after: bigint }>>;

const natOf = (v: unknown): bigint => {
  const i = (v as { int?: unknown } | null)?.int;
  try {
    return typeof i === 'string' || typeof i === 'number' ? BigInt(i) : 0n;
  } catch {
    return 0n;
  }
};

const prim = (m: Micheline | undefined) =>
  m && typeof m === 'object' && !Array.isArray(m) && 'prim' in m
    ? (m as { prim: string; args?: Micheline[] })
    : undefined;

/** The holder and token id of a ledger key, or undefined when the map is not a `nat` ledger. */
function holderOf(types: { key: Micheline; value: Micheline }, key: unknown) {
  if (prim(types.value)?.prim !== 'nat') return undefined;
  const k = prim(types.key);
  const shape =
    k?.prim === 'address'
      ? 'a'
      : k?.prim === 'pair' && k.args?.length === 2
        ? k.args.map((x) => prim(x)?.prim).join(',')
        : '';
  if (shape !== 'a' && shape !== 'address,nat' && shape !== 'nat,address') return undefined;
  try {
    const m = toMiguel(types.key, key as Micheline)[0] as MiguelNode;
    const vals = m.children ? m.children.map((c) => String(c.value)) : [String(m.value)];
    if (shape === 'a') return { address: vals[0]!, tokenId: '0' };
    if (shape === 'address,nat') return { address: vals[0]!, tokenId: vals[1]! };
    return { address: vals[1]!, tokenId: vals[0]! };
  } catch {
    return undefined;
  }
}

/** The ledger balances the bundle changed so far (taken after each call). */
export function ledgerSnapshot(overlay: LedgerOverlay): LedgerSnapshot {
  const out: LedgerSnapshot = new Map();
  for (const { ptr, keys } of overlay.changes()) {
    const owner = overlay.ownerOf(ptr);
    const types = overlay.typesOf(ptr);
    if (!owner || !types) continue;
    for (const k of keys) {
      const h = holderOf(types, k.key);
      if (!h) continue;
      let m = out.get(owner);
      if (!m) out.set(owner, (m = new Map()));
      m.set(ledgerKey(h.address, h.tokenId), { before: natOf(k.before), after: natOf(k.after) });
    }
  }
  return out;
}

/** What call `i` wrote to `contract`'s ledger: its balances after the call minus after the call before. */
function callDelta(snaps: readonly LedgerSnapshot[], i: number, contract: string): Map<string, bigint> {
  const now = snaps[i]?.get(contract) ?? new Map<string, { before: bigint; after: bigint }>();
  const prev = i > 0 ? snaps[i - 1]?.get(contract) : undefined;
  const out = new Map<string, bigint>();
  for (const [k, v] of now) {
    const d = v.after - (prev?.get(k)?.after ?? v.before);
    if (d !== 0n) out.set(k, d);
  }
  return out;
}

/** A call of the answer as runWhatIf builds it (the fields the flow reads). */
interface CallOut {
  entrypoint?: unknown;
  status?: unknown;
  parameters?: unknown;
  fees?: unknown;
  operations?: unknown;
}

interface OpOut {
  kind: string;
  source: string;
  status: string;
  destination?: string;
  amount?: string;
  entrypoint?: string;
  parameters?: MiguelNode[];
  delegate?: string | null;
  tag?: string;
  payload?: MiguelNode[];
  originated_contract?: string;
}

/**
 * The flow graph of a bundle: `calls` as runWhatIf answers them, `asked` the calls run (source, sender,
 * amount), `self` the called contract, `snaps` the ledger snapshot taken after each call that ran.
 */
export function whatIfFlow(
  self: string,
  asked: ReadonlyArray<{ source?: string | undefined; sender?: string | undefined; amount: string }>,
  calls: readonly CallOut[],
  snaps: readonly LedgerSnapshot[],
): FlowGraph {
  const ops: FlowOp[] = [];
  calls.forEach((c, i) => {
    const status = typeof c.status === 'string' ? c.status : 'failed';
    const call = asked[i];
    const fees = (c.fees ?? {}) as { fee?: string; burn?: string };
    ops.push({
      kind: 'transaction',
      status,
      // the interpreter's default sender when the call names none
      source: call?.sender ?? call?.source ?? ZERO_PKH,
      destination: self,
      amount: call?.amount ?? '0',
      entrypoint: typeof c.entrypoint === 'string' ? c.entrypoint : null,
      ...(Array.isArray(c.parameters) ? { parameters: c.parameters as MiguelNode[] } : {}),
      internal: false,
      content_index: i,
      ...(fees.fee !== undefined ? { fee: fees.fee } : {}),
      ...(fees.burn !== undefined ? { burned: fees.burn } : {}),
    });
    const internals = (Array.isArray(c.operations) ? c.operations : []) as OpOut[];
    // a token contract reached once in the call: its ledger changes are that operation's
    const reached = new Map<string, number>();
    for (const o of internals)
      if (o.destination && tokenTransfers(o.destination, o.entrypoint, o.parameters).length)
        reached.set(o.destination, (reached.get(o.destination) ?? 0) + 1);
    if (tokenTransfers(self, ops[ops.length - 1]!.entrypoint, ops[ops.length - 1]!.parameters).length)
      reached.set(self, (reached.get(self) ?? 0) + 1);
    const applied = status === 'applied' || status === 'backtracked';
    if (applied && reached.get(self) === 1) ops[ops.length - 1]!.ledger = callDelta(snaps, i, self);
    internals.forEach((o, nonce) => {
      const to = o.kind === 'origination' ? (o.originated_contract ?? o.destination) : o.destination;
      const op: FlowOp = {
        kind: o.kind,
        // after a later call failed, what this one ran is backtracked with it
        status: status === 'backtracked' && o.status === 'applied' ? 'backtracked' : o.status,
        source: o.source,
        destination: to ?? null,
        delegate: o.delegate ?? null,
        amount: o.amount ?? '0',
        entrypoint: o.entrypoint ?? null,
        ...(o.parameters ? { parameters: o.parameters } : {}),
        tag: o.tag ?? null,
        ...(o.payload ? { payload: o.payload } : {}),
        internal: true,
        content_index: i,
        nonce,
      };
      if (applied && to && reached.get(to) === 1) op.ledger = callDelta(snaps, i, to);
      ops.push(op);
    });
  });
  return buildFlow(ops);
}
