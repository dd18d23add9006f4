/**
 * Michelson code diff (`POST /v1/diff`, reference §4.2), structured by the code's blocks: the script is cut
 * into `parameter`, `storage`, the code's entrypoint branches (the IF_LEFT dispatch on the parameter's `or`
 * tree, named by its field annotations), what the code does before and after that dispatch, and each `view`.
 * Blocks are paired by name; equal blocks cost one string comparison, a changed one a line diff of its own
 * lines (`diff`'s Myers diff, given up past MAX_EDITS edits: the block then counts as replaced), so two large,
 * mostly different scripts never meet in one quadratic diff. The answer keeps the reference's line-aligned
 * `left` / `right` item arrays (type 0 common, -1 removed, 1 added, -2 / 2 indentation) and adds the blocks
 * with their rows and the names of the entrypoints whose code or type changed.
 */
import { diffArrays, diffWordsWithSpace } from 'diff';
import { formatMichelson, isPrim, type Micheline, type MichelinePrim } from '@michelscope/michelson';

export interface DiffItem {
  type: number;
  chunk: string;
}

export type BlockKind = 'parameter' | 'storage' | 'code' | 'entrypoint' | 'view';
export type BlockStatus = 'same' | 'changed' | 'added' | 'removed';
export type RowType = 'same' | 'changed' | 'added' | 'removed';

/** One row of a block, side by side: a line of each side (null where that side has none). */
export interface DiffRow {
  type: RowType;
  left: string | null;
  right: string | null;
}

export interface DiffBlock {
  /** Pairing key: `parameter`, `storage`, `code`, `code:before`, `code:after`, `entrypoint:<name>`, `view:<name>`. */
  key: string;
  kind: BlockKind;
  /** Entrypoint or view name (or null). */
  name: string | null;
  status: BlockStatus;
  left_lines: number;
  right_lines: number;
  /** Rows of a block that is not `same` (equal blocks have their line counts only). */
  rows?: DiffRow[];
  /** A changed block whose line diff went past the edit bound: shown as all removed then all added. */
  replaced?: boolean;
}

export interface DiffResult {
  left: DiffItem[][];
  right: DiffItem[][];
  removed: number;
  added: number;
  changed: number;
  blocks: DiffBlock[];
  changed_entrypoints: string[];
}

/** Most line edits one block's diff looks for before it counts the block as replaced. */
export const MAX_EDITS = 2_000;
/** Most characters of one side's formatted code. */
export const MAX_CODE_TEXT = 2_000_000;

interface Block {
  key: string;
  kind: BlockKind;
  name: string | null;
  text: string;
  /** For entrypoints: the parameter type of the branch (a changed type is a changed entrypoint). */
  type?: string;
}

const fieldName = (t: MichelinePrim): string | null => {
  const a = t.annots?.find((x) => x.startsWith('%'));
  return a && a.length > 1 ? a.slice(1) : null;
};

/** The instructions of a code block (a sequence, or one instruction). */
const instructions = (code: Micheline): Micheline[] => (Array.isArray(code) ? code : [code]);

/**
 * Entrypoint branches of an IF_LEFT dispatch over the `or` type `t`: a branch that is itself only an IF_LEFT
 * over an unnamed `or` is followed down; every other branch is one entrypoint (named by the field annotation
 * of its type, else `entrypoint_<n>` in leaf order).
 */
function dispatch(node: MichelinePrim, t: MichelinePrim, out: Block[], counter: { n: number }): void {
  for (let side = 0; side < 2; side++) {
    const body = node.args?.[side];
    const bt = t.args?.[side];
    if (body === undefined || bt === undefined || !isPrim(bt)) continue;
    const inner = instructions(body);
    const only = inner.length === 1 ? inner[0] : undefined;
    if (bt.prim === 'or' && fieldName(bt) === null && only && isPrim(only) && only.prim === 'IF_LEFT') {
      dispatch(only, bt, out, counter);
      continue;
    }
    const name = fieldName(bt) ?? `entrypoint_${counter.n}`;
    counter.n++;
    out.push({
      key: `entrypoint:${name}`,
      kind: 'entrypoint',
      name,
      text: formatMichelson(body),
      type: formatMichelson({ ...bt, annots: [] }),
    });
  }
}

/** The blocks of a script (its sections in any order; unknown sections are left out). */
export function scriptBlocks(script: Micheline): Block[] {
  const sections = Array.isArray(script) ? script.filter(isPrim) : [];
  const out: Block[] = [];
  const param = sections.find((s) => s.prim === 'parameter');
  const paramType = param?.args?.[0];
  for (const s of sections) {
    if (s.prim === 'parameter' || s.prim === 'storage') {
      out.push({ key: s.prim, kind: s.prim, name: null, text: formatMichelson(s) });
    } else if (s.prim === 'view') {
      const a = s.args?.[0];
      const name = a && !Array.isArray(a) && 'string' in a ? a.string : `view_${out.length}`;
      out.push({ key: `view:${name}`, kind: 'view', name, text: formatMichelson(s) });
    } else if (s.prim === 'code') {
      const body = instructions(s.args?.[0] ?? []);
      const at = body.findIndex((i) => isPrim(i) && i.prim === 'IF_LEFT');
      const dispatcher = at >= 0 ? (body[at] as MichelinePrim) : undefined;
      if (!dispatcher || !paramType || !isPrim(paramType) || paramType.prim !== 'or') {
        out.push({ key: 'code', kind: 'code', name: null, text: formatMichelson(s) });
        continue;
      }
      if (at > 0)
        out.push({ key: 'code:before', kind: 'code', name: null, text: formatMichelson(body.slice(0, at)) });
      dispatch(dispatcher, paramType, out, { n: 0 });
      if (at < body.length - 1)
        out.push({ key: 'code:after', kind: 'code', name: null, text: formatMichelson(body.slice(at + 1)) });
    }
  }
  return out;
}

