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
