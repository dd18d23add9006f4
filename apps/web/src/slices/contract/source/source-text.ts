/**
 * Pure helpers of the Source tab and the verify form (issue 38): the verified line's words, Archetype's
 * token classes for the light highlighter (text only: a file's content is never HTML) and a bounded line
 * diff of the deployed and compiled Michelson for the code diff's block view.
 */
import type { CodeDiffBlock, CodeDiffRow, Verification } from '@michelscope/api-types';

const COMPILER_NAMES: Record<string, string> = { archetype: 'Archetype', smartpy: 'SmartPy', ligo: 'LIGO' };

/** A compiler's display name (its id when unknown). */
export const compilerName = (id: string): string => COMPILER_NAMES[id] ?? id;

/** `a=1, b` for options, '' when none. */
export function optionsText(options: Verification['options'] | undefined): string {
  return Object.entries(options ?? {})
    .map(([k, v]) => (v === true ? k : `${k}=${String(v)}`))
    .join(', ');
}

/** The date of a verification, as YYYY-MM-DD HH:MM UTC (the ISO text when it does not parse). */
export function verifiedDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "Verified: compiled with Archetype 1.5.3 (options …) on <date>; the compiled Michelson equals the deployed code." */
export function verifiedSentence(v: Pick<Verification, 'compiler' | 'version' | 'options' | 'created_at'>) {
  const options = optionsText(v.options);
  return (
    `Verified: compiled with ${compilerName(v.compiler)} ${v.version}` +
    `${options ? ` (options ${options})` : ''} on ${verifiedDate(v.created_at)}; ` +
    'the compiled Michelson equals the deployed code.'
  );
}

export type TokenKind = 'keyword' | 'string' | 'comment' | 'number' | 'plain';
export interface Token {
  text: string;
  kind: TokenKind;
}

export const ARCHETYPE_KEYWORDS = new Set(
  (
    'archetype entry variable constant effect called by require fail if then else do done for in iter ' +
    'transfer to view asset record enum states return var match with end'
  ).split(' '),
);

/**
 * The tokens of each line of a source file: keywords, strings, numbers and comments (`//` to the end of the
 * line, `(* … *)` across lines). Whatever the file holds comes back as text pieces.
 */
export function tokenizeLines(
  content: string,
  keywords: ReadonlySet<string> = ARCHETYPE_KEYWORDS,
): Token[][] {
  const lines = content.split(/\r?\n/);
  let inBlock = false;
  return lines.map((line) => {
    const out: Token[] = [];
    const push = (text: string, kind: TokenKind) => {
      if (text === '') return;
      const last = out[out.length - 1];
      if (last && last.kind === kind) last.text += text;
      else out.push({ text, kind });
    };
    let i = 0;
    while (i < line.length) {
      if (inBlock) {
        const end = line.indexOf('*)', i);
        if (end < 0) {
          push(line.slice(i), 'comment');
          i = line.length;
        } else {
          push(line.slice(i, end + 2), 'comment');
          i = end + 2;
          inBlock = false;
        }
        continue;
      }
      const rest = line.slice(i);
      if (rest.startsWith('//')) {
        push(rest, 'comment');
        break;
      }
      if (rest.startsWith('(*')) {
        inBlock = true;
        push('(*', 'comment');
        i += 2;
        continue;
      }
      const ch = line[i]!;
      if (ch === '"') {
        let j = i + 1;
        while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
        push(line.slice(i, j + 1), 'string');
        i = j + 1;
        continue;
      }
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
      if (word) {
        push(word[0], keywords.has(word[0]) ? 'keyword' : 'plain');
        i += word[0].length;
        continue;
      }
      const num = /^\d[\d_.]*(?:tz|utz|mtz)?/.exec(rest);
      if (num) {
        push(num[0], 'number');
        i += num[0].length;
        continue;
      }
      push(ch, 'plain');
      i += 1;
    }
    return out;
  });
}

/** Most cells of the line diff's table; past them the changed middle shows as replaced. */
export const MAX_DIFF_CELLS = 2_000_000;

/**
 * The deployed code (left) against the compiled code (right) as one block of side-by-side rows: the common
 * head and tail trimmed, the middle by longest common subsequence (bounded: past MAX_DIFF_CELLS it is all
 * removed, then all added, and the block says `replaced`).
 */
export function scriptDiffBlock(
  deployed: string,
  compiled: string,
  maxCells = MAX_DIFF_CELLS,
): CodeDiffBlock {
  const a = deployed.split('\n');
  const b = compiled.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const rows: CodeDiffRow[] = a.slice(0, head).map((l) => ({ type: 'same', left: l, right: l }));
  let replaced = false;
  // one run of removed and added lines: paired as changed rows, the rest removed or added
  const run = (removed: string[], added: string[]) => {
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      const left = removed[k] ?? null;
      const right = added[k] ?? null;
      rows.push({
        type: left !== null && right !== null ? 'changed' : left !== null ? 'removed' : 'added',
        left,
        right,
      });
    }
  };
  const n = midA.length;
  const m = midB.length;
  if ((n + 1) * (m + 1) > maxCells) {
    replaced = n > 0 && m > 0;
    for (const l of midA) rows.push({ type: 'removed', left: l, right: null });
    for (const l of midB) rows.push({ type: 'added', left: null, right: l });
  } else {
    // lcs[i][j]: the common subsequence's length of midA[i..] and midB[j..]
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[i * w + j] =
          midA[i] === midB[j]
            ? lcs[(i + 1) * w + j + 1]! + 1
            : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    let i = 0;
    let j = 0;
    let removed: string[] = [];
    let added: string[] = [];
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        run(removed, added);
        removed = [];
        added = [];
        rows.push({ type: 'same', left: midA[i]!, right: midB[j]! });
        i++;
        j++;
      } else if (j >= m || (i < n && lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) {
        removed.push(midA[i++]!);
      } else {
        added.push(midB[j++]!);
      }
    }
    run(removed, added);
  }
  for (const l of a.slice(a.length - tail)) rows.push({ type: 'same', left: l, right: l });
  const same = rows.every((r) => r.type === 'same');
  return {
    key: 'script',
    kind: 'code',
    name: null,
    status: same ? 'same' : 'changed',
    left_lines: a.length,
    right_lines: b.length,
    ...(same ? {} : { rows }),
    ...(replaced ? { replaced } : {}),
  };
}
