/**
 * The operation flow graph (issue 37): an operation group (or a simulation) as nodes (the accounts and
 * contracts involved, with their summed balance changes) and edges (each operation in execution order, with
 * the tez, token and ticket movements and the events it carries). `GET /v1/opg/{network}/{hash}/flow`, the
 * `flow` field of a what-if answer and of a debugger answer (the recorded call and the operations it emitted).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Miguel } from './explorer';

const Mutez = (description: string) => Type.String({ pattern: '^-?[0-9]+$', description });
const Status = Type.Union(
  [
    Type.Literal('applied'),
    Type.Literal('failed'),
    Type.Literal('backtracked'),
    Type.Literal('skipped'),
    Type.Literal('emitted'),
  ],
  {
    description:
      'as in the receipt; a failed, backtracked or skipped edge keeps its movements but they are left out of the ' +
      "node sums. `emitted` (a debugger recording's flow only): an internal operation the recorded call emitted, " +
      'not run by the debugger (its outcome is unknown); its movements are what it would do once applied and ' +
      'are counted in the node sums',
  },
);

export const FlowTokenRef = Type.Object(
  {
    contract: Type.String({ description: 'the token contract' }),
    token_id: Type.String({ description: 'decimal; "0" for an FA1.2 token' }),
    standard: Type.Union([Type.Literal('fa1.2'), Type.Literal('fa2')]),
    symbol: Type.Optional(Type.String({ description: 'from the token metadata, when the API has it' })),
    decimals: Type.Optional(Type.Integer({ description: 'from the token metadata, when the API has it' })),
    name: Type.Optional(Type.String({ description: 'from the token metadata, when the API has it' })),
  },
  { title: 'FlowTokenRef' },
);
export type FlowTokenRef = Static<typeof FlowTokenRef>;

export const FlowTokenMovement = Type.Object(
  {
    token: FlowTokenRef,
    from: Type.String(),
    to: Type.String(),
    amount: Type.String({ pattern: '^[0-9]+$', description: 'raw token units (apply `decimals` to show)' }),
    checked: Type.Boolean({
      description:
        "true when the token contract's ledger big-map diffs of this operation show exactly these balance changes; " +
        'false when they differ, are missing or the ledger was not found (a movement read from the parameter only)',
    }),
  },
  { title: 'FlowTokenMovement' },
);
export type FlowTokenMovement = Static<typeof FlowTokenMovement>;

export const FlowTicketMovement = Type.Object(
  {
    ticketer: Type.String(),
    content_type: Type.Optional(Type.Unknown({ description: 'the content type (Micheline)' })),
    content: Type.Optional(Miguel),
    account: Type.String({ description: 'whose ticket balance changed' }),
    amount: Mutez('the signed change of that balance'),
  },
  { title: 'FlowTicketMovement' },
);
export type FlowTicketMovement = Static<typeof FlowTicketMovement>;

export const FlowEvent = Type.Object(
  {
    tag: Type.Optional(Type.String()),
    payload: Type.Optional(Type.Array(Miguel, { description: 'decoded when the API can' })),
  },
  { title: 'FlowEvent' },
);
export type FlowEvent = Static<typeof FlowEvent>;

export const FlowEdge = Type.Object(
  {
    index: Type.Integer({ description: 'execution order, from 0' }),
    kind: Type.String({ description: 'transaction, origination, delegation, event, reveal, …' }),
    from: Type.String({ description: 'the source (the emitting contract for an internal operation)' }),
    to: Type.Optional(
      Type.String({
        description:
          'the destination, the originated contract or the new delegate; absent for an event and a delegate removal',
      }),
    ),
    internal: Type.Boolean(),
    content_index: Type.Integer({ description: 'the top-level content this edge belongs to' }),
    counter: Type.Optional(Type.Integer({ description: 'of the top-level content' })),
    nonce: Type.Optional(Type.Integer({ description: 'of an internal operation' })),
    operation_id: Type.Optional(Type.Integer({ description: 'row id, for /operation/{network}/{id}/…' })),
    status: Status,
    entrypoint: Type.Optional(Type.String()),
    parameters: Type.Optional(
      Type.Array(Miguel, { description: "the parameter decoded with the destination's type" }),
    ),
    amount: Mutez('tez moved, mutez (the balance given to an origination)'),
    tokens: Type.Array(FlowTokenMovement, {
      description: 'FA1.2 `transfer(from,to,value)` and FA2 `transfer` parameters read as movements',
    }),
    tickets: Type.Array(FlowTicketMovement),
    event: Type.Optional(FlowEvent),
  },
  { title: 'FlowEdge' },
);
export type FlowEdge = Static<typeof FlowEdge>;

export const FlowTokenBalance = Type.Object(
  { token: FlowTokenRef, change: Mutez('signed raw token units') },
  { title: 'FlowTokenBalance' },
);
export const FlowTicketBalance = Type.Object(
  {
    ticketer: Type.String(),
    content_type: Type.Optional(Type.Unknown()),
    content: Type.Optional(Miguel),
    change: Mutez('signed'),
  },
  { title: 'FlowTicketBalance' },
);

export const FlowNode = Type.Object(
  {
    address: Type.String(),
    kind: Type.Union([Type.Literal('implicit'), Type.Literal('contract'), Type.Literal('smart_rollup')]),
    alias: Type.Optional(Type.String({ description: "the contract's TZIP-16 name, when the API knows it" })),
    tags: Type.Optional(
      Type.Array(Type.String(), { description: "the contract's tags, as /contract gives them" }),
    ),
    tez: Mutez(
      'signed mutez: the tez the applied (and emitted) edges moved in and out (fees and burns apart)',
    ),
    fees: Type.Optional(Mutez('fees paid, mutez (a failed content pays its fee too)')),
    burned: Type.Optional(Mutez('storage burned, mutez (applied contents only)')),
    tokens: Type.Array(FlowTokenBalance, {
      description: 'summed over the applied (and emitted) edges; zero sums left out',
    }),
    tickets: Type.Array(FlowTicketBalance, {
      description: 'summed over the applied (and emitted) edges; zero sums left out',
    }),
  },
  { title: 'FlowNode' },
);
export type FlowNode = Static<typeof FlowNode>;

export const FlowGraph = Type.Object(
  {
    nodes: Type.Array(FlowNode, { description: 'in order of first appearance in the edges' }),
    edges: Type.Array(FlowEdge, {
      description: 'in execution order: each top-level content, then the internal operations it ran',
    }),
    truncated: Type.Boolean({
      description:
        'the group had more operations than the edge cap: the edges and sums cover the first ones only',
    }),
    total_operations: Type.Integer({
      description: 'operations in the group (edges before the cap; an indexed group is read up to 2,000)',
    }),
    status: Type.Union([Type.Literal('applied'), Type.Literal('failed')], {
      description:
        'failed when any edge is failed, backtracked or skipped (an emitted edge is not a failure)',
    }),
  },
  { title: 'FlowGraph' },
);
export type FlowGraph = Static<typeof FlowGraph>;
