import { describe, expect, it } from 'vitest';
import { StreamLanguage } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { classHighlighter, highlightTree } from '@lezer/highlight';
import { michelsonMode } from './michelson-mode';
import { chunkTokenizer, lineChunks, markTokens, startState, tokenizeLine } from './michelson-tokens';

const SAMPLE = [
  'parameter (or (pair %transfer (address :from) (nat %value)) (unit %default)) ;',
  'storage (big_map address nat) ; # a comment',
  'code { UNPAIR ; DIIP { CAR } ; PUSH string "two',
  'lines \\" and more" ; PUSH bytes 0x0aFf ; PUSH int -12 ;',
  '       /* a block',
  '          comment */ IF_SOME { FAILWITH } { SELF_ADDRESS ; CMPEQ ; Pair 1 True } ;',
  '',
  '       LAMBDA_REC nat nat {} ; SAPLING_EMPTY_STATE 8 ; view "v" unit unit { CDR } ; @x FOO }',
].join('\n');

/**
 * Each character's class as CodeMirror's own parser of the same mode highlights it (tok-… names);
 * punctuation, which the editor's style leaves uncoloured, as plain text.
 */
function codemirrorClasses(code: string): (string | null)[] {
  const language = StreamLanguage.define(michelsonMode);
  const state = EditorState.create({ doc: code, extensions: [language] });
  const tree = language.parser.parse(state.doc.toString());
  const out: (string | null)[] = Array.from({ length: code.length }, () => null);
  highlightTree(tree, classHighlighter, (from, to, cls) => {
    for (let i = from; i < to; i++) out[i] = cls === 'tok-punctuation' ? null : cls;
  });
  return out;
}

/** The same from the light view's tokenizer, named like classHighlighter does. */
const TOK: Record<string, string> = {
  atom: 'tok-atom',
  keyword: 'tok-keyword',
  typeName: 'tok-typeName',
  variableName: 'tok-variableName',
  macroName: 'tok-macroName',
  string: 'tok-string',
  number: 'tok-number',
  comment: 'tok-comment',
};
function lightClasses(code: string): (string | null)[] {
  const out: (string | null)[] = [];
  const state = startState();
  code.split('\n').forEach((line, i) => {
    if (i > 0) out.push(null);
    for (const t of tokenizeLine(line, state)) {
      for (let k = 0; k < t.text.length; k++) out.push(t.cls ? TOK[t.cls]! : null);
    }
  });
  return out;
}

describe('michelson tokens (light view)', () => {
  it('gives every character the class CodeMirror gives it with the same mode', () => {
    const cm = codemirrorClasses(SAMPLE);
    const light = lightClasses(SAMPLE);
    expect(light).toHaveLength(SAMPLE.length);
    // spot checks that the sample exercises each class
    for (const cls of Object.values(TOK)) expect(cm).toContain(cls);
    const diff = light.flatMap((c, i) =>
      c === cm[i] ? [] : [`${i} ${JSON.stringify(SAMPLE[i])} ${c} ${cm[i]}`],
    );
    expect(diff).toEqual([]);
  });

  it('keeps every text character, in order', () => {
    const state = startState();
    for (const line of SAMPLE.split('\n')) {
      expect(
        tokenizeLine(line, state)
          .map((t) => t.text)
          .join(''),
      ).toBe(line);
    }
  });

  it('cuts a marked span out of the tokens', () => {
    const tokens = tokenizeLine('  { PUSH string "x" ; FAILWITH }', startState());
    const marked = markTokens(tokens, 22, 30);
    expect(marked.filter((t) => t.marked).map((t) => t.text)).toEqual(['FAILWITH']);
    expect(marked.map((t) => t.text).join('')).toBe('  { PUSH string "x" ; FAILWITH }');
    expect(marked.find((t) => t.marked)?.cls).toBe('keyword');
  });

  it('groups whole lines in chunks of about the given size, and continues a comment across chunks', () => {
    const code = ['UNIT ; /* open', 'still comment', 'closed */ DROP', 'NIL nat'].join('\n');
    const chunks = lineChunks(code, 16);
    expect(chunks).toEqual([['UNIT ; /* open'], ['still comment'], ['closed */ DROP'], ['NIL nat']]);
    const tokens = chunkTokenizer(chunks);
    expect(tokens(2)[0]!.map((t) => [t.text, t.cls])).toEqual([
      ['closed */', 'comment'],
      [' ', null],
      ['DROP', 'keyword'],
    ]);
    expect(tokens(1)[0]).toEqual([{ text: 'still comment', cls: 'comment' }]);
    expect(lineChunks('', 10)).toEqual([['']]);
    expect(lineChunks('a\n', 10)).toEqual([['a', '']]);
  });
});
