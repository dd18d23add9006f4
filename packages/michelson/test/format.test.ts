import { describe, expect, it } from 'vitest';
import { formatMichelson, formatMichelsonInline, locateNode } from '../src/format';
import { parseMichelsonExpression, parseMichelsonScript } from '../src/micheline';
import type { Micheline } from '../src/micheline';
import { goldenCases, hasShared, readShared } from './golden';
import type { GoldenCase } from './golden';

describe.skipIf(!hasShared)('formatter.json goldens (inline mode)', () => {
  it.each(goldenCases<Micheline, string>('formatter.json').map((c) => [c.name, c] as const))(
    '%s',
    (_n, c) => {
      expect(formatMichelsonInline(c.input)).toBe(c.expected);
    },
  );
});

describe('formatMichelson', () => {
  it('parenthesises nested framed nodes but not sequence items or the root', () => {
    const v = parseMichelsonExpression('Pair (Pair 1 "a") { Elt 0x00 (Some (Left Unit)) }');
    expect(formatMichelsonInline(v)).toBe('Pair (Pair 1 "a") { Elt 0x00 (Some (Left Unit)) }');
    expect(formatMichelsonInline(parseMichelsonExpression('pair (nat %a) (int :b) nat'))).toBe(
      'pair (nat %a) (int :b) nat',
    );
    expect(formatMichelsonInline([])).toBe('{}');
  });

  it('breaks long sequences one item per line with growing indent', () => {
    const code = parseMichelsonScript(
      'parameter unit; storage (pair (big_map %ledger address nat) (nat %total)); code { CAR ; DROP ; PUSH nat 100000000000000000000 ; PUSH nat 200000000000000000000 ; ADD ; DROP ; UNIT ; NIL operation ; PAIR }',
    );
    const text = formatMichelson(code);
    expect(text.split('\n')[0]).toBe('parameter unit;');
    expect(text).toContain('code { CAR ;\n       DROP ;');
    for (const line of text.split('\n')) expect(line.length).toBeLessThan(100);
    // the text re-parses to the same Micheline
    expect(parseMichelsonScript(text)).toEqual(code);
  });

  it('lays out IF branches on separate lines when they do not fit', () => {
    const long = Array.from({ length: 12 }, () => 'DUP').join(' ; ');
    const code = parseMichelsonExpression(`{ IF { ${long} } { ${long} } }`);
    const text = formatMichelson(code);
    expect(text).toMatch(/^\{ IF\n {4}\{ DUP/);
    expect(formatMichelson(parseMichelsonExpression('{ IF { DUP } { DROP } }'))).toBe(
      '{ IF { DUP } { DROP } }',
    );
  });

  it('rejects non-Micheline input with a clear error', () => {
    expect(() => formatMichelson({ foo: 1 } as unknown as Micheline)).toThrow(/not a Micheline node/);
  });
});

describe.skipIf(!hasShared)('error-location.json goldens (multi-line layout)', () => {
  type In = { code_file: string; location: number };
  const data = hasShared
    ? (readShared('fixtures/bcd-golden/error-location.json') as { cases: GoldenCase<In>[] }).cases
    : [];
  it.each(data.map((c) => [c.name, c] as const))('%s', (_n, c) => {
    const code = readShared(`fixtures/${c.input.code_file}`) as Micheline;
    expect(locateNode(code, c.input.location)).toEqual(c.expected);
  });
});

describe('formatWithLocations', () => {
  it('gives the same text as formatMichelson and every node where locateNode puts it', async () => {
    const { formatWithLocations, formatMichelson: fmt, locateNode: locate } = await import('../src/format');
    const code = [
      { prim: 'parameter', args: [{ prim: 'nat' }] },
      { prim: 'storage', args: [{ prim: 'nat' }] },
      {
        prim: 'code',
        args: [
          [
            { prim: 'UNPAIR' },
            {
              prim: 'DIP',
              args: [[{ prim: 'PUSH', args: [{ prim: 'string' }, { string: 'héllo' }] }, { prim: 'DROP' }]],
            },
            { prim: 'ADD' },
            { prim: 'NIL', args: [{ prim: 'operation' }] },
            { prim: 'PAIR' },
          ],
        ],
      },
    ];
    const { text, spans } = formatWithLocations(code, { lineSize: 30 });
    expect(text).toBe(fmt(code, { lineSize: 30 }));
    const lines = text.split('\n');
    for (let loc = 0; loc < spans.length; loc++) {
      const byOne = locate(code, loc, { lineSize: 30 })!;
      expect(spans[loc]![0]).toBe(byOne.row);
      // columns are UTF-16 here, UTF-8 bytes there: equal on this ASCII line prefix
      if (!lines[byOne.row]!.includes('é'))
        expect(spans[loc]!.slice(1)).toEqual([byOne.col_start, byOne.col_end]);
    }
    expect(spans.length).toBe(18);
  });
});
