/**
 * Michelson code diff (the reference's `POST /v1/diff`, bcd-api §4.2): two scripts are compared character
 * by character on their one-line rendering (diff-match-patch with semantic clean-up, so re-wrapping never
 * counts as a change), then the changes are laid onto each side's multi-line rendering (width 74) and the
 * lines of both sides are aligned row by row.
 *
 * Item types: 0 common text, -1 removed (left only), 1 added (right only), -2 / 2 leading indentation of a
 * left / right line. `removed` / `added` count the rows whose left / right line holds a change; `changed`
 * is always 0, as in the reference.
 */
import { cleanupSemantic, makeDiff } from '@sanity/diff-match-patch';
import type { Diff } from '@sanity/diff-match-patch';
import { formatMichelson, formatMichelsonInline } from './format';
import { MichelsonDataError } from './micheline-core';
import type { Micheline } from './micheline-core';

/** Line width of the diff's multi-line rendering. */
export const DIFF_LINE_SIZE = 74;
const MAX_TEXT = 2_000_000;

export interface CodeDiffItem {
  type: -2 | -1 | 0 | 1 | 2;
  chunk: string;
}

export interface CodeDiff {
  left: CodeDiffItem[][];
  right: CodeDiffItem[][];
  removed: number;
  added: number;
  changed: number;
}

/** Index of the first non-space character of `s` at or after `offset` (`s.length` when there is none). */
export function skipSpaces(s: string, offset = 0): number {
  let i = Math.max(0, Math.floor(offset));
  while (i < s.length && s[i] === ' ') i++;
  return Math.min(i, s.length);
}

const isSpace = (c: string): boolean => c === ' ' || c === '\n' || c === '\t' || c === '\r';

/** A line of one side: its items and the range of common characters it holds (for row alignment). */
interface SideLine {
  items: CodeDiffItem[];
  firstCommon: number;
  lastCommon: number;
  changed: boolean;
}

/**
 * Lays the diff onto one side's multi-line text. Every non-space character of the one-line text belongs to
 * one diff segment; the multi-line text has the same non-space characters in the same order, so each of
 * its characters takes the type of the segment its counterpart belongs to (spaces follow the character
 * before them). `common` numbers the common characters identically on both sides.
 */
function layOut(text: string, owners: { type: -1 | 0 | 1; common: number }[], side: -1 | 1): SideLine[] {
  const lines: SideLine[] = [];
  let k = 0;
  for (const raw of text.split('\n')) {
    const line: SideLine = { items: [], firstCommon: -1, lastCommon: -1, changed: false };
    const indent = skipSpaces(raw);
    if (indent > 0) line.items.push({ type: (side * 2) as -2 | 2, chunk: raw.slice(0, indent) });
    let type: -1 | 0 | 1 | undefined;
    let chunk = '';
    for (const c of raw.slice(indent)) {
      if (!isSpace(c)) {
        const owner = owners[k] ?? { type: side, common: -1 };
        k++;
        if (owner.type === 0) {
          if (line.firstCommon < 0) line.firstCommon = owner.common;
          line.lastCommon = owner.common;
        } else line.changed = true;
        if (type !== undefined && owner.type !== type) {
          line.items.push({ type, chunk });
          chunk = '';
        }
        type = owner.type;
      }
      chunk += c;
    }
    if (chunk) line.items.push({ type: type ?? 0, chunk });
    lines.push(line);
  }
  return lines;
}

/** Owner (diff type, common-character number) of each non-space character of one side's one-line text. */
function owners(diffs: Diff[], side: -1 | 1): { type: -1 | 0 | 1; common: number }[] {
  const out: { type: -1 | 0 | 1; common: number }[] = [];
  let common = 0;
  for (const [op, s] of diffs) {
    if (op !== 0 && op !== side) continue;
    for (const c of s) {
      if (isSpace(c)) continue;
      out.push(op === 0 ? { type: 0, common: common++ } : { type: side, common: -1 });
    }
  }
  return out;
}

function render(expr: Micheline, inline: boolean): string {
  const text = inline ? formatMichelsonInline(expr) : formatMichelson(expr, { lineSize: DIFF_LINE_SIZE });
  if (text.length > MAX_TEXT) throw new MichelsonDataError('script too large to diff');
  return text;
}

/** Code unit standing for the i-th distinct token (surrogates skipped). */
const tokenChar = (i: number): string =>
  String.fromCharCode(i < 0xd800 - 0x100 ? i + 0x100 : i + 0x100 + 0x800);
const MAX_TOKENS = 0xffff - 0x100 - 0x800;

/**
 * Character diff of two one-line texts, fast on large scripts: words and spaces are first diffed as tokens
 * (one code unit each), then each replaced stretch of moderate size is diffed again character by character.
 */
function textDiff(x: string, y: string): Diff[] {
  const ids = new Map<string, string>();
  const tokens: string[] = [];
  const encode = (t: string): string =>
    (t.match(/\s+|\S+/g) ?? [])
      .map((tok) => {
        let c = ids.get(tok);
        if (c === undefined) {
          c = tokenChar(tokens.length);
          ids.set(tok, c);
          tokens.push(tok);
        }
        return c;
      })
      .join('');
  const ex = encode(x);
  const ey = encode(y);
  if (tokens.length > MAX_TOKENS) return cleanupSemantic(makeDiff(x, y, { timeout: 2 }));
  const decode = (e: string): string =>
    Array.from(e, (c) => tokens[c.charCodeAt(0) - (c.charCodeAt(0) >= 0xe000 ? 0x900 : 0x100)]!).join('');
  const coarse = makeDiff(ex, ey, { timeout: 2 }).map(([op, e]): Diff => [op, decode(e)]);
  const out: Diff[] = [];
  for (let i = 0; i < coarse.length; i++) {
    const [op, t] = coarse[i]!;
    const next = coarse[i + 1];
    if (op === -1 && next?.[0] === 1 && t.length + next[1].length < 2_000) {
      out.push(...makeDiff(t, next[1], { timeout: 0.1 }));
      i++;
    } else out.push([op, t]);
  }
  return cleanupSemantic(out);
}

/** The diff of two scripts (or any Micheline), as the code-diff view shows it. */
export function diffMichelsonCode(left: Micheline, right: Micheline): CodeDiff {
  const diffs = textDiff(render(left, true), render(right, true));
  const a = layOut(render(left, false), owners(diffs, -1), -1);
  const b = layOut(render(right, false), owners(diffs, 1), 1);
  const res: CodeDiff = { left: [], right: [], removed: 0, added: 0, changed: 0 };
  const row = (l: SideLine | undefined, r: SideLine | undefined): void => {
    res.left.push(l?.items ?? []);
    res.right.push(r?.items ?? []);
    if (l?.changed) res.removed++;
    if (r?.changed) res.added++;
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const l = a[i];
    const r = b[j];
    if (!r || (l && l.firstCommon < 0)) {
      row(l, undefined);
      i++;
    } else if (!l || r.firstCommon < 0) {
      row(undefined, r);
      j++;
    } else if (l.firstCommon <= r.lastCommon && r.firstCommon <= l.lastCommon) {
      row(l, r);
      i++;
      j++;
    } else if (l.lastCommon < r.firstCommon) {
      row(l, undefined);
      i++;
    } else {
      row(undefined, r);
      j++;
    }
  }
  return res;
}
