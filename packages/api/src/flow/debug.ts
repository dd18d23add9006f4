/**
 * The flow graph of a debugger recording (issue 37): the recorded call as the top-level edge (its sender to the
 * contract, with its entrypoint, decoded parameter, amount and status), then the internal operations it emitted
 * (transactions, originations, delegations, events). The debugger does not run those: their status is
 * `emitted`. Token movements are read from FA1.2/FA2 `transfer` parameters; the recorded call's own is checked
 * against its big-map diff (a token contract's `transfer` debugged), the emitted ones stay unchecked (their
 * ledgers belong to contracts the debugger did not run). Tickets carried by an emitted transaction's parameter
 * are credited to its destination (the emitter's debit, if it held them, is not known without a ticket
 * receipt). Built in the debug worker: no alias, tags or token metadata.
 */
import type { FlowGraph, FlowTicketMovement, MiguelNode } from '@michelscope/api-types';
import {
  tyToExpr,
  unparse,
  type ChainContext,
  type EmittedOperation,
  type LazyStorageDiffItem,
  type V,
} from '@michelscope/interpreter';
import { decodeParameters, toMicheline, toMiguel, type Micheline } from '@michelscope/michelson';
import { buildFlow, FLOW_EDGE_CAP, ledgerKey, tokenTransfers, type FlowOp } from './build';
import { ledgerBigMaps } from './ledger';

