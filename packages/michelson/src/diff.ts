/**
 * Storage diffs: the Miguel tree of the current value with `diff_type` (create / update / delete)
 * and `from` on what changed since the previous value (bcd-api.md §5.4, diff mode).
 */
import { compareValues } from './compare';
import { isInt, isPrim, MichelsonDataError } from './micheline-core';
import type { Micheline } from './micheline-core';
import {
  keyText,
  miguelType,
  mk,
  noneName,
  orBranch,
  scalarValue,
  sortedEntries,
  stamp as stampNode,
  toMiguelNode,
} from './miguel';
import type { DiffType, MiguelNode } from './miguel';
import { buildTypeTree, isSynthetic } from './type-tree';
import type { TypeNode } from './type-tree';
import { mismatch, pairParts, seqItems } from './value';

/** Above this many cells the list alignment falls back to position-wise comparison (keeps diffs linear-ish). */
const MAX_ALIGN_CELLS = 250_000;

/** Marks a whole subtree; a `None` node gets its prim/type like the reference prints it in diffs. */
function stamp(n: MiguelNode, dt: DiffType): MiguelNode {
  if (n.prim === undefined && n.value === 'None')
    return mk('option', 'option', n.name ?? '', { diff_type: dt, value: 'None' });
  const s = stampNode(n, dt);
  if (s.children)
    s.children = s.children.map((c) => (c.prim === undefined && c.value === 'None' ? stamp(c, dt) : c));
  return s;
}

const isNone = (v: Micheline): boolean => isPrim(v) && v.prim === 'None';

function someArg(v: Micheline): Micheline {
  if (
    !isPrim(v) ||
    v.prim !== 'Some' ||
    v.args?.length !== 1 ||
    v.args[0] === null ||
    v.args[0] === undefined
  )
    throw mismatch('option', v);
  return v.args[0];
}

class Differ {
  node(t: TypeNode, curr: Micheline, prev: Micheline, name: string | undefined, depth: number): MiguelNode {
    if (depth > 5000) throw new MichelsonDataError('value nested too deeply');
    const label = name ?? t.typeLabel;
    switch (t.prim) {
      case 'pair': {
        const children: MiguelNode[] = [];
        this.pairChildren(t, curr, prev, children, depth);
        return mk('pair', 'namedtuple', label, { children });
      }
      case 'or': {
        const [cb, cv] = orBranch(t, curr);
        const [pb, pv] = orBranch(t, prev);
        if (cb === pb)
          return mk('or', miguelType(t), label, { children: [this.node(cb, cv, pv, undefined, depth + 1)] });
        return mk('or', miguelType(t), label, {
          diff_type: 'update',
          children: [stamp(toMiguelNode(cb, cv), 'update')],
        });
      }
      case 'option': {
        if (isNone(curr) && isNone(prev)) return { name: name ?? noneName(t), value: 'None' };
        if (isNone(prev)) return stamp(toMiguelNode(t, curr, name), 'create');
        if (isNone(curr)) return stamp(toMiguelNode(t, prev, name), 'delete');
        return this.node(
          t.args[0]!,
          someArg(curr),
          someArg(prev),
          isSynthetic(t.name) ? undefined : label,
          depth + 1,
        );
      }
      case 'list':
      case 'set':
        return mk(t.prim, t.prim, label, {
          children: this.seq(t.args[0]!, seqItems(curr, t.prim), seqItems(prev, t.prim), depth),
        });
      case 'map':
      case 'big_map':
        return this.map(t, curr, prev, label, depth);
      case 'ticket': {
        const pair = this.node(
          t.ticketPair!,
          ticketPairValue(curr),
          ticketPairValue(prev),
          undefined,
          depth + 1,
        );
        return mk('ticket', 'ticket', label, { children: [pair] });
      }
      case 'sapling_state': {
        const c = toMiguelNode(t, curr, name);
        const p = toMiguelNode(t, prev, name);
        const cc = c.children![0]!;
        const pc = p.children![0]!;
        if (cc.value === pc.value) return c;
        return mk('sapling_state', 'sapling_state', label, {
          children: [mk('int', 'int', '@int_0', { from: pc.value, diff_type: 'update', value: cc.value })],
        });
      }
      default: {
        const cv = scalarValue(t, curr);
        const pv = scalarValue(t, prev);
        if (cv === pv) return mk(t.prim, t.prim, label, { value: cv });
        return mk(t.prim, t.prim, label, { from: pv, diff_type: 'update', value: cv });
      }
    }
  }

  private pairChildren(
    t: TypeNode,
    curr: Micheline,
    prev: Micheline,
    out: MiguelNode[],
    depth: number,
  ): void {
    const [cl, cr] = pairParts(curr);
    const [pl, pr] = pairParts(prev);
    const parts: [TypeNode, Micheline, Micheline][] = [
      [t.args[0]!, cl, pl],
      [t.args[1]!, cr, pr],
    ];
    for (const [a, c, p] of parts) {
      if (a.prim === 'pair' && isSynthetic(a.name)) this.pairChildren(a, c, p, out, depth + 1);
      else out.push(this.node(a, c, p, undefined, depth + 1));
    }
  }

