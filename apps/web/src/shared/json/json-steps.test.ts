import { describe, expect, it } from 'vitest';
import { jsonSteps, prettyJson } from './json-steps';

describe('jsonSteps', () => {
  it('keeps a small document in one step', () => {
    expect(jsonSteps({ a: 1 })).toEqual(['{\n  "a": 1\n}']);
  });

  it('cuts a large array between items and the steps add up to the whole text', () => {
    const value = Array.from({ length: 400 }, (_, i) => ({
      prim: 'PUSH',
      args: [{ prim: 'nat' }, { int: String(i) }],
    }));
    const steps = jsonSteps(value);
    expect(steps.length).toBeGreaterThan(2);
    expect(steps.join('')).toBe(prettyJson(value));
    for (const step of steps.slice(0, -1)) expect(step.length).toBeLessThan(10_000 + 200);
  });

  it('cuts a large object between keys', () => {
    const value = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`key_${i}`, 'x'.repeat(100)]));
    const steps = jsonSteps(value);
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.join('')).toBe(prettyJson(value));
    expect(JSON.parse(steps.join(''))).toEqual(value);
  });

  it('survives values JSON cannot show', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(jsonSteps(cyclic)).toEqual(['"(this value cannot be shown as JSON)"']);
  });
});
