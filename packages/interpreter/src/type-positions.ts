/**
 * Where a type may appear, as Octez's typechecker (`script_ir_translator.ml`, protocol 024) decides it, and
 * the errors it gives otherwise. michel-codec (our static typechecker) misses most of these or rejects them
 * for reasons we cannot tell from its false rejections, so they are checked here, statically, on the code as
 * written and on the stack types michel-codec computes:
 *
 * - `parse_ty` with its `allow_lazy_storage` / `allow_operation` / `allow_contract` / `allow_ticket` flags
 *   (`unexpected_lazy_storage`, `unexpected_operation`, `unexpected_contract`, `unexpected_ticket`), the
 *   flavours `parse_packable_ty` (PUSH, UNPACK, EMIT t), `parse_passable_ty` (CONTRACT, `contract t`, the
 *   parameter), `parse_storage_ty`, `parse_big_map_value_ty`, `parse_view_{input,output}_ty`, `parse_any_ty`
 *   (NIL, NONE, LEFT, RIGHT, EMPTY_MAP values, LAMBDA, CAST) and `parse_comparable_ty`
 *   (`comparable_type_expected`);
 * - `check_packable` on stack types (PACK allows contracts; FAILWITH, APPLY's capture and EMIT do not), traced
 *   by `unpackable_type`;
 * - `check_dupable_ty` (DUP, DUP n: tickets anywhere but in lambdas, sets and contracts), traced by
 *   `non_dupable_type`.
 */
import type { Expr, ExprPrim, Ty } from './types';
import { COMPARABLE_LEAF, isPrim, toTy, tyToExprComb } from './types';

/** One error of an Octez trace, without the `proto.<protocol>.` prefix; `node` gives its location. */
export interface TraceItem {
  id: string;
  /** The node whose Octez location the error carries (under `locField`). */
  node: object;
  locField: 'loc' | 'location';
  fields?: Record<string, unknown>;
}

/** A refusal: the trace (outermost first) and the instruction it belongs to (for ordering). */
export interface TypeIssue {
  at: object;
  /** Octez matches the stack before reading this type argument (a bad stack there is its error). */
  afterStack?: boolean;
  trace: TraceItem[];
  message: string;
}

interface Flags {
  lazy: boolean;
  operation: boolean;
  contract: boolean;
  ticket: boolean;
}
const ANY: Flags = { lazy: true, operation: true, contract: true, ticket: true };
const NONE_ALLOWED: Flags = { lazy: false, operation: false, contract: false, ticket: false };
export const PASSABLE: Flags = { lazy: true, operation: false, contract: true, ticket: true };
export const STORABLE: Flags = { lazy: true, operation: false, contract: false, ticket: true };
const PACKABLE: Flags = NONE_ALLOWED;
const BIG_MAP_VALUE: Flags = { lazy: false, operation: false, contract: false, ticket: true };
export const VIEW_IO: Flags = { lazy: false, operation: false, contract: true, ticket: false };

/** Octez `is_comparable` on a type expression `parse_ty` accepted. */
function comparableExpr(e: ExprPrim): boolean {
  if (COMPARABLE_LEAF.has(e.prim)) return true;
  if (e.prim === 'pair' || e.prim === 'or' || e.prim === 'option')
    return (e.args ?? []).every((a) => isPrim(a) && comparableExpr(a));
  return false;
}

const plain = (e: Expr): Expr => JSON.parse(JSON.stringify(e)) as Expr;

function unexpected(kind: string, node: object): TraceItem {
  return { id: `michelson_v1.unexpected_${kind}`, node, locField: 'loc' };
}

const WHAT: Record<string, string> = {
  'michelson_v1.unexpected_lazy_storage': 'big_map or sapling_state type not expected here',
  'michelson_v1.unexpected_operation': 'operation type not expected here',
  'michelson_v1.unexpected_contract': 'contract type not expected here',
  'michelson_v1.unexpected_ticket': 'ticket type not expected here',
  'michelson_v1.comparable_type_expected': 'comparable type expected',
};
export const describe = (item: TraceItem): string => WHAT[item.id] ?? item.id;

/**
 * Octez `parse_ty` under `flags`: the first refused position in its order (pre-order, left to right), or
 * null. Malformed types (unknown primitives, arities) are left to `toTy`.
 */
export function typeIssue(e: Expr | undefined, flags: Flags, legacy = false): TraceItem | null {
  if (e === undefined || !isPrim(e)) return null;
  const args = e.args ?? [];
  switch (e.prim) {
    case 'operation':
      return flags.operation ? null : unexpected('operation', e);
    case 'contract':
      return flags.contract ? typeIssue(args[0], PASSABLE, legacy) : unexpected('contract', e);
    case 'ticket':
      return flags.ticket ? comparableIssue(args[0]) : unexpected('ticket', e);
    case 'big_map':
      if (!flags.lazy) return unexpected('lazy_storage', e);
      // legacy: contracts in big-map values, as Octez until protocol 017 (tezos commit 6770a854)
      return (
        comparableIssue(args[0]) ??
        typeIssue(args[1], legacy ? { ...BIG_MAP_VALUE, contract: true } : BIG_MAP_VALUE, legacy)
      );
    case 'sapling_state':
      return flags.lazy ? null : unexpected('lazy_storage', e);
    case 'lambda':
      return typeIssue(args[0], ANY, legacy) ?? typeIssue(args[1], ANY, legacy);
    case 'set':
      return comparableIssue(args[0]);
    case 'map':
      return comparableIssue(args[0]) ?? typeIssue(args[1], flags, legacy);
    case 'pair':
    case 'or':
    case 'option':
    case 'list':
      for (const a of args) {
        const issue = typeIssue(a, flags, legacy);
        if (issue) return issue;
      }
      return null;
    default:
      return null;
  }
}