/** The recorded call, as the flow reads it (a structural subset of debug/record's DebugCall). */
export interface DebugFlowCall {
  script: Micheline[];
  parameter: Micheline;
  entrypoint: string;
  amount: string;
  sender?: string | undefined;
  source?: string | undefined;
  self: string;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** A script section's argument (`parameter` or `storage`). */
function section(script: readonly Micheline[], name: string): Micheline | undefined {
  for (const s of script) if (!Array.isArray(s) && 'prim' in s && s.prim === name) return (s.args ?? [])[0];
  return undefined;
}

const natOf = (v: unknown): bigint => {
  const i = (v as { int?: unknown } | null)?.int;
  try {
    return typeof i === 'string' || typeof i === 'number' ? BigInt(i) : 0n;
  } catch {
    return 0n;
  }
};

/**
 * What an applied call wrote to its own token ledgers (`holder|token_id` → signed delta): the big-map diff's
 * updates of the storage's ledger big maps, against the values before the call (`before`, read from the chain
 * the call ran on). Undefined when the call is no token transfer or no ledger is found.
 */
export function ownLedgerDelta(
  call: DebugFlowCall,
  storageAfter: Micheline | undefined,
  lazy: readonly LazyStorageDiffItem[],
  chain: ChainContext,
): Map<string, bigint> | undefined {
  if (storageAfter === undefined) return undefined;
  const params = decodedCallParameters(call);
  if (!tokenTransfers(call.self, call.entrypoint, params).length) return undefined;
  const type = section(call.script, 'storage');
  if (!type) return undefined;
  const ledgers = safe(() => new Map(ledgerBigMaps(type, storageAfter).map((l) => [String(l.ptr), l])));
  if (!ledgers?.size) return undefined;
  const out = new Map<string, bigint>();
  for (const d of lazy) {
    if (d.kind !== 'big_map' || d.diff.action !== 'update') continue;
    const ledger = ledgers.get(d.id);
    if (!ledger) continue;
    for (const u of d.diff.updates) {
      const h = ledger.holder(u.key);
      if (!h) continue;
      const before = chain.bigMapGet?.(BigInt(d.id), u.key, u.key_hash) ?? null;
      const k = ledgerKey(h.address, h.tokenId);
      out.set(k, (out.get(k) ?? 0n) + natOf(u.value) - natOf(before));
    }
  }
  return out;
}

function decodedCallParameters(call: DebugFlowCall): MiguelNode[] | undefined {
  const type = section(call.script, 'parameter');
  return type
    ? safe(() => decodeParameters(type, { entrypoint: call.entrypoint, value: call.parameter }))
    : undefined;
}

/** The tickets a value carries, credited to `account`. */
function ticketsIn(v: V, account: string, out: FlowTicketMovement[], depth = 0): void {
  if (depth > 1000 || out.length >= 100) return;
  switch (v.k) {
    case 'ticket': {
      const contentType = safe(() => tyToExpr(v.content.t));
      const content = safe(() => unparse(v.content, 'Readable'));
      const miguel =
        contentType !== undefined && content !== undefined
          ? safe(() => toMiguel(toMicheline(contentType), toMicheline(content))[0])
          : undefined;
      out.push({
        ticketer: v.ticketer,
        ...(contentType !== undefined ? { content_type: contentType } : {}),
        ...(miguel ? { content: miguel } : {}),
        account,
        amount: String(v.amount),
      });
      return;
    }
    case 'pair':
      ticketsIn(v.a, account, out, depth + 1);
      ticketsIn(v.b, account, out, depth + 1);
      return;
    case 'or':
      ticketsIn(v.v, account, out, depth + 1);
      return;
    case 'option':
      if (v.v) ticketsIn(v.v, account, out, depth + 1);
      return;
    case 'list':
    case 'set':
      for (const x of v.v) ticketsIn(x, account, out, depth + 1);
      return;
    case 'map':
      for (const [, x] of v.v) ticketsIn(x, account, out, depth + 1);
      return;
    default:
      return;
  }
}

/**
 * The flow graph of a recording: `call` the recorded call, `status` its outcome, `emitted` the operations it
 * emitted (none when it failed), `ledger` what it wrote to its own token ledgers ({@link ownLedgerDelta}),
 * `chain` for the destinations' parameter types (decoded as the destination declares them).
 */
export function debugFlow(
  call: DebugFlowCall,
  status: 'applied' | 'failed',
  emitted: readonly EmittedOperation[],
  ledger: Map<string, bigint> | undefined,
  chain: ChainContext,
): FlowGraph {
  const params = decodedCallParameters(call);
  const ops: FlowOp[] = [
    {
      kind: 'transaction',
      status,
      // the interpreter's default sender is the contract itself
      source: call.sender ?? call.source ?? call.self,
      destination: call.self,
      amount: call.amount,
      entrypoint: call.entrypoint,
      ...(params ? { parameters: params } : {}),
      internal: false,
      content_index: 0,
      ...(status === 'applied' && ledger ? { ledger } : {}),
    },
  ];
  emitted.forEach(({ json, raw }, i) => {
    const base: FlowOp = {
      kind: raw.kind,
      status: 'emitted',
      source: raw.source,
      internal: true,
      content_index: 0,
      nonce: json.nonce,
    };
    // past the cap the builder keeps no edge: nothing to decode
    if (i + 1 >= FLOW_EDGE_CAP) return void ops.push(base);
    switch (raw.kind) {
      case 'transaction': {
        const op: FlowOp = { ...base, destination: raw.destination, amount: String(raw.amount) };
        if (json.kind === 'transaction' && json.parameters) {
          const { entrypoint, value } = json.parameters;
          op.entrypoint = entrypoint;
          const declared = raw.destination.startsWith('KT1')
            ? safe(() => chain.contract?.(raw.destination)?.parameter)
            : undefined;
          const p =
            (declared !== undefined
              ? safe(() => decodeParameters(toMicheline(declared), { entrypoint, value: toMicheline(value) }))
              : undefined) ??
            safe(() => toMiguel(toMicheline(tyToExpr(raw.parameter.t)), toMicheline(value)));
          if (p) op.parameters = p;
        }
        const tickets: FlowTicketMovement[] = [];
        ticketsIn(raw.parameter, raw.destination, tickets);
        if (tickets.length) op.tickets = tickets;
        ops.push(op);
        return;
      }
      case 'origination':
        ops.push({
          ...base,
          destination: raw.address,
          amount: String(raw.amount),
          ...(raw.delegate ? { delegate: raw.delegate } : {}),
        });
        return;
      case 'delegation':
        ops.push({ ...base, delegate: raw.delegate ?? null });
        return;
      case 'event': {
        const payload =
          json.kind === 'event' && json.payload !== undefined
            ? safe(() => toMiguel(toMicheline(json.type), toMicheline(json.payload)))
            : undefined;
        ops.push({
          ...base,
          tag: raw.tag ?? null,
          ...(payload ? { payload } : {}),
        });
        return;
      }
      default:
        ops.push(base);
    }
  });
  return buildFlow(ops);
}
