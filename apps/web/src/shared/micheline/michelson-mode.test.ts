import { describe, expect, it } from 'vitest';
import { StringStream } from '@codemirror/language';
import { codeChunks, michelsonMode, renderingPercent, wordClass } from './michelson-mode';

/** Tokens of one or more lines as [text, class] pairs, whitespace dropped. */
function tokens(lines: string[]): [string, string | null][] {
  const state = michelsonMode.startState!(2);
  const out: [string, string | null][] = [];
  for (const line of lines) {
    const stream = new StringStream(line, 2, 2);
    while (!stream.eol()) {
      const style = michelsonMode.token(stream, state);
      const text = stream.current();
      if (text.trim() !== '') out.push([text, style]);
      stream.start = stream.pos;
    }
  }
  return out;
}

describe('michelson stream mode', () => {
  it('classifies the reference word groups', () => {
    expect(wordClass('parameter')).toBe('atom');
    expect(wordClass('IF_LEFT')).toBe('keyword');
    expect(wordClass('Pair')).toBe('keyword');
    expect(wordClass('SENDER')).toBe('atom');
    expect(wordClass('big_map')).toBe('typeName');
    expect(wordClass('mutez')).toBe('variableName');
    expect(wordClass('CADDR')).toBe('macroName');
    expect(wordClass('DIIP')).toBe('macroName');
    expect(wordClass('PAPAIR')).toBe('macroName');
    expect(wordClass('IFCMPEQ')).toBe('macroName');
    expect(wordClass('banana')).toBeNull();
  });

  it('tokenises literals, annotations and comments, across lines too', () => {
    expect(
      tokens(['PUSH (nat %amount) 0x0A # pay', 'FAILWITH "not \\"owner\\""; /* a', 'b */ UNIT']),
    ).toEqual([
      ['PUSH', 'keyword'],
      ['(', 'punctuation'],
      ['nat', 'variableName'],
      ['%amount', 'comment'],
      [')', 'punctuation'],
      ['0x0A', 'string'],
      ['# pay', 'comment'],
      ['FAILWITH', 'keyword'],
      ['"not \\"owner\\""', 'string'],
      [';', 'punctuation'],
      ['/* a', 'comment'],
      ['b */', 'comment'],
      ['UNIT', 'keyword'],
    ]);
    expect(tokens(['PUSH int -42'])).toContainEqual(['-42', 'number']);
  });
});

describe('code chunks', () => {
  it('cuts at line ends, never loses a character and respects the size', () => {
    const code = Array.from({ length: 500 }, (_, i) => `DROP ${i};`).join('\n');
    const chunks = codeChunks(code, 100);
    expect(chunks.join('')).toBe(code);
    expect(chunks.every((c) => c.length <= 100)).toBe(true);
    expect(chunks.slice(0, -1).every((c) => c.endsWith('\n'))).toBe(true);
  });

  it('splits a single long line by size', () => {
    expect(codeChunks('x'.repeat(250), 100).map((c) => c.length)).toEqual([100, 100, 50]);
    expect(codeChunks('', 100)).toEqual([]);
  });

  it('reports progress in whole percents', () => {
    expect(renderingPercent(1, 3)).toBe(33);
    expect(renderingPercent(3, 3)).toBe(100);
  });
});
