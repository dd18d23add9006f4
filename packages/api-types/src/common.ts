import { Type, type Static } from '@sinclair/typebox';

/** RFC 3339 UTC time, e.g. `2024-05-01T12:00:00Z`; the zero time is `0001-01-01T00:00:00Z`. */
export const Timestamp = Type.String({
  description: 'RFC 3339 time in UTC',
  examples: ['2024-05-01T12:00:00Z'],
});
export type Timestamp = Static<typeof Timestamp>;

/** A network name as configured (e.g. `mainnet`, `ghostnet`, `sandboxnet`). */
export const NetworkName = Type.String({
  pattern: '^[a-z][a-z0-9_-]{0,31}$',
  description: 'Configured network name',
  examples: ['mainnet'],
});
export type NetworkName = Static<typeof NetworkName>;

/** How many levels behind the node's head the indexer still counts as synced (the indexer's sync gap). */
export const SYNC_GAP_LEVELS = 2;

/** A part of a network that failed (issue 34): it cannot do its work until the cause is gone. */
export const PartFailure = Type.Object(
  {
    part: Type.Union([Type.Literal('node'), Type.Literal('indexer'), Type.Literal('database')], {
      description:
        '`node`: the embedded chain cannot store its blocks (it bakes none meanwhile); `indexer`: the indexer cannot read or write the database (it retries with back-off and goes on from its stored head); `database`: the API cannot read it',
    }),
    message: Type.String({ description: 'the error, e.g. `ENOSPC: no space left on device, write`' }),
    since: Timestamp,
  },
  { title: 'PartFailure' },
);
export type PartFailure = Static<typeof PartFailure>;

/**
 * How the indexed head compares with the node's head (issue 32): `GET /v1/head` and the live `head` event.
 * `synced` is never claimed from the block's age alone: without the node's head it is false.
 */
export const HeadSyncFields = {
  synced: Type.Boolean({
    description:
      `the indexer is at most ${SYNC_GAP_LEVELS} levels behind the node's head, read from the node within the ` +
      "last few seconds; false when nothing is indexed yet or when the node's head cannot be read (then " +
      "`node_reachable` is false: there is no fallback to the head block's age, the rule of the reference " +
      'API, which said synced while the indexer was stuck or far behind)',
  }),
  node_reachable: Type.Optional(
    Type.Boolean({
      description:
        'Michelscope extension, always sent by this server (optional so that a reference Head still fits): ' +
        "false when the node's head could not be read (unreachable, timed out after a few seconds, or an " +
        'error answer); the other fields are then what the index knows',
    }),
  ),
  node_level: Type.Optional(
    Type.Integer({ description: "Michelscope extension: the node's head level; absent when not read" }),
  ),
  lag: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        'Michelscope extension: levels the indexer is behind the node (`node_level - level`, at least 0); ' +
        'absent when the node is not reachable or nothing is indexed yet',
    }),
  ),
  failures: Type.Optional(
    Type.Array(PartFailure, {
      description:
        'Michelscope extension (issue 34): the parts of this network that failed (a storage error, the database ' +
        'unreachable), known to the server that runs them; absent when none did. `GET /v1/health` says more.',
    }),
  ),
};
