/**
 * Michelson highlighting without CodeMirror: runs the CodeMirror stream mode of ./michelson-mode (the same
 * token rules, so the light view and the editor colour the same words) over each line through a minimal
 * StringStream, and returns the tokens. Used by ./MichelsonCode to show code before CodeMirror is loaded.
 */
import type { StringStream } from '@codemirror/language';
import { michelsonMode, type State } from './michelson-mode';

/** Code render chunk (workspace spec §9). */
export const CODE_CHUNK = 35_000;
/** The light view highlights its text in pieces of about this many characters, those near the screen. */
export const LIGHT_CHUNK = 5_000;

/** A span to mark red (an error location). */
export interface CodeMark {
  /** 1-based line in the shown text. */
  line: number;
  /** 0-based columns, end exclusive (as /error_location returns them). */
  startCol: number;
  endCol: number;
}

/** A run of text and its token class (./michelson-mode's names; null: plain text). */
export interface Token {
  text: string;
  cls: string | null;
}

/** The stream mode's state between lines (inside a block comment or a string). */
export type TokenState = State;

export const startState = (): TokenState => michelsonMode.startState!(2);

/** The subset of CodeMirror's StringStream that ./michelson-mode uses, with the same semantics. */
class LineStream {
  pos = 0;
  start = 0;
  constructor(readonly string: string) {}
  eol() {
    return this.pos >= this.string.length;
  }
  sol() {
    return this.pos === 0;
  }
  peek() {
    return this.string.charAt(this.pos) || undefined;
  }
  next() {
    return this.pos < this.string.length ? this.string.charAt(this.pos++) : undefined;
  }
  eat(match: string | RegExp | ((ch: string) => boolean)) {
    const ch = this.string.charAt(this.pos);
    const ok =
      typeof match === 'string'
        ? ch === match
        : ch !== '' && (match instanceof RegExp ? match.test(ch) : match(ch));
    if (!ok) return undefined;
    this.pos++;
    return ch;
  }
  eatWhile(match: string | RegExp | ((ch: string) => boolean)) {
    const start = this.pos;
    while (this.eat(match) !== undefined);
    return this.pos > start;
  }
  eatSpace() {
    const start = this.pos;
    while (/[\s\u00a0]/.test(this.string.charAt(this.pos))) this.pos++;
    return this.pos > start;
  }
  skipToEnd() {
    this.pos = this.string.length;
  }
  skipTo(ch: string) {
    const found = this.string.indexOf(ch, this.pos);
    if (found < 0) return undefined;
    this.pos = found;
    return true;
  }
  backUp(n: number) {
    this.pos -= n;
  }
  column() {
    return this.start;
  }
  indentation() {
    return /^\s*/.exec(this.string)![0].length;
  }
  match(pattern: string | RegExp, consume = true, caseInsensitive = false) {
    if (typeof pattern === 'string') {
      const cased = (s: string) => (caseInsensitive ? s.toLowerCase() : s);
      const substr = this.string.substr(this.pos, pattern.length);
      if (cased(substr) !== cased(pattern)) return null;
      if (consume) this.pos += pattern.length;
      return true;
    }
    const match = this.string.slice(this.pos).match(pattern);
    if (match && match.index! > 0) return null;
    if (match && consume) this.pos += match[0].length;
    return match;
  }
  current() {
    return this.string.slice(this.start, this.pos);
  }
}

/** The tokens of one line; `state` is updated for the next line. Adjacent runs of a class are merged. */
export function tokenizeLine(line: string, state: TokenState): Token[] {
  const out: Token[] = [];
  const stream = new LineStream(line);
  while (!stream.eol()) {
    stream.start = stream.pos;
    let cls = michelsonMode.token(stream as unknown as StringStream, state) ?? null;
    if (stream.pos <= stream.start) stream.pos = stream.start + 1; // a mode that does not advance
    if (cls === 'punctuation') cls = null;
    const text = line.slice(stream.start, stream.pos);
    const last = out[out.length - 1];
    if (last && last.cls === cls) last.text += text;
    else out.push({ text, cls });
  }
  return out;
}

/**
 * Cuts a line's tokens at columns [from, to) (0-based, end exclusive), the part inside flagged `marked`:
 * the span an error location points at.
 */
export function markTokens(tokens: Token[], from: number, to: number): (Token & { marked: boolean })[] {
  const out: (Token & { marked: boolean })[] = [];
  let col = 0;
  for (const t of tokens) {
    const end = col + t.text.length;
    const cuts = [col, Math.min(end, Math.max(col, from)), Math.min(end, Math.max(col, to)), end];
    for (let i = 0; i < 3; i++) {
      const [a, b] = [cuts[i]!, cuts[i + 1]!];
      if (b > a) out.push({ text: t.text.slice(a - col, b - col), cls: t.cls, marked: i === 1 });
    }
    col = end;
  }
  return out;
}

/** The lines of `code` in consecutive groups of about `size` characters (whole lines; at least one each). */
export function lineChunks(code: string, size: number): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const line of code.split('\n')) {
    if (current.length > 0 && chars + line.length + 1 > size) {
      chunks.push(current);
      current = [];
      chars = 0;
    }
    current.push(line);
    chars += line.length + 1;
  }
  chunks.push(current);
  return chunks;
}

/**
 * The tokens of each chunk of lines, computed in order on first demand (a chunk's first line continues the
 * previous chunk's state: a string or block comment may span lines).
 */
export function chunkTokenizer(chunks: readonly string[][]): (index: number) => Token[][] {
  const done: Token[][][] = [];
  const state = startState();
  return (index) => {
    for (let i = done.length; i <= index && i < chunks.length; i++) {
      done.push(chunks[i]!.map((line) => tokenizeLine(line, state)));
    }
    return done[index] ?? [];
  };
}
