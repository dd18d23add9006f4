/**
 * Micheline -> Michelson text, laid out like the reference explorer's code tab and storage
 * "Micheline" view (bcd-api.md §5.5): width-aware, 88 columns by default, or everything on one
 * line in inline mode.
 */
import { isBytes, isInt, isPrim, isString, MichelsonDataError } from './micheline-core';
import type { Micheline, MichelinePrim } from './micheline-core';

/** Options of {@link formatMichelson}. */
export interface FormatOptions {
  /** Put everything on one line (used for error values, PACKed bytes, map keys, inline types). */
  inline?: boolean;
  /** Line width for the multi-line layout. Default 88 (the code diff uses 74). */
  lineSize?: number;
}

export const DEFAULT_LINE_SIZE = 88;

const FRAMED = new Set([
  'Pair',
  'Left',
  'Right',
  'Some',
  'pair',
  'or',
  'option',
  'map',
  'big_map',
  'list',
  'set',
  'contract',
  'lambda',
  'ticket',
  'sapling_state',
  'sapling_transaction',
]);
const FRAMED_WHEN_ANNOTATED = new Set([
  'key',
  'unit',
  'signature',
  'operation',
  'int',
  'nat',
  'string',
  'bytes',
  'mutez',
  'bool',
  'key_hash',
  'timestamp',
  'address',
  'bls12_381_g1',
  'bls12_381_g2',
  'bls12_381_fr',
  'chain_id',
  'never',
  'chest',
  'chest_key',
  'tx_rollup_l2_address',
]);
// 'view' added to the reference's list so scripts with on-chain views print as scripts too
const SCRIPT_SECTIONS = new Set(['parameter', 'storage', 'code', 'view']);

/** Markers put around one node to locate it in the output; they take no room in the layout. */
const MARK_START = '\u0001';
const MARK_END = '\u0002';

/** Length in UTF-8 bytes (the reference measures lines in bytes). */
function byteLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c === 1 || c === 2) n--;
      continue;
    }
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 2; // surrogate pair: 2 UTF-16 units -> 4 bytes
      i++;
    } else n += 2;
  }
  return n;
}

const spaces = (n: number): string => ' '.repeat(n);

function isFramed(n: MichelinePrim): boolean {
  if (FRAMED.has(n.prim)) return true;
  return FRAMED_WHEN_ANNOTATED.has(n.prim) && n.annots !== undefined && n.annots.length > 0;
}

function isScript(n: Micheline[]): boolean {
  return n.length > 0 && n.every((x) => isPrim(x) && SCRIPT_SECTIONS.has(x.prim));
}

class Formatter {
  /** Pre-order number of the next node (arrays, prims and literals each count one; root = 0). */
  private counter = 0;

  constructor(
    private readonly inline: boolean,
    private readonly lineSize: number,
    private readonly mark?: number | 'all',
  ) {}

  node(n: Micheline, indent: string, isRoot: boolean, wrapped: boolean, depth: number): string {
    if (this.mark === undefined) return this.render(n, indent, isRoot, wrapped, depth);
    if (this.mark === 'all') return MARK_START + this.render(n, indent, isRoot, wrapped, depth) + MARK_END;
    const id = this.counter++;
    const s = this.render(n, indent, isRoot, wrapped, depth);
    return id === this.mark ? MARK_START + s + MARK_END : s;
  }

  private render(n: Micheline, indent: string, isRoot: boolean, wrapped: boolean, depth: number): string {
    if (depth > 5000) throw new MichelsonDataError('Micheline nested too deeply to format');
    if (Array.isArray(n)) return this.seq(n, indent, isRoot, depth);
    if (isPrim(n)) return this.prim(n, indent, isRoot, wrapped, depth);
    if (isInt(n)) return n.int;
    if (isBytes(n)) return `0x${n.bytes}`;
    if (isString(n)) return JSON.stringify(n.string);
    throw new MichelsonDataError('cannot format: not a Micheline node');
  }

  private seq(n: Micheline[], indent: string, isRoot: boolean, depth: number): string {
    const scriptRoot = isRoot && isScript(n);
    const seqIndent = scriptRoot ? indent : indent + '  ';
    if (n.length === 0) return scriptRoot ? '' : '{}';
    const items = new Array<string>(n.length);
    let length = byteLength(indent) + 4;
    for (let i = 0; i < n.length; i++) {
      const s = this.node(n[i]!, seqIndent, false, true, depth + 1);
      items[i] = s;
      length += byteLength(s);
    }
    const space = scriptRoot ? '' : ' ';
    const seq =
      this.inline || length < this.lineSize
        ? items.join(`${space}; `)
        : items.join(`${space};\n${seqIndent}`);
    return scriptRoot ? seq : `{ ${seq} }`;
  }