/** Octez `parse_comparable_ty`: `parse_ty` with every flag off, then `is_comparable`. */
function comparableIssue(e: Expr | undefined): TraceItem | null {
  if (e === undefined || !isPrim(e)) return null;
  const inner = typeIssue(e, NONE_ALLOWED);
  if (inner) return inner;
  if (comparableExpr(e)) return null;
  return {
    id: 'michelson_v1.comparable_type_expected',
    node: e,
    locField: 'location',
    fields: { wrong_type: plain(e) },
  };
}

/** Octez `check_packable ~allow_contract` on a stack type: the refusing error id, or null. */
export function packableIssue(t: Ty, allowContract: boolean): string | null {
  switch (t.prim) {
    case 'big_map':
    case 'sapling_state':
      return 'michelson_v1.unexpected_lazy_storage';
    case 'operation':
      return 'michelson_v1.unexpected_operation';
    case 'ticket':
      return 'michelson_v1.unexpected_ticket';
    case 'contract':
      return allowContract ? null : 'michelson_v1.unexpected_contract';
    case 'set':
    case 'lambda':
      return null;
    case 'map':
      return packableIssue(t.args[1] as Ty, allowContract);
    default:
      for (const a of t.args) {
        const issue = packableIssue(a, allowContract);
        if (issue) return issue;
      }
      return null;
  }
}

/** Octez `check_dupable_ty`: does the type hold a ticket (outside lambdas, sets and contracts)? */
export function dupableIssue(t: Ty): boolean {
  switch (t.prim) {
    case 'ticket':
      return true;
    case 'lambda':
    case 'contract':
    case 'set':
      return false;
    case 'map':
    case 'big_map':
      return dupableIssue(t.args[1] as Ty);
    default:
      return t.args.some(dupableIssue);
  }
}

/** Type arguments of instructions and the `parse_ty` flavour Octez reads each with ('-': not a type). */
type Flavour = Flags | 'comparable' | '-';
const TYPE_ARGS: Record<string, readonly Flavour[]> = {
  PUSH: [PACKABLE],
  UNPACK: [PACKABLE],
  EMIT: [PACKABLE],
  NIL: [ANY],
  NONE: [ANY],
  LEFT: [ANY],
  RIGHT: [ANY],
  CAST: [ANY],
  LAMBDA: [ANY, ANY],
  LAMBDA_REC: [ANY, ANY],
  EMPTY_SET: ['comparable'],
  EMPTY_MAP: ['comparable', ANY],
  EMPTY_BIG_MAP: ['comparable', BIG_MAP_VALUE],
  CONTRACT: [PASSABLE],
  VIEW: ['-', VIEW_IO],
};

/** Instructions Octez types on any stack, reading their type arguments first. */
const ANY_STACK = new Set([
  'PUSH',
  'NIL',
  'NONE',
  'EMPTY_SET',
  'EMPTY_MAP',
  'EMPTY_BIG_MAP',
  'LAMBDA',
  'LAMBDA_REC',
]);

const issueOf = (ins: ExprPrim, item: TraceItem): TypeIssue => ({
  at: ins,
  afterStack: !ANY_STACK.has(ins.prim),
  trace: [item],
  message: describe(item),
});

/** A section's type refused: `ill_formed_type` naming the section and the expression, then the refusal. */
function illFormed(at: object, identifier: string, t: object, expression: Expr, item: TraceItem): TypeIssue {
  return {
    at,
    message: `${identifier}: ${describe(item)}`,
    trace: [
      {
        id: 'michelson_v1.ill_formed_type',
        node: t,
        locField: 'location',
        fields: { identifier, ill_formed_expression: plain(expression) },
      },
      item,
    ],
  };
}

/**
 * The sections of a script (toplevel or CREATE_CONTRACT's): parameter passable, storage storable, each traced
 * by `ill_formed_type` (Octez `parse_code`; the toplevel's views too). `code` is the script's expression.
 */