/** The two sides' blocks paired by key, in the right side's order with left-only blocks where they were. */
function pairBlocks(left: Block[], right: Block[]): Array<{ l?: Block; r?: Block }> {
  const lByKey = new Map(left.map((b) => [b.key, b]));
  const rKeys = new Set(right.map((b) => b.key));
  const out: Array<{ l?: Block; r?: Block }> = [];
  let li = 0;
  for (const r of right) {
    // left-only blocks that came before this one on the left
    const pos = left.findIndex((b) => b.key === r.key);
    if (pos >= 0) {
      for (; li < pos; li++) if (!rKeys.has(left[li]!.key)) out.push({ l: left[li]! });
      li = Math.max(li, pos + 1);
    }
    out.push({ l: lByKey.get(r.key), r });
  }
  for (; li < left.length; li++) if (!rKeys.has(left[li]!.key)) out.push({ l: left[li]! });
  return out;
}

/** Rows of two line lists: runs of removed and added lines are paired as changed rows. */
function lineRows(a: string[], b: string[]): { rows: DiffRow[]; replaced: boolean } {
  const parts = diffArrays(a, b, { maxEditLength: MAX_EDITS });
  const rows: DiffRow[] = [];
  const pairRuns = (removed: string[], added: string[]) => {
    const n = Math.max(removed.length, added.length);
    for (let k = 0; k < n; k++) {
      const l = removed[k] ?? null;
      const r = added[k] ?? null;
      rows.push({
        type: l !== null && r !== null ? 'changed' : l !== null ? 'removed' : 'added',
        left: l,
        right: r,
      });
    }
  };
  if (!parts) {
    pairRuns(a, b);
    return { rows, replaced: true };
  }
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (!p.added && !p.removed) {
      for (const line of p.value) rows.push({ type: 'same', left: line, right: line });
      continue;
    }
    const next = parts[i + 1];
    if (p.removed && next?.added) {
      pairRuns(p.value, next.value);
      i++;
    } else if (p.removed) pairRuns(p.value, []);
    else pairRuns([], p.value);
  }
  return { rows, replaced: false };
}

function indented(line: string, indentType: number): DiffItem[] {
  const m = /^\s*/.exec(line)![0];
  return m ? [{ type: indentType, chunk: m }] : [];
}

function whole(line: string, type: number, indentType: number): DiffItem[] {
  const rest = line.trimStart();
  return [...indented(line, indentType), ...(rest ? [{ type, chunk: rest }] : [])];
}

/** Word-level items of a changed row. */
function words(a: string, b: string): [DiffItem[], DiffItem[]] {
  const left = indented(a, -2);
  const right = indented(b, 2);
  for (const part of diffWordsWithSpace(a.trimStart(), b.trimStart())) {
    if (!part.added) left.push({ type: part.removed ? -1 : 0, chunk: part.value });
    if (!part.removed) right.push({ type: part.added ? 1 : 0, chunk: part.value });
  }
  return [left, right];
}

/** The block diff of two scripts (Micheline script arrays). */
export function codeDiff(leftScript: Micheline, rightScript: Micheline): DiffResult {
  const left = scriptBlocks(leftScript);
  const right = scriptBlocks(rightScript);
  const out: DiffResult = {
    left: [],
    right: [],
    removed: 0,
    added: 0,
    changed: 0,
    blocks: [],
    changed_entrypoints: [],
  };
  const entrypointChanged = new Set<string>();
  for (const { l, r } of pairBlocks(left, right)) {
    const a = l ? l.text.split('\n') : [];
    const b = r ? r.text.split('\n') : [];
    const block = (l ?? r)!;
    const status: BlockStatus = !l ? 'added' : !r ? 'removed' : l.text === r.text ? 'same' : 'changed';
    const d: DiffBlock = {
      key: block.key,
      kind: block.kind,
      name: block.name,
      status,
      left_lines: l ? a.length : 0,
      right_lines: r ? b.length : 0,
    };
    if (block.kind === 'entrypoint' && (status !== 'same' || l?.type !== r?.type))
      entrypointChanged.add(block.name!);
    if (status === 'same') {
      for (const line of a) {
        out.left.push(whole(line, 0, -2));
        out.right.push(whole(line, 0, 2));
      }
    } else {
      const { rows, replaced } = lineRows(a, b);
      d.rows = rows;
      if (replaced) d.replaced = true;
      for (const row of rows) {
        if (row.type === 'same') {
          out.left.push(whole(row.left!, 0, -2));
          out.right.push(whole(row.right!, 0, 2));
        } else if (row.type === 'changed') {
          const [li, ri] = words(row.left!, row.right!);
          out.left.push(li);
          out.right.push(ri);
          out.removed++;
          out.added++;
        } else if (row.type === 'removed') {
          out.left.push(whole(row.left!, -1, -2));
          out.right.push([]);
          out.removed++;
        } else {
          out.left.push([]);
          out.right.push(whole(row.right!, 1, 2));
          out.added++;
        }
      }
    }
    out.blocks.push(d);
  }
  out.changed_entrypoints = [...entrypointChanged];
  return out;
}
