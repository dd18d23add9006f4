/**
 * The flow graph of API operations (a node simulation's answer: the simulated call and the internal operations
 * the node reported), with aliases, contract tags and token metadata from the index.
 */
import type { FlowGraph, Operation } from '@michelscope/api-types';
import type { ApiContext } from '../context';
import type { NodeBlock } from '../routes/simulate-node-state';
import { buildFlow, enrichFlow, type FlowOp } from './build';
import { flowLookup } from './opg';
import { addReceiptFacts } from './simulation';

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

/**
 * The flow graph of a simulation's operations, enriched from the index; with the node's receipt, its ticket
 * movements and the ledger changes that check the token movements.
 */
export async function operationsFlow(
  ctx: ApiContext,
  network: string,
  ops: readonly Operation[],
  receipt?: { res: { contents?: unknown[] }; block: NodeBlock },
): Promise<FlowGraph> {
  const flowOps = operationsFlowOps(ops);
  if (receipt) await addReceiptFacts(ctx, network, flowOps, receipt.res, receipt.block);
  const graph = buildFlow(flowOps);
  return enrichFlow(graph, await flowLookup(ctx.readDb, network, graph));
}
