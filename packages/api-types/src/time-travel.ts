/**
 * Shapes of the time-travel routes (Michelscope extension, not in the reference): the storage diff of a
 * contract between two levels and the big-map keys that changed between them.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NetworkName, Timestamp } from './common';
import { Miguel } from './explorer';

export const KeyChangeCounts = Type.Object(
  {
    added: Type.Integer({ description: 'keys absent (or removed) at `from`, present at `to`' }),
    changed: Type.Integer({ description: 'keys present at both ends with different values' }),
    removed: Type.Integer({ description: 'keys present at `from`, absent (removed) at `to`' }),
  },
  { title: 'KeyChangeCounts' },
);
export type KeyChangeCounts = Static<typeof KeyChangeCounts>;

export const StorageDiffEnd = Type.Object(
  {
    level: Type.Integer({ description: 'the level asked for: the state at the end of that block' }),
    storage_level: Type.Union([Type.Integer(), Type.Null()], {
      description: 'level of the last storage change at or before `level`; null before the origination',
    }),
  },
  { title: 'StorageDiffEnd' },
);
export type StorageDiffEnd = Static<typeof StorageDiffEnd>;

export const StorageDiff = Type.Object(
  {
    from: StorageDiffEnd,
    to: StorageDiffEnd,
    storage: Type.Union([Miguel, Type.Null()], {
      description:
        'Miguel diff tree of the storage value (big maps as pointers) as the operation storage diff gives it: ' +
        '`diff_type` create / update (with `from`) / delete on what differs; null when nothing differs',
    }),
    big_maps: Type.Array(
      Type.Object({
        ptr: Type.Integer(),
        name: Type.Union([Type.String(), Type.Null()], {
          description: 'field annotation in the storage type',
        }),
        counts: KeyChangeCounts,
      }),
      { description: "the contract's big maps with the number of keys that differ between the two ends" },
    ),
  },
  { title: 'StorageDiff' },
);
export type StorageDiff = Static<typeof StorageDiff>;

export const KeyChangeKind = Type.Union([
  Type.Literal('added'),
  Type.Literal('changed'),
  Type.Literal('removed'),
]);
export type KeyChangeKind = Static<typeof KeyChangeKind>;

export const BigMapKeyChanges = Type.Object(
  {
    ptr: Type.Integer(),
    counts: KeyChangeCounts,
    total: Type.Integer({ description: 'keys of the requested class (`change`), or of every class' }),
    items: Type.Array(
      Type.Object({
        key_hash: Type.String(),
        key: Type.Union([Miguel, Type.Null()]),
        key_string: Type.String(),
        change: KeyChangeKind,
        value: Type.Union([Miguel, Type.Null()], {
          description:
            'Miguel diff of the value: every node `create` (added), `delete` (removed), or the changed nodes ' +
            '`update` with the old value in `from`',
        }),
        level: Type.Integer({ description: 'level of the last write of the key at or before `to`' }),
        timestamp: Timestamp,
      }),
    ),
  },
  { title: 'BigMapKeyChanges' },
);
export type BigMapKeyChanges = Static<typeof BigMapKeyChanges>;

const DiffItems = Type.Array(
  Type.Array(Type.Object({ type: Type.Integer(), chunk: Type.String() }), {
    description: 'items of one line: type 0 common, -1 removed, 1 added, -2 / 2 leading indentation',
  }),
);

export const CodeDiffRow = Type.Object(
  {
    type: Type.Union([
      Type.Literal('same'),
      Type.Literal('changed'),
      Type.Literal('added'),
      Type.Literal('removed'),
    ]),
    left: Type.Union([Type.String(), Type.Null()]),
    right: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'CodeDiffRow' },
);
export type CodeDiffRow = Static<typeof CodeDiffRow>;

export const CodeDiffBlock = Type.Object(
  {
    key: Type.String({
      description:
        '`parameter`, `storage`, `code`, `code:before`, `code:after`, `entrypoint:<name>`, `view:<name>`',
    }),
    kind: Type.Union([
      Type.Literal('parameter'),
      Type.Literal('storage'),
      Type.Literal('code'),
      Type.Literal('entrypoint'),
      Type.Literal('view'),
    ]),
    name: Type.Union([Type.String(), Type.Null()], { description: 'entrypoint or view name' }),
    status: Type.Union([
      Type.Literal('same'),
      Type.Literal('changed'),
      Type.Literal('added'),
      Type.Literal('removed'),
    ]),
    left_lines: Type.Integer(),
    right_lines: Type.Integer(),
    rows: Type.Optional(
      Type.Array(CodeDiffRow, { description: 'side-by-side rows; absent for a same block' }),
    ),
    replaced: Type.Optional(
      Type.Boolean({ description: 'the line diff went past its edit bound: all removed, then all added' }),
    ),
  },
  { title: 'CodeDiffBlock' },
);
export type CodeDiffBlock = Static<typeof CodeDiffBlock>;

export const CodeDiffSchema = Type.Object(
  {
    left: DiffItems,
    right: DiffItems,
    removed: Type.Integer({ description: 'rows with a removed or changed left line' }),
    added: Type.Integer({ description: 'rows with an added or changed right line' }),
    changed: Type.Integer({ description: 'always 0, as in the reference' }),
    blocks: Type.Array(CodeDiffBlock),
    changed_entrypoints: Type.Array(Type.String(), {
      description: 'entrypoints whose branch or parameter type differs, or that one side lacks',
    }),
  },
  { title: 'CodeDiff' },
);
export type CodeDiffSchema = Static<typeof CodeDiffSchema>;

/** One side of a code comparison: a contract of a network, optionally under an older protocol. */
export const CodeLeg = Type.Object(
  {
    address: Type.String({ maxLength: 64 }),
    network: NetworkName,
    protocol: Type.Optional(Type.String({ maxLength: 64 })),
    level: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
  },
  { title: 'CodeLeg' },
);
export type CodeLeg = Static<typeof CodeLeg>;

/** The body of POST /v1/diff. */
export const CodeDiffRequest = Type.Object({ left: CodeLeg, right: CodeLeg }, { title: 'CodeDiffRequest' });
export type CodeDiffRequest = Static<typeof CodeDiffRequest>;

/** The answer of POST /v1/diff: the two legs as asked and their diff. */
export const CodeDiffResponse = Type.Object(
  { left: CodeLeg, right: CodeLeg, diff: CodeDiffSchema },
  { title: 'CodeDiffResponse' },
);
export type CodeDiffResponse = Static<typeof CodeDiffResponse>;
