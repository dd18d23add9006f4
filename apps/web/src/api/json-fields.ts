/** Tolerant readers for fields of untrusted JSON objects: a wrong type gives the fallback, never a crash. */
import type { Json } from './parse';

export function str(obj: Json, key: string, fallback = ''): string {
  const value = obj[key];
  return typeof value === 'string' ? value : fallback;
}

export function optStr(obj: Json, key: string): string | null {
  const value = obj[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

export function num(obj: Json, key: string, fallback = 0): number {
  const value = obj[key];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return fallback;
}

export function strList(obj: Json, key: string): string[] {
  const value = obj[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