  private map(t: TypeNode, curr: Micheline, prev: Micheline, label: string, depth: number): MiguelNode {
    if (isInt(curr)) {
      const ptr = Number(curr.int);
      if (isInt(prev) && prev.int !== curr.int)
        return mk(t.prim, t.prim, label, { from: Number(prev.int), diff_type: 'update', value: ptr });
      return mk(t.prim, t.prim, label, { value: ptr });
    }
    const [kt, vt] = [t.args[0]!, t.args[1]!];
    const cur = sortedEntries(t, seqItems(curr, t.prim));
    if (isInt(prev)) {
      // the previous value is only a pointer: every entry is new
      const children = cur
        .filter(([, v]) => v !== null)
        .map(([k, v]) => stamp(toMiguelNode(vt, v!, keyText(kt, k)), 'create'));
      return mk(t.prim, t.prim, label, { children });
    }
    const old = sortedEntries(t, seqItems(prev, t.prim));
    const children: MiguelNode[] = [];
    let i = 0;
    let j = 0;
    while (i < cur.length || j < old.length) {
      const c = cur[i];
      const p = old[j];
      const order = c && p ? compareValues(kt, c[0], p[0]) : c ? -1 : 1;
      if (order < 0) {
        if (c![1] !== null) children.push(stamp(toMiguelNode(vt, c![1], keyText(kt, c![0])), 'create'));
        i++;
      } else if (order > 0) {
        if (p![1] !== null) children.push(stamp(toMiguelNode(vt, p![1], keyText(kt, p![0])), 'delete'));
        j++;
      } else {
        const key = keyText(kt, c![0]);
        if (c![1] === null && p![1] !== null) children.push(stamp(toMiguelNode(vt, p![1], key), 'delete'));
        else if (c![1] !== null && p![1] === null)
          children.push(stamp(toMiguelNode(vt, c![1], key), 'create'));
        else if (c![1] !== null && p![1] !== null) children.push(this.node(vt, c![1], p![1], key, depth + 1));
        i++;
        j++;
      }
    }
    return mk(t.prim, t.prim, label, { children });
  }

  /** Aligns two sequences (common prefix/suffix, then edit distance on the middle). */
  private seq(et: TypeNode, curr: Micheline[], prev: Micheline[], depth: number): MiguelNode[] {
    const cn = curr.map((v) => toMiguelNode(et, v));
    const pn = prev.map((v) => toMiguelNode(et, v));
    const ck = cn.map((n) => JSON.stringify(n));
    const pk = pn.map((n) => JSON.stringify(n));
    let start = 0;
    while (start < ck.length && start < pk.length && ck[start] === pk[start]) start++;
    let endC = ck.length;
    let endP = pk.length;
    while (endC > start && endP > start && ck[endC - 1] === pk[endP - 1]) {
      endC--;
      endP--;
    }
    const out: MiguelNode[] = cn.slice(0, start);
    const m = endC - start;
    const n = endP - start;
    if (m * n > MAX_ALIGN_CELLS) {
      for (let k = 0; k < Math.max(m, n); k++) {
        const ci = start + k;
        const pi = start + k;
        if (k < m && k < n)
          out.push(ck[ci] === pk[pi] ? cn[ci]! : this.node(et, curr[ci]!, prev[pi]!, undefined, depth + 1));
        else if (k < m) out.push(stamp(cn[ci]!, 'create'));
        else out.push(stamp(pn[pi]!, 'delete'));
      }
    } else {
      // Levenshtein over the middle part; substitution of different elements = recursive diff
      const w = n + 1;
      const d = new Uint32Array((m + 1) * w);
      for (let a = 0; a <= m; a++) d[a * w] = a;
      for (let b = 0; b <= n; b++) d[b] = b;
      for (let a = 1; a <= m; a++) {
        for (let b = 1; b <= n; b++) {
          const sub = d[(a - 1) * w + b - 1]! + (ck[start + a - 1] === pk[start + b - 1] ? 0 : 1);
          d[a * w + b] = Math.min(sub, d[(a - 1) * w + b]! + 1, d[a * w + b - 1]! + 1);
        }
      }
      const ops: MiguelNode[] = [];
      let a = m;
      let b = n;
      while (a > 0 || b > 0) {
        const ci = start + a - 1;
        const pi = start + b - 1;
        const here = d[a * w + b]!;
        if (a > 0 && b > 0 && here === d[(a - 1) * w + b - 1]! + (ck[ci] === pk[pi] ? 0 : 1)) {
          ops.push(ck[ci] === pk[pi] ? cn[ci]! : this.node(et, curr[ci]!, prev[pi]!, undefined, depth + 1));
          a--;
          b--;
        } else if (a > 0 && here === d[(a - 1) * w + b]! + 1) {
          ops.push(stamp(cn[ci]!, 'create'));
          a--;
        } else {
          ops.push(stamp(pn[pi]!, 'delete'));
          b--;
        }
      }
      for (let k = ops.length - 1; k >= 0; k--) out.push(ops[k]!);
    }
    for (let k = endC; k < cn.length; k++) out.push(cn[k]!);
    return out;
  }
}

function ticketPairValue(v: Micheline): Micheline {
  if (isPrim(v) && v.prim === 'Ticket' && v.args?.length === 4)
    return { prim: 'Pair', args: [v.args[0]!, { prim: 'Pair', args: [v.args[2]!, v.args[3]!] }] };
  return v;
}

/**
 * Diff tree between two values of the same type (`TypedAst.Diff`). Big maps: an `Elt key null`
 * in `curr` marks a removed key; a pointer in `prev` makes every entry of `curr` a creation.
 */
export function diffValues(type: Micheline | TypeNode, curr: Micheline, prev: Micheline): MiguelNode {
  const tree = 'id' in (type as object) ? (type as TypeNode) : buildTypeTree(type);
  return new Differ().node(tree, curr, prev, undefined, 0);
}
