/** `GET /v1/health` (issue 34): whether each network's parts work, for a monitor and the web's indicator. */
import { Type, type Static } from '@sinclair/typebox';
import { PartFailure, Timestamp } from './common';

export const IndexerHealthState = Type.Union(
  [
    Type.Literal('starting'),
    Type.Literal('syncing'),
    Type.Literal('following'),
    Type.Literal('unreachable'),
    Type.Literal('failed'),
    Type.Literal('stopped'),
    Type.Literal('elsewhere'),
  ],
  {
    description:
      "`unreachable`: it cannot read the node; `failed`: it cannot read or write the database; `elsewhere`: it does not run in this server's process (`michelscope api`), so only the lag tells of it",
  },
);

export const HealthNetwork = Type.Object(
  {
    network: Type.String(),
    healthy: Type.Boolean({
      description: 'the node is reachable, the database readable and no part has failed',
    }),
    node: Type.Object({
      reachable: Type.Boolean({ description: "the node's head could be read (a few seconds' timeout)" }),
      level: Type.Optional(Type.Integer({ description: "the node's head level" })),
    }),
    indexer: Type.Object({
      state: IndexerHealthState,
      level: Type.Union([Type.Integer(), Type.Null()], {
        description: 'the indexed head; null: nothing indexed',
      }),
      lag: Type.Optional(
        Type.Integer({
          minimum: 0,
          description: 'levels behind the node; absent without the node or an index',
        }),
      ),
      synced: Type.Boolean({ description: 'as in `GET /v1/head`' }),
    }),
    failures: Type.Array(PartFailure, { description: 'the parts failing now (empty when none)' }),
    last_error: Type.Optional(
      Type.Object(
        {
          part: PartFailure.properties.part,
          message: Type.String(),
          at: Timestamp,
        },
        { description: 'the latest error of a part, kept after it recovered' },
      ),
    ),
  },
  { title: 'HealthNetwork' },
);
export type HealthNetwork = Static<typeof HealthNetwork>;

export const Health = Type.Object(
  {
    healthy: Type.Boolean({ description: 'every network is healthy (the status is 503 otherwise)' }),
    time: Timestamp,
    database: Type.Object({
      reachable: Type.Boolean(),
      error: Type.Optional(Type.String()),
    }),
    networks: Type.Array(HealthNetwork),
  },
  { title: 'Health' },
);
export type Health = Static<typeof Health>;