export function sectionIssue(
  sections: readonly Expr[],
  code: Expr,
  at: object,
  legacy = false,
): TypeIssue | null {
  // legacy: contracts in the storage, as Octez until protocol 017 (tezos commit 06240007)
  const storable = legacy ? { ...STORABLE, contract: true } : STORABLE;
  const checks: [string, string, Flags, number][] = [
    ['parameter', 'parameter', PASSABLE, 0],
    ['storage', 'storage', storable, 0],
  ];
  for (const [prim, identifier, flags, i] of checks) {
    const s = sections.find((x): x is ExprPrim => isPrim(x) && x.prim === prim);
    const t = s?.args?.[i];
    const item = t === undefined ? null : typeIssue(t, flags, legacy);
    if (item && t !== undefined && typeof t === 'object') return illFormed(at, identifier, t, code, item);
  }
  for (const v of sections) {
    if (!isPrim(v) || v.prim !== 'view') continue;
    const [, input, output] = v.args ?? [];
    for (const [identifier, t] of [
      ['arg of view', input],
      ['return of view', output],
    ] as const) {
      const item = t === undefined ? null : typeIssue(t, VIEW_IO, legacy);
      if (item && t !== undefined && typeof t === 'object') return illFormed(at, identifier, t, t, item);
    }
  }
  return null;
}

/** The first type argument (in pre-order) that Octez refuses where it is written, with its trace. */
export function typeArgIssue(code: Expr, legacy = false): TypeIssue | null {
  if (Array.isArray(code)) {
    for (const x of code) {
      const issue = typeArgIssue(x, legacy);
      if (issue) return issue;
    }
    return null;
  }
  if (!isPrim(code)) return null;
  const args = code.args ?? [];
  if (code.prim === 'CREATE_CONTRACT' && Array.isArray(args[0])) {
    const inner = args[0];
    const issue = sectionIssue(inner, inner, code, legacy);
    if (issue) return issue;
  }
  const flavours = TYPE_ARGS[code.prim];
  if (flavours)
    for (let i = 0; i < flavours.length; i++) {
      const f = flavours[i] as Flavour;
      if (f === '-') continue;
      const item = f === 'comparable' ? comparableIssue(args[i]) : typeIssue(args[i], f, legacy);
      if (item) return issueOf(code, item);
    }
  for (const a of args) {
    const issue = typeArgIssue(a, legacy);
    if (issue) return issue;
  }
  return null;
}

function tyOf(e: unknown): Ty | null {
  try {
    return toTy(e as Expr);
  } catch {
    return null;
  }
}

function unpackable(ins: object, id: string, what: string): TypeIssue {
  const item: TraceItem = { id, node: ins, locField: 'loc' };
  return {
    at: ins,
    message: `${what}: ${describe(item)}`,
    trace: [{ id: 'michelson_v1.unpackable_type', node: ins, locField: 'loc' }, item],
  };
}

/**
 * The refusal Octez gives for `ins` on the stack `input` (michel-codec's stack types, top first), for the
 * checks that depend on the stack: PACK, FAILWITH, APPLY, EMIT (packable) and DUP (dupable).
 */
export function stackIssue(ins: ExprPrim, input: readonly unknown[], legacy = false): TypeIssue | null {
  // FAILWITH's check skipped in legacy mode as Octez did until protocol 017 (removed by tezos commit 9d157db1,
  // "disallow non-packable types on FAILWITH"): a deliberate difference so that mainnet contracts typechecked
  // before it still load (Dexter tzBTC/XTZ fails with its storage). ARCHITECTURE §8.
  if (legacy && ins.prim === 'FAILWITH') return null;
  switch (ins.prim) {
    case 'PACK':
    case 'FAILWITH':
    case 'EMIT': {
      if (ins.prim === 'EMIT' && (ins.args ?? []).length > 0) return null; // its type argument is checked
      const t = tyOf(input[0]);
      const id = t && packableIssue(t, ins.prim === 'PACK');
      return id ? unpackable(ins, id, ins.prim) : null;
    }
    case 'APPLY': {
      const lambda = tyOf(input[1]);
      const arg = lambda?.prim === 'lambda' ? (lambda.args[0] as Ty) : null;
      const capture = arg?.prim === 'pair' ? (arg.args[0] as Ty) : null;
      const id = capture && packableIssue(capture, false);
      return id ? unpackable(ins, id, 'APPLY') : null;
    }
    case 'DUP': {
      const n = ins.args?.[0];
      const depth = n === undefined ? 1 : isPrim(n) || Array.isArray(n) || !('int' in n) ? 0 : Number(n.int);
      if (!(depth >= 1)) return null;
      const t = tyOf(input[depth - 1]);
      if (!t || !dupableIssue(t)) return null;
      return {
        at: ins,
        message: `DUP: type ${JSON.stringify(tyToExprComb(t))} is not dupable`,
        trace: [
          {
            id: 'michelson_v1.non_dupable_type',
            node: ins,
            locField: 'loc',
            fields: { type: tyToExprComb(t) },
          },
          { id: 'michelson_v1.unexpected_ticket', node: ins, locField: 'loc' },
        ],
      };
    }
    default:
      return null;
  }
}

/** The trace as Octez prints it (ids without the protocol prefix), locations from `locate`. */
export function octezTrace(
  items: readonly TraceItem[],
  locate: (node: object) => number,
): { id: string; [k: string]: unknown }[] {
  return items.map((t) => ({ id: t.id, [t.locField]: locate(t.node), ...t.fields }));
}
