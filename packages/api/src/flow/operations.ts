/**
 * The flow graph of API operations (a node simulation's answer: the simulated call and the internal operations
 * the node reported), with aliases, contract tags and token metadata from the index. A simulation has no
 * ledger big-map deltas per operation nor ticket updates: its token movements stay unchecked.
 */
import type { FlowGraph, Operation } from '@michelscope/api-types';
import type { Db } from '@michelscope/db/read';
import { buildFlow, enrichFlow, type FlowOp } from './build';
import { flowLookup } from './opg';

export function operationsFlowOps(ops: readonly Operation[]): FlowOp[] {
  let nonce = 0;
  return ops.map((o) => ({
    kind: o.kind,
    status: o.status,
    source: o.source ?? null,
    destination: o.destination ?? null,
    delegate: o.delegate ?? null,
    amount: o.amount ?? 0,
    entrypoint: o.entrypoint ?? null,
    ...(o.parameters ? { parameters: o.parameters } : {}),
    tag: o.tag ?? null,
    ...(o.payload ? { payload: o.payload } : {}),
    internal: o.internal,
    content_index: o.content_index,
    ...(o.internal ? { nonce: nonce++ } : { counter: o.counter ?? null, fee: o.fee ?? null }),
    burned: (o.burned ?? 0) + (o.allocated_destination_contract_burned ?? 0),
  }));
}

/** The flow graph of a simulation's operations, enriched from the index. */
export async function operationsFlow(db: Db, network: string, ops: readonly Operation[]): Promise<FlowGraph> {
  const graph = buildFlow(operationsFlowOps(ops));
  return enrichFlow(graph, await flowLookup(db, network, graph));
}
