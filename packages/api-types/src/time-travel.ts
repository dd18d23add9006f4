/**
 * Shapes of the time-travel routes (Michelscope extension, not in the reference): the storage diff of a
 * contract between two levels and the big-map keys that changed between them.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common';
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
