import { ZERO_TIME } from '@michelscope/api-types';

/** RFC 3339 in UTC like the reference API: whole seconds without a fraction (`2024-05-01T12:00:00Z`). */
export function formatTime(value: Date | null | undefined): string {
  if (!value || Number.isNaN(value.getTime())) return ZERO_TIME;
  return value.toISOString().replace(/\.000Z$/, 'Z');
}
