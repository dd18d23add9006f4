import { describe, expect, it } from 'vitest';
import { jsonForScript, plainJsonForScript } from '../src/page-data';

describe('data carried inside a page', () => {
  it('escapes what could end its script element, and reads back unchanged', () => {
    const value = { note: '</script><script>alert(1)</script>', amp: 'a & b', sep: '\u2028\u2029' };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
    expect(plainJsonForScript(value, 1_000)).toBe(json);
  });

  it('leaves out data JSON would not give back unchanged, or too long', () => {
    expect(plainJsonForScript({ at: new Date(0) }, 1_000)).toBeUndefined();
    expect(plainJsonForScript({ keys: new Map([['a', 1]]) }, 1_000)).toBeUndefined();
    expect(plainJsonForScript({ big: 10n }, 1_000)).toBeUndefined();
    expect(plainJsonForScript({ n: Number.NaN }, 1_000)).toBeUndefined();
    expect(plainJsonForScript([new (class Token {})()], 1_000)).toBeUndefined();
    expect(plainJsonForScript({ s: 'x'.repeat(100) }, 50)).toBeUndefined();
    expect(plainJsonForScript({ list: [1, 'two', null, { three: true }] }, 1_000)).toBe(
      '{"list":[1,"two",null,{"three":true}]}',
    );
  });
});
