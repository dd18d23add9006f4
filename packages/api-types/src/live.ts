/**
 * Live updates (Michelscope extension, issue 21): `GET /v1/live/{network}` is a server-sent-events stream.
 * These are the `data` of its events, one schema per event type (the SSE `event:` field).
 */
import { Type, type Static } from '@sinclair/typebox';
import { HeadSyncFields, Timestamp } from './common';

/** Limits of one live connection. */
export const LIVE_MAX_SUBSCRIPTIONS = 50;
/** Most levels a resuming connection is replayed; further behind it gets `reset`. */
export const LIVE_MAX_REPLAY_LEVELS = 100;

/** `head`: a new indexed head (the last event of a level; its SSE id is the level), with its sync state. */
export const LiveHeadEvent = Type.Object(
  {
    network: Type.String(),
    level: Type.Integer(),
    hash: Type.String(),
    time: Timestamp,
    protocol: Type.String(),
    ...HeadSyncFields,
  },
  {
    title: 'LiveHeadEvent',
    description:
      'Also sent again for the same level when only the sync fields changed (checked every heartbeat): the ' +
      'indexer stalled while the node went on, or the node became unreachable or reachable again.',
  },
);
export type LiveHeadEvent = Static<typeof LiveHeadEvent>;

/** `operations`: operation groups of a subscribed address were indexed at `level`. */
export const LiveOperationsEvent = Type.Object(
  {
    network: Type.String(),
    address: Type.String(),
    level: Type.Integer(),
    hashes: Type.Array(Type.String(), { description: 'the groups, in block order (at most 100)' }),
  },
  { title: 'LiveOperationsEvent' },
);
export type LiveOperationsEvent = Static<typeof LiveOperationsEvent>;

/** `balance`: the balance of a subscribed address at `level` (after an operation touched it). */
export const LiveBalanceEvent = Type.Object(
  {
    network: Type.String(),
    address: Type.String(),
    level: Type.Integer(),
    balance: Type.Integer({ description: 'mutez, from the node at that level' }),
  },
  { title: 'LiveBalanceEvent' },
);
export type LiveBalanceEvent = Static<typeof LiveBalanceEvent>;

/** `big_map`: keys of a subscribed big map were updated (or removed) at `level`. */
export const LiveBigMapEvent = Type.Object(
  {
    network: Type.String(),
    ptr: Type.Integer(),
    level: Type.Integer(),
    count: Type.Integer({ description: 'key updates at that level' }),
  },
  { title: 'LiveBigMapEvent' },
);
export type LiveBigMapEvent = Static<typeof LiveBigMapEvent>;

export const LiveOperationStatus = Type.Union(
  [
    Type.Literal('pending'),
    Type.Literal('applied'),
    Type.Literal('failed'),
    Type.Literal('backtracked'),
    Type.Literal('skipped'),
  ],
  { description: 'pending: in the node mempool; otherwise the indexed group status' },
);
export type LiveOperationStatus = Static<typeof LiveOperationStatus>;

/** `operation`: status of a subscribed operation hash: pending (in the mempool), then as included. */
export const LiveOperationEvent = Type.Object(
  {
    network: Type.String(),
    hash: Type.String(),
    status: LiveOperationStatus,
    level: Type.Optional(Type.Integer({ description: 'level of inclusion; absent while pending' })),
  },
  { title: 'LiveOperationEvent' },
);
export type LiveOperationEvent = Static<typeof LiveOperationEvent>;

/** `reset`: the page must refetch what it shows (too far behind to replay, or the chain was reorganised). */
export const LiveResetEvent = Type.Object(
  {
    network: Type.String(),
    level: Type.Integer({ description: 'the indexed head now (-1: nothing indexed)' }),
    reason: Type.Union([Type.Literal('behind'), Type.Literal('reorg')]),
  },
  { title: 'LiveResetEvent' },
);
export type LiveResetEvent = Static<typeof LiveResetEvent>;

/** Every event's data, by SSE event type. */
export interface LiveEvents {
  head: LiveHeadEvent;
  operations: LiveOperationsEvent;
  balance: LiveBalanceEvent;
  big_map: LiveBigMapEvent;
  operation: LiveOperationEvent;
  reset: LiveResetEvent;
}
export type LiveEventType = keyof LiveEvents;

export const LiveQuery = Type.Object({
  address: Type.Optional(
    Type.Array(Type.String({ maxLength: 40 }), {
      maxItems: LIVE_MAX_SUBSCRIPTIONS,
      description:
        'addresses (tz…, KT1…, sr1…): `operations` and `balance` events; repeat the parameter for more',
    }),
  ),
  big_map: Type.Optional(
    Type.Array(Type.Integer({ minimum: 0, maximum: 2147483647 }), {
      maxItems: LIVE_MAX_SUBSCRIPTIONS,
      description: 'big-map pointers: `big_map` events',
    }),
  ),
  operation: Type.Optional(
    Type.Array(Type.String({ maxLength: 60 }), {
      maxItems: LIVE_MAX_SUBSCRIPTIONS,
      description: 'operation group hashes (o…): `operation` events, pending → included',
    }),
  ),
  since_level: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 2147483647,
      description:
        'replay what happened after this level (as the `Last-Event-ID` header, which EventSource sends on reconnection)',
    }),
  ),
});
export type LiveQuery = Static<typeof LiveQuery>;
