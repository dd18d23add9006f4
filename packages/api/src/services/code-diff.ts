/**
 * Line-aligned diff of two Michelson texts (the old `POST /v1/diff`, reference §4.2): one array of items per
 * line on each side, item `type` 0 common, -1 removed (left), 1 added (right), -2/2 leading indentation.
 */
import { diffArrays, diffWordsWithSpace } from 'diff';

export interface DiffItem {
  type: number;
  chunk: string;
}

export interface DiffResult {
  left: DiffItem[][];
  right: DiffItem[][];
  removed: number;
  added: number;
  changed: number;
}

function indented(line: string, indentType: number): DiffItem[] {
  const m = /^\s*/.exec(line)![0];
  return m ? [{ type: indentType, chunk: m }] : [];
}

function whole(line: string, type: number, indentType: number): DiffItem[] {
  const rest = line.trimStart();
  return [...indented(line, indentType), ...(rest ? [{ type, chunk: rest }] : [])];
}

/** Word-level items of a changed line pair. */
function pair(a: string, b: string): [DiffItem[], DiffItem[]] {
  const left = indented(a, -2);
  const right = indented(b, 2);
  for (const part of diffWordsWithSpace(a.trimStart(), b.trimStart())) {
    if (!part.added) left.push({ type: part.removed ? -1 : 0, chunk: part.value });
    if (!part.removed) right.push({ type: part.added ? 1 : 0, chunk: part.value });
  }
  return [left, right];
}

export function codeDiff(a: string, b: string): DiffResult {
  const out: DiffResult = { left: [], right: [], removed: 0, added: 0, changed: 0 };
  const parts = diffArrays(a.split('\n'), b.split('\n'));
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (!p.added && !p.removed) {
      for (const line of p.value) {
        out.left.push(whole(line, 0, -2));
        out.right.push(whole(line, 0, 2));
      }
      continue;
    }
    const removed = p.removed ? p.value : [];
    const next = parts[i + 1];
    const added = p.added ? p.value : next?.added ? next.value : [];
    if (p.removed && next?.added) i++;
    const n = Math.max(removed.length, added.length);
    for (let k = 0; k < n; k++) {
      const l = removed[k];
      const r = added[k];
      if (l !== undefined && r !== undefined) {
        const [li, ri] = pair(l, r);
        out.left.push(li);
        out.right.push(ri);
      } else {
        out.left.push(l === undefined ? [] : whole(l, -1, -2));
        out.right.push(r === undefined ? [] : whole(r, 1, 2));
      }
    }
    out.removed += removed.length;
    out.added += added.length;
  }
  return out;
}