  private prim(n: MichelinePrim, indent: string, isRoot: boolean, wrapped: boolean, depth: number): string {
    let expr = n.annots && n.annots.length > 0 ? `${n.prim} ${n.annots.join(' ')}` : n.prim;
    const args = n.args ?? [];
    if (args.length > 0 && (n.prim === 'LAMBDA' || n.prim.startsWith('IF'))) {
      const argIndent = indent + '  ';
      const items = args.map((a) => this.node(a, argIndent, false, false, depth + 1));
      let length = byteLength(indent) + byteLength(expr) + items.length + 1;
      for (const it of items) length += byteLength(it);
      expr =
        this.inline || length < this.lineSize
          ? `${expr} ${items.join(' ')}`
          : `${expr}\n${argIndent}${items.join(`\n${argIndent}`)}`;
    } else if (args.length === 1) {
      const argIndent = indent + spaces(byteLength(expr) + 1);
      expr = `${expr} ${this.node(args[0]!, argIndent, false, false, depth + 1)}`;
    } else if (args.length > 1) {
      let argIndent = indent + '  ';
      const altIndent = indent + spaces(byteLength(expr) + 2);
      const alwaysInline = this.inline || n.prim === 'PUSH';
      for (const a of args) {
        const item = this.node(a, argIndent, false, false, depth + 1);
        const length = byteLength(indent) + byteLength(expr) + byteLength(item) + 1;
        if (alwaysInline || length < this.lineSize) {
          argIndent = altIndent;
          expr = `${expr} ${item}`;
        } else {
          expr = `${expr}\n${argIndent}${item}`;
        }
      }
    }
    return isFramed(n) && !isRoot && !wrapped ? `(${expr})` : expr;
  }
}

/**
 * Renders Micheline as Michelson text. A root array made only of parameter/storage/code sections
 * is printed as a script (sections separated by `;`), other arrays as `{ a ; b }`.
 */
export function formatMichelson(expr: Micheline, opts: FormatOptions = {}): string {
  const f = new Formatter(opts.inline ?? false, opts.lineSize ?? DEFAULT_LINE_SIZE);
  return f.node(expr, '', true, false, 0);
}

/** One-line rendering (inline mode). */
export const formatMichelsonInline = (expr: Micheline): string => formatMichelson(expr, { inline: true });

/** Where a node is in the formatted text: 0-based row, and its columns on that row. */
export interface TextLocation {
  row: number;
  col_start: number;
  col_end: number;
}

/**
 * Locates the Micheline node number `location` (pre-order over arrays, primitives and literals,
 * root = 0 — the numbering of Tezos error locations) in the multi-line rendering of `expr`
 * (`LocateContractError`). Columns span the node's first line. Undefined when there is no such node.
 */
export function locateNode(
  expr: Micheline,
  location: number,
  opts: FormatOptions = {},
): TextLocation | undefined {
  const f = new Formatter(opts.inline ?? false, opts.lineSize ?? DEFAULT_LINE_SIZE, location);
  const text = f.node(expr, '', true, false, 0);
  const start = text.indexOf(MARK_START);
  if (start < 0) return undefined;
  const before = text.slice(0, start);
  const row = before.split('\n').length - 1;
  const lineStart = before.lastIndexOf('\n') + 1;
  const end = text.indexOf(MARK_END, start);
  const body = text.slice(start + 1, end);
  const firstLine = body.split('\n')[0]!;
  const col = byteLength(before.slice(lineStart));
  return { row, col_start: col, col_end: col + byteLength(firstLine) };
}

/** A node's place in the formatted text: 0-based row, and its UTF-16 columns on that row (end exclusive). */
export type NodeSpan = [row: number, colStart: number, colEnd: number];

/**
 * The multi-line rendering of `expr` (as {@link formatMichelson}) and the place of every node in it, indexed by
 * pre-order location (the numbering of Tezos trace and error locations), in one pass: the debugger maps each
 * step of a trace to its line. A node spanning several lines is marked on its first line.
 */
export function formatWithLocations(
  expr: Micheline,
  opts: FormatOptions = {},
): { text: string; spans: NodeSpan[] } {
  const f = new Formatter(opts.inline ?? false, opts.lineSize ?? DEFAULT_LINE_SIZE, 'all');
  const marked = f.node(expr, '', true, false, 0);
  const spans: NodeSpan[] = [];
  const open: number[] = [];
  const out: string[] = [];
  let row = 0;
  let col = 0;
  let next = 0;
  for (let i = 0; i < marked.length; i++) {
    const c = marked.charCodeAt(i);
    if (c === 1) {
      open.push(next);
      spans[next++] = [row, col, -1];
    } else if (c === 2) {
      const span = spans[open.pop()!]!;
      if (span[0] === row) span[2] = col;
    } else {
      out.push(marked[i]!);
      if (c === 10) {
        // nodes still open on the row just ended span to its end
        for (const id of open) {
          const sp = spans[id]!;
          if (sp[0] === row && sp[2] === -1) sp[2] = col;
        }
        row++;
        col = 0;
      } else col++;
    }
  }
  return { text: out.join(''), spans };
}

/** The failed-code window of an error location: 5 lines around the node, rows 1-based (`error_location`). */
export interface ErrorWindow {
  text: string;
  failed_row: number;
  first_row: number;
  start_col: number;
  end_col: number;
}

/** The window of formatted `code` around the node at Tezos error `location`, or undefined when none is there. */
export function errorWindow(code: Micheline, location: number): ErrorWindow | undefined {
  const loc = locateNode(code, location);
  if (!loc) return undefined;
  const lines = formatMichelson(code).split('\n');
  const start = Math.max(0, loc.row - 2);
  const end = Math.min(lines.length, loc.row + 3);
  return {
    text: lines.slice(start, end).join('\n'),
    failed_row: loc.row + 1,
    first_row: start + 1,
    start_col: loc.col_start,
    end_col: loc.col_end,
  };
}
