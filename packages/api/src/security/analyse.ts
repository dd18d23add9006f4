/**
 * The permission and upgrade-risk summary of a contract (issue 37, part 2): a bounded abstract interpretation
 * of its Michelson code. The stack is simulated with symbolic values (the parameter and its entrypoint path,
 * storage fields by their place in the storage type, SENDER/SOURCE, comparisons, pairs…); the parameter's
 * IF_LEFT dispatch forks one state per entrypoint, other branches are joined. Each entrypoint's surviving
 * states tell who may call it (a guard `SENDER = storage field` held on every non-failing path; a
 * CHECK_SIGNATURE against stored keys; nothing survives: nobody), what it does (the effect instructions met
 * on its non-failing paths) and which storage fields it writes (the final storage value against the stored
 * one). Anything it does not model makes that part `unknown`, never a guess.
 */
import {
  buildTypeTree,
  bytesAsAddress,
  entrypointLeaves,
  expandMicheline,
  globalConstantsOf,
  isBytes,
  isInt,
  isPrim,
  isString,
} from '@michelscope/michelson';
import type { Micheline, MichelinePrim } from '@michelscope/michelson';
import { locateNodes } from './locate';

/** Instructions (and macro expansions) interpreted before the analysis gives up. */
export const MAX_STEPS = 200_000;
/** Wall-clock bound of one analysis, in milliseconds. */
export const MAX_MILLIS = 1_500;
/** Most states carried at once (entrypoints × paths). */
const MAX_STATES = 2_000;

export type Who = 'anyone' | 'admin' | 'multisig' | 'nobody' | 'unknown';
export type Capability =
  | 'transfer_tez'
  | 'call_contracts'
  | 'set_delegate'
  | 'originate'
  | 'mint_tickets'
  | 'emit_events'
  | 'exec_stored_lambda'
  | 'exec_parameter_lambda'
  | 'exec_lambda';

/** Where an instruction is: a path into the script sections and its 1-based line in the Code tab's text. */
export interface Evidence {
  instruction: string;
  path: string;
  line: number | null;
}

export interface AdminField {
  /** The field annotation (without `%`), else the position in the storage type, e.g. `storage.1.0`. */
  field: string;
  /** The address held there when the storage value is known. */
  address?: string;
  /** Compared with SOURCE rather than SENDER. */
  source?: boolean;
  /** The address (or set of addresses) is written in the code (`field` is then `code`): it cannot change. */
  hardcoded?: string[];
  /** The caller must be a member of the set at `field`. */
  set?: boolean;
}

export interface EntrypointSummary {
  name: string;
  who: Who;
  admin?: AdminField;
  multisig?: { keys_field: string; threshold_field?: string; threshold?: number; keys?: number };
  can: Capability[];
  /** Storage fields this entrypoint may write (null: not known). */
  writes: string[] | null;
  /** Why `who` is unknown. */
  reason?: string;
  evidence: Evidence[];
}

export interface Finding {
  kind:
    | 'stored_lambda'
    | 'global_constant'
    | 'set_delegate'
    | 'admin_replaceable'
    | 'privileged'
    | 'transfer_tez'
    | 'originate'
    | 'mint_tickets'
    | 'emit_events'
    | 'parameter_lambda'
    | 'nobody'
    | 'unknown'
    | 'code_migration';
  sentence: string;
  evidence: Evidence[];
}

export interface SecuritySummary {
  headline: string;
  /** True when the code can change (a stored lambda that some entrypoint can replace), null when not known. */
  upgradable: boolean | null;
  admins: AdminField[];
  entrypoints: EntrypointSummary[];
  upgrade: {
    stored_lambdas: { field: string; written_by: string[]; evidence: Evidence[] }[];
    global_constants: string[];
    set_delegate: boolean;
    admin_replaceable: { field: string; entrypoint: string; who: Who }[];
    /** Protocol migrations that replaced this contract's code (filled by the route from the index). */
    code_migrations: { level: number; protocol: string }[];
  };
  findings: Finding[];
  /** False when the bounds were hit or some code could not be followed (then some parts are `unknown`). */
  complete: boolean;
  steps: number;
}

// ---------------------------------------------------------------------------------------------------------
// symbolic values

type Val =
  | { k: 'unknown' }
  | { k: 'const'; v: Micheline; t?: Micheline }
  | { k: 'sender' }
  | { k: 'source' }
  | { k: 'amount' }
  | { k: 'st'; t: Micheline | undefined; path: string; label: string; elem?: boolean }
  | { k: 'param'; t: Micheline | undefined; path: string; whole: boolean }
  | { k: 'pair'; a: Val; b: Val }
  | { k: 'some'; v: Val }
  | { k: 'cmp'; a: Val; b: Val }
  | { k: 'bool'; op: string; a: Val; b: Val }
  | { k: 'nil' }
  | { k: 'lambda' }
  /** The result of running code not in this script (a stored or given lambda, a view): it may be anything. */
  | { k: 'opaque' };

const UNKNOWN: Val = { k: 'unknown' };
const OPAQUE: Val = { k: 'opaque' };

interface Effect {
  cap: Capability | 'contract' | 'check_signature' | 'threshold';
  node: object;
  field?: string;
}

interface State {
  stack: Val[];
  /** Left/right steps of the parameter dispatch taken so far. */
  ep: string;
  guards: Map<string, AdminField & { node: object }>;
  effects: Effect[];
  /** A SENDER/SOURCE comparison that is not a recognised guard. */
  oddSender?: object;
  lost?: string;
}

interface Ctx {
  steps: number;
  deadline: number;
  truncated: boolean;
  where: Map<object, { path: string; loc: number }>;
  storageType: Micheline;
  storage?: Micheline;
  dispatch: Map<string, object>;
}

class Lost extends Error {}

const prim = (n: Micheline): MichelinePrim | undefined => (isPrim(n) ? n : undefined);
/** A storage type node's name: its field annotation, else its type annotation (older compilers' `:manager`). */
const annotOf = (t: Micheline | undefined): string | undefined => {
  const annots = t && isPrim(t) ? t.annots : undefined;
  const a =
    annots?.find((x) => x.startsWith('%') && x.length > 1) ??
    annots?.find((x) => x.startsWith(':') && x.length > 1);
  return a?.slice(1);
};
/** The two halves of a pair type (combs `pair a b c` = `pair a (pair b c)`). */
function pairTypes(t: Micheline | undefined): [Micheline | undefined, Micheline | undefined] {
  if (!t || !isPrim(t) || t.prim !== 'pair' || !t.args || t.args.length < 2) return [undefined, undefined];
  return [t.args[0], t.args.length > 2 ? { prim: 'pair', args: t.args.slice(1) } : t.args[1]];
}

function half(v: Val, side: 0 | 1): Val {
  if (v.k === 'opaque') return v;
  if (v.k === 'pair') return side === 0 ? v.a : v.b;
  if (v.k === 'st') {
    const t = pairTypes(v.t)[side];
    const path = `${v.path}.${side}`;
    return { k: 'st', t, path, label: annotOf(t) ?? (v.elem ? v.label : `storage${path}`), elem: v.elem };
  }
  if (v.k === 'param') return { k: 'param', t: pairTypes(v.t)[side], path: v.path, whole: false };
  return UNKNOWN;
}
/** `GET n` on a right comb. */
function getN(v: Val, n: number): Val {
  let cur = v;
  for (let i = 0; i < Math.floor(n / 2); i++) cur = half(cur, 1);
  return n % 2 === 1 ? half(cur, 0) : cur;
}
function expandPair(v: Val): { a: Val; b: Val } {
  return { a: half(v, 0), b: half(v, 1) };
}
/** `UPDATE n` on a right comb. */
function updateN(v: Val, n: number, x: Val): Val {
  if (n === 0) return x;
  const p = expandPair(v);
  if (n === 1) return { k: 'pair', a: x, b: p.b };
  return { k: 'pair', a: p.a, b: updateN(p.b, n - 2, x) };
}

const same = (a: Val, b: Val): boolean => {
  if (a === b) return true;
  if (a.k !== b.k) return false;
  if (a.k === 'st' && b.k === 'st') return a.path === b.path && a.elem === b.elem;
  if (a.k === 'param' && b.k === 'param') return a.path === b.path && a.whole === b.whole && a.t === b.t;
  if (a.k === 'pair' && b.k === 'pair') return same(a.a, b.a) && same(a.b, b.b);
  if (a.k === 'some' && b.k === 'some') return same(a.v, b.v);
  if (a.k === 'const' && b.k === 'const') return JSON.stringify(a.v) === JSON.stringify(b.v);
  return a.k === 'sender' || a.k === 'source' || a.k === 'amount' || a.k === 'nil' || a.k === 'lambda';
};
const joinVal = (a: Val, b: Val): Val => {
  if (a.k === 'opaque' || b.k === 'opaque') return OPAQUE;
  if (same(a, b)) return a;
  if (a.k === 'pair' && b.k === 'pair') return { k: 'pair', a: joinVal(a.a, b.a), b: joinVal(a.b, b.b) };
  if (a.k === 'st' && b.k === 'pair') return joinVal({ k: 'pair', ...expandPair(a) }, b);
  if (a.k === 'pair' && b.k === 'st') return joinVal(a, { k: 'pair', ...expandPair(b) });
  return UNKNOWN;
};

function clone(s: State): State {
  return { ...s, stack: [...s.stack], guards: new Map(s.guards), effects: [...s.effects] };
}

/** Joins states of the same entrypoint path: guards both hold, effects of either, stacks value by value. */
function join(a: State, b: State): State {
  const guards = new Map([...a.guards].filter(([k]) => b.guards.has(k)));
  const effects = [...a.effects, ...b.effects.filter((e) => !a.effects.includes(e))];
  const out: State = { stack: [], ep: a.ep, guards, effects, oddSender: a.oddSender ?? b.oddSender };
  if (a.lost || b.lost || a.stack.length !== b.stack.length) {
    out.lost = a.lost ?? b.lost ?? 'branches leave stacks of different depths';
    return out;
  }
  out.stack = a.stack.map((x, i) => joinVal(x, b.stack[i]!));
  return out;
}
function joinAll(states: State[]): State[] {
  const byEp = new Map<string, State>();
  for (const s of states) {
    const o = byEp.get(s.ep);
    byEp.set(s.ep, o ? join(o, s) : s);
  }
  return [...byEp.values()];
}

// ---------------------------------------------------------------------------------------------------------
// the interpreter

const NULLARY = new Set([
  'UNIT',
  'NOW',
  'LEVEL',
  'CHAIN_ID',
  'SELF',
  'SELF_ADDRESS',
  'BALANCE',
  'TOTAL_VOTING_POWER',
  'MIN_BLOCK_TIME',
  'EMPTY_SET',
  'EMPTY_MAP',
  'EMPTY_BIG_MAP',
  'NONE',
  'SAPLING_EMPTY_STATE',
]);
const UNARY = new Set([
  'NOT',
  'NEG',
  'ABS',
  'ISNAT',
  'INT',
  'NAT',
  'BYTES',
  'SIZE',
  'PACK',
  'BLAKE2B',
  'SHA256',
  'SHA512',
  'KECCAK',
  'SHA3',
  'HASH_KEY',
  'ADDRESS',
  'IMPLICIT_ACCOUNT',
  'VOTING_POWER',
  'JOIN_TICKETS',
  'LEFT',
  'RIGHT',
  'PAIRING_CHECK',
  'EMIT',
  'SET_DELEGATE',
  'CONTRACT',
]);
const BINARY = new Set([
  'ADD',
  'SUB',
  'SUB_MUTEZ',
  'MUL',
  'EDIV',
  'LSL',
  'LSR',
  'OR',
  'AND',
  'XOR',
  'CONS',
  'EXEC',
  'APPLY',
  'SPLIT_TICKET',
  'TICKET',
  'TICKET_DEPRECATED',
  'VIEW',
  'SAPLING_VERIFY_UPDATE',
]);
const TERNARY = new Set(['SLICE', 'TRANSFER_TOKENS', 'CHECK_SIGNATURE', 'UPDATE', 'OPEN_CHEST']);
const COMPARISONS: Record<string, string> = {
  EQ: 'EQ',
  NEQ: 'NEQ',
  LT: 'LT',
  GT: 'GT',
  LE: 'LE',
  GE: 'GE',
};
const NEGATE: Record<string, string> = { EQ: 'NEQ', NEQ: 'EQ', LT: 'GE', GE: 'LT', GT: 'LE', LE: 'GT' };

const intArg = (p: MichelinePrim, dflt: number): number => {
  const a = p.args?.[0];
  return a && isInt(a) ? Number(a.int) : dflt;
};

function pop(s: State, n = 1): Val[] {
  if (s.stack.length < n) throw new Lost('stack underflow (an instruction this analysis does not model)');
  return s.stack.splice(s.stack.length - n, n).reverse();
}
const push = (s: State, ...v: Val[]): void => {
  s.stack.push(...v);
};

const isAddressLike = (v: Val): boolean => v.k === 'st' && !v.elem;

/** The guard an IF on `b` establishes in its then-branch (`when` = true) or else-branch. */
function guardOf(b: Val, when: boolean): (AdminField & { key: string }) | 'odd' | undefined {
  if (b.k === 'bool' && b.op === 'MEM' && when && (b.a.k === 'sender' || b.a.k === 'source')) {
    const src = b.a.k === 'source' ? { source: true } : {};
    const set = b.b;
    if (set.k === 'const' && Array.isArray(set.v)) {
      const addrs = set.v.filter(isString).map((x) => x.string);
      return { key: `${b.a.k}:code:${addrs.join(',')}`, field: 'code', hardcoded: addrs, ...src };
    }
    if (set.k === 'st' && !set.elem && isPrim(set.t) && set.t.prim === 'set')
      return { key: `${b.a.k}:${set.path}`, field: set.label, set: true, ...src };
    return 'odd';
  }
  if (b.k !== 'bool' || (b.op !== 'EQ' && b.op !== 'NEQ')) return undefined;
  const eq = (b.op === 'EQ') === when;
  const [who, other] =
    b.a.k === 'sender' || b.a.k === 'source'
      ? [b.a, b.b]
      : b.b.k === 'sender' || b.b.k === 'source'
        ? [b.b, b.a]
        : [];
  if (!who || !other) return undefined;
  // the caller against its own argument, or SENDER against SOURCE (implicit callers only): no named address
  if (other.k === 'param' || other.k === 'sender' || other.k === 'source') return undefined;
  if (!eq) return undefined;
  if (other.k === 'const' && isString(other.v))
    return {
      key: `${who.k}:code:${other.v.string}`,
      field: 'code',
      hardcoded: [other.v.string],
      ...(who.k === 'source' ? { source: true } : {}),
    };
  if (!isAddressLike(other) || other.k !== 'st') return 'odd';
  return {
    key: `${who.k}:${other.path}`,
    field: other.label,
    ...(who.k === 'source' ? { source: true } : {}),
  };
}

function record(s: State, cap: Effect['cap'], node: object, field?: string): void {
  s.effects.push({ cap, node, ...(field ? { field } : {}) });
}

function run(code: Micheline, states: State[], ctx: Ctx): State[] {
  let cur = states;
  const seq = Array.isArray(code) ? code : [code];
  for (const ins of seq) {
    if (cur.length === 0) return cur;
    const live = cur.filter((s) => !s.lost);
    if (live.length === 0) return cur;
    const lost = cur.filter((s) => s.lost);
    cur = [...lost, ...step(ins, live, ctx)];
    if (cur.length > MAX_STATES) {
      ctx.truncated = true;
      cur = joinAll(cur);
    }
  }
  return cur;
}

function step(ins: Micheline, states: State[], ctx: Ctx): State[] {
  // one step per state the instruction runs in
  ctx.steps += states.length;
  if (ctx.steps > MAX_STEPS || Date.now() > ctx.deadline) {
    ctx.truncated = true;
    return states.map((s) => ({ ...s, lost: 'the analysis bounds were reached' }));
  }
  if (Array.isArray(ins)) return run(ins, states, ctx);
  const p = prim(ins);
  if (!p) return states.map((s) => ({ ...s, lost: 'a literal where an instruction was expected' }));
  const out: State[] = [];
  for (const s of states) {
    try {
      out.push(...one(p, s, ctx));
    } catch (e) {
      if (!(e instanceof Lost)) throw e;
      out.push({ ...s, lost: `${e.message} at ${p.prim}` });
    }
  }
  return out;
}

/** A state per branch, run and joined by entrypoint path. */
function branch(code: Micheline | undefined, s: State, ctx: Ctx): State[] {
  return joinAll(run(code ?? [], [s], ctx));
}

function one(p: MichelinePrim, s0: State, ctx: Ctx): State[] {
  const s = s0;
  const op = p.prim;
  const args = p.args ?? [];
  switch (op) {
    case 'FAILWITH':
    case 'NEVER':
      return [];
    case 'CAST':
    case 'RENAME':
      if (s.stack.length < 1) throw new Lost('stack underflow');
      return [s];
    case 'DROP':
      pop(s, intArg(p, 1));
      return [s];
    case 'DUP': {
      const n = intArg(p, 1);
      if (n < 1 || s.stack.length < n) throw new Lost('stack underflow');
      push(s, s.stack[s.stack.length - n]!);
      return [s];
    }
    case 'SWAP': {
      const [a, b] = pop(s, 2);
      push(s, a!, b!);
      return [s];
    }
    case 'DIG': {
      const n = intArg(p, 0);
      if (s.stack.length <= n) throw new Lost('stack underflow');
      const [v] = s.stack.splice(s.stack.length - 1 - n, 1);
      push(s, v!);
      return [s];
    }
    case 'DUG': {
      const n = intArg(p, 0);
      if (s.stack.length <= n) throw new Lost('stack underflow');
      const v = s.stack.pop()!;
      s.stack.splice(s.stack.length - n, 0, v);
      return [s];
    }
    case 'PUSH':
      push(s, { k: 'const', v: args[1] ?? { prim: 'Unit' }, t: args[0] });
      return [s];
    case 'SENDER':
      push(s, { k: 'sender' });
      return [s];
    case 'SOURCE':
      push(s, { k: 'source' });
      return [s];
    case 'AMOUNT':
      push(s, { k: 'amount' });
      return [s];
    case 'NIL':
      push(s, { k: 'nil' });
      return [s];
    case 'LAMBDA':
    case 'LAMBDA_REC':
      push(s, { k: 'lambda' });
      return [s];
    case 'SOME':
      push(s, { k: 'some', v: pop(s)[0]! });
      return [s];
    case 'CAR':
    case 'CDR': {
      const v = pop(s)[0]!;
      if (args.length) push(s, getN(v, op === 'CAR' ? 2 * intArg(p, 0) + 1 : 2 * intArg(p, 0)));
      else push(s, half(v, op === 'CAR' ? 0 : 1));
      return [s];
    }
    case 'UNPAIR': {
      const n = intArg(p, 2);
      let v = pop(s)[0]!;
      const parts: Val[] = [];
      for (let i = 0; i < n - 1; i++) {
        parts.push(half(v, 0));
        v = half(v, 1);
      }
      parts.push(v);
      for (let i = parts.length - 1; i >= 0; i--) push(s, parts[i]!);
      return [s];
    }
    case 'PAIR': {
      const n = intArg(p, 2);
      const vs = pop(s, n);
      let v = vs[n - 1]!;
      for (let i = n - 2; i >= 0; i--) v = { k: 'pair', a: vs[i]!, b: v };
      push(s, v);
      return [s];
    }
    case 'GET': {
      if (args.length) {
        push(s, getN(pop(s)[0]!, intArg(p, 0)));
        return [s];
      }
      const [, map] = pop(s, 2);
      if (map!.k === 'st' && isPrim(map.t) && (map.t.prim === 'big_map' || map.t.prim === 'map'))
        push(s, {
          k: 'st',
          t: { prim: 'option', args: [map.t.args?.[1] ?? { prim: 'unit' }] },
          path: `${map.path}[]`,
          label: map.label,
          elem: true,
        });
      else push(s, UNKNOWN);
      return [s];
    }
    case 'UPDATE': {
      if (args.length) {
        const [x, v] = pop(s, 2);
        push(s, updateN(v!, intArg(p, 0), x!));
        return [s];
      }
      pop(s, 3);
      push(s, UNKNOWN);
      return [s];
    }
    case 'MEM': {
      const [elem, set] = pop(s, 2);
      push(s, { k: 'bool', op: 'MEM', a: elem!, b: set! });
      return [s];
    }
    case 'GET_AND_UPDATE':
      pop(s, 3);
      push(s, UNKNOWN, UNKNOWN);
      return [s];
    case 'COMPARE': {
      const [a, b] = pop(s, 2);
      push(s, { k: 'cmp', a: a!, b: b! });
      if (s.effects.some((e) => e.cap === 'check_signature'))
        for (const x of [a!, b!])
          if (x.k === 'st' && isPrim(x.t) && (x.t.prim === 'nat' || x.t.prim === 'int'))
            record(s, 'threshold', p, x.label);
      return [s];
    }
    case 'UNPACK': {
      const v = pop(s)[0]!;
      push(s, v.k === 'st' ? { ...v, t: { prim: 'option', args: [args[0]!] }, elem: true } : UNKNOWN);
      return [s];
    }
    case 'CHECK_SIGNATURE': {
      const [key] = pop(s, 3);
      record(s, 'check_signature', p, key!.k === 'st' ? key.label : undefined);
      push(s, UNKNOWN);
      return [s];
    }
    case 'TRANSFER_TOKENS': {
      const [, amount] = pop(s, 3);
      const zero = amount!.k === 'const' && isInt(amount.v) && amount.v.int === '0';
      record(s, zero ? 'call_contracts' : 'transfer_tez', p);
      push(s, UNKNOWN);
      return [s];
    }
    case 'CREATE_CONTRACT':
      pop(s, 3);
      record(s, 'originate', p);
      push(s, UNKNOWN, UNKNOWN);
      return [s];
    case 'EXEC': {
      const [, f] = pop(s, 2);
      if (f!.k === 'st') record(s, 'exec_stored_lambda', p, f.label);
      else if (f!.k === 'param') record(s, 'exec_parameter_lambda', p);
      else if (f!.k !== 'lambda') record(s, 'exec_lambda', p);
      push(s, f!.k === 'lambda' ? UNKNOWN : OPAQUE);
      return [s];
    }
    case 'DIP': {
      const n = args.length > 1 ? intArg(p, 1) : 1;
      const body = args.length > 1 ? args[1] : args[0];
      if (s.stack.length < n) throw new Lost('stack underflow');
      const kept = s.stack.splice(s.stack.length - n, n);
      return run(body ?? [], [s], ctx).map((r) => (r.lost ? r : { ...r, stack: [...r.stack, ...kept] }));
    }
    case 'IF': {
      const b = pop(s)[0]!;
      const t = clone(s);
      const f = clone(s);
      for (const [st, when] of [
        [t, true],
        [f, false],
      ] as const) {
        const g = guardOf(b, when);
        if (g === 'odd') st.oddSender = p;
        else if (g) {
          const { key, ...admin } = g;
          st.guards.set(key, { ...admin, node: p });
        }
      }
      return joinAll([...branch(args[0], t, ctx), ...branch(args[1], f, ctx)]);
    }
    case 'IF_NONE': {
      const v = pop(s)[0]!;
      const some = clone(s);
      const inner: Val =
        v.k === 'some'
          ? v.v
          : v.k === 'st' && isPrim(v.t) && v.t.prim === 'option'
            ? { ...v, t: v.t.args?.[0] }
            : UNKNOWN;
      push(some, inner);
      return joinAll([...branch(args[0], s, ctx), ...branch(args[1], some, ctx)]);
    }
    case 'IF_CONS': {
      const v = pop(s)[0]!;
      const cons = clone(s);
      const elem: Val =
        v.k === 'st' && isPrim(v.t) && v.t.prim === 'list' ? { ...v, t: v.t.args?.[0], elem: true } : UNKNOWN;
      push(cons, v, elem);
      return joinAll([...branch(args[0], cons, ctx), ...branch(args[1], s, ctx)]);
    }
    case 'IF_LEFT': {
      const v = pop(s)[0]!;
      const sides: State[] = [clone(s), clone(s)];
      if (v.k === 'param' && v.whole) {
        const [lt, rt] =
          isPrim(v.t) && v.t.prim === 'or' ? [v.t.args?.[0], v.t.args?.[1]] : [undefined, undefined];
        const out: State[] = [];
        for (const side of [0, 1] as const) {
          const path = v.path + (side === 0 ? 'L' : 'R');
          const st = sides[side]!;
          // a stale copy of the parameter: only the branch the state already took is feasible
          if (st.ep.length > v.path.length && !st.ep.startsWith(path)) continue;
          if (path.length > st.ep.length) st.ep = path;
          push(st, { k: 'param', t: side === 0 ? lt : rt, path, whole: true });
          if (!ctx.dispatch.has(path)) ctx.dispatch.set(path, (args[side] as object) ?? p);
          out.push(...run(args[side] ?? [], [st], ctx));
        }
        return joinAll(out);
      }
      const inner: Val = v.k === 'param' ? { ...v, whole: false } : UNKNOWN;
      push(sides[0]!, inner);
      push(sides[1]!, inner);
      return joinAll([...branch(args[0], sides[0]!, ctx), ...branch(args[1], sides[1]!, ctx)]);
    }
    case 'LOOP': {
      pop(s);
      const body = run(args[0] ?? [], [clone(s)], ctx).map((r) => {
        if (!r.lost) r.stack.pop();
        return r;
      });
      return joinAll([s, ...body]);
    }
    case 'LOOP_LEFT': {
      pop(s);
      const body = run(args[0] ?? [], [{ ...clone(s), stack: [...s.stack, UNKNOWN] }], ctx).map((r) => {
        if (!r.lost) r.stack.pop();
        return r;
      });
      const out = joinAll([s, ...body]);
      for (const o of out) if (!o.lost) o.stack.push(UNKNOWN);
      return out;
    }
    case 'ITER':
    case 'MAP': {
      const c = pop(s)[0]!;
      const elem: Val =
        c.k === 'st' && isPrim(c.t) && (c.t.prim === 'list' || c.t.prim === 'set')
          ? { ...c, t: c.t.args?.[0], elem: true }
          : UNKNOWN;
      const body = run(args[0] ?? [], [{ ...clone(s), stack: [...s.stack, elem] }], ctx).map((r) => {
        // MAP's body leaves the new element; ITER's consumes its element
        if (!r.lost && op === 'MAP') r.stack.pop();
        return r;
      });
      const out = joinAll([s, ...body]);
      if (op === 'MAP') for (const o of out) if (!o.lost) o.stack.push(UNKNOWN);
      return out;
    }
    case 'CONCAT': {
      const top = s.stack[s.stack.length - 1];
      pop(s, top?.k === 'nil' ? 1 : 2);
      push(s, UNKNOWN);
      return [s];
    }
    case 'READ_TICKET':
      pop(s);
      push(s, UNKNOWN, UNKNOWN);
      return [s];
    case 'constant':
      throw new Lost('a global constant (its code is not expanded here)');
  }
  if (COMPARISONS[op]) {
    const c = pop(s)[0]!;
    push(s, c.k === 'cmp' ? { k: 'bool', op, a: c.a, b: c.b } : UNKNOWN);
    return [s];
  }
  if (op === 'NOT') {
    const c = pop(s)[0]!;
    push(s, c.k === 'bool' && NEGATE[c.op] ? { ...c, op: NEGATE[c.op]! } : UNKNOWN);
    return [s];
  }
  if (NULLARY.has(op)) {
    push(s, UNKNOWN);
    return [s];
  }
  if ((op === 'IMPLICIT_ACCOUNT' || op === 'ADDRESS') && s.stack.at(-1)?.k === 'param') {
    const v = pop(s)[0] as Extract<Val, { k: 'param' }>;
    push(s, { ...v, t: { prim: 'address' }, whole: false });
    return [s];
  }
  if ((op === 'IMPLICIT_ACCOUNT' || op === 'ADDRESS') && s.stack.at(-1)?.k === 'st') {
    // the address of a stored key hash or contract is the same field, seen as an address
    const v = pop(s)[0] as Extract<Val, { k: 'st' }>;
    push(s, { ...v, t: { prim: 'address' } });
    return [s];
  }
  if (UNARY.has(op)) {
    pop(s);
    if (op === 'SET_DELEGATE') record(s, 'set_delegate', p);
    else if (op === 'EMIT') record(s, 'emit_events', p);
    else if (op === 'CONTRACT') record(s, 'contract', p);
    push(s, UNKNOWN);
    return [s];
  }
  if (BINARY.has(op)) {
    pop(s, 2);
    if (op === 'TICKET' || op === 'TICKET_DEPRECATED') record(s, 'mint_tickets', p);
    push(s, UNKNOWN);
    return [s];
  }
  if (TERNARY.has(op)) {
    pop(s, 3);
    push(s, UNKNOWN);
    return [s];
  }
  // a macro (CMPEQ, IFCMPNEQ, ASSERT_CMPEQ, DUUP, PAPAIR…): expanded by the parser, run in its place
  if (/^[A-Z_]+$/.test(op)) {
    let expanded: Micheline;
    try {
      expanded = expandMicheline(p);
    } catch {
      throw new Lost(`unknown instruction ${op}`);
    }
    if (isPrim(expanded) && expanded.prim === op) throw new Lost(`unknown instruction ${op}`);
    // the expansion's nodes are located at the macro
    const at = ctx.where.get(p);
    if (at) walkAll(expanded, (n) => ctx.where.set(n, at));
    return run(expanded, [s], ctx);
  }
  throw new Lost(`unknown instruction ${op}`);
}

function walkAll(root: Micheline, fn: (n: object) => void): void {
  const stack: Micheline[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    fn(n);
    const kids = Array.isArray(n) ? n : isPrim(n) ? n.args : undefined;
    if (kids) for (const k of kids) stack.push(k);
  }
}

// ---------------------------------------------------------------------------------------------------------
// storage: reading a field's value, naming written fields

/** The halves of a pair value (`Pair a b c`, a comb sequence `{a; b; c}`). */
function pairValues(v: Micheline): [Micheline, Micheline] | undefined {
  const items = Array.isArray(v) ? v : isPrim(v) && v.prim === 'Pair' ? v.args : undefined;
  if (!items || items.length < 2) return undefined;
  return [items[0]!, items.length > 2 ? { prim: 'Pair', args: items.slice(1) } : items[1]!];
}
/** The address at a storage path (`.0.1…`) of the storage value, when it holds one. */
function addressAt(storage: Micheline | undefined, path: string): string | undefined {
  if (!storage) return undefined;
  let v: Micheline | undefined = storage;
  for (const step of path.split('.').filter((x) => x !== '')) {
    const halves: [Micheline, Micheline] | undefined = v ? pairValues(v) : undefined;
    if (!halves) return undefined;
    v = halves[step === '0' ? 0 : 1];
  }
  if (v && isString(v) && /^(tz[1-4]|KT1|sr1)/.test(v.string)) return v.string;
  if (v && isBytes(v)) return bytesAsAddress(v.bytes);
  return undefined;
}

/** Labels of the named fields at and under a storage type node (itself first). */
function labelsUnder(t: Micheline | undefined, path: string): string[] {
  const own = annotOf(t);
  if (own) return [own];
  const [a, b] = pairTypes(t);
  if (a === undefined) return [`storage${path}`];
  return [...labelsUnder(a, `${path}.0`), ...labelsUnder(b, `${path}.1`)];
}

/**
 * Storage fields the final storage value `v` may have changed against the stored one; null when a part of it
 * comes from code outside the script (a stored lambda's result): what that code writes is not known.
 */
function writtenFields(v: Val, t: Micheline | undefined, path: string): string[] | null {
  if (isPrim(t) && t.prim === 'unit') return [];
  if (v.k === 'opaque') return null;
  if (v.k === 'st' && !v.elem && v.path === path) return [];
  if (v.k === 'pair') {
    const [a, b] = pairTypes(t);
    if (a !== undefined) {
      const l = writtenFields(v.a, a, `${path}.0`);
      const r = writtenFields(v.b, b, `${path}.1`);
      return l && r ? [...l, ...r] : null;
    }
  }
  return labelsUnder(t, path);
}

// ---------------------------------------------------------------------------------------------------------
// the summary

const CAP_SENTENCE: Partial<Record<Capability, string>> = {
  transfer_tez: 'transfers tez',
  call_contracts: 'calls other contracts',
  set_delegate: 'changes the delegate',
  originate: 'originates contracts',
  mint_tickets: 'mints tickets',
  emit_events: 'emits events',
  exec_stored_lambda: 'runs code stored in its storage',
  exec_parameter_lambda: 'runs code given in its parameter',
};

function section(script: Micheline[], name: string): Micheline | undefined {
  const s = script.find((x) => isPrim(x) && x.prim === name);
  return s && isPrim(s) ? s.args?.[0] : undefined;
}

/**
 * Analyses a script (its sections as the node gives them: parameter, storage, code, views) and, when known,
 * its current storage value. Never throws: what it cannot follow is `unknown`.
 */
export function analyseSecurity(script: Micheline[], storage?: Micheline): SecuritySummary {
  const started = Date.now();
  // where every node is: its path, and its line in the Code tab's text
  const { where, lineOf } = locateNodes(script);
  const evidenceOf = (node: object): Evidence => {
    const at = where.get(node);
    const p = node as Micheline;
    const name = isPrim(p) ? p.prim : Array.isArray(p) ? '{…}' : 'value';
    return { instruction: name, path: at?.path ?? '?', line: lineOf(node) };
  };

  const paramType = section(script, 'parameter');
  const storageType = section(script, 'storage') ?? { prim: 'unit' };
  const code = section(script, 'code');
  const constants = (() => {
    try {
      return globalConstantsOf(script);
    } catch {
      return [];
    }
  })();
  const ctx: Ctx = {
    steps: 0,
    deadline: started + MAX_MILLIS,
    truncated: false,
    where,
    storageType,
    ...(storage ? { storage } : {}),
    dispatch: new Map(),
  };

  let leaves: { name: string; path: string }[] = [{ name: 'default', path: '' }];
  try {
    if (paramType)
      leaves = entrypointLeaves(buildTypeTree(paramType)).map((l) => ({ name: l.name, path: l.path }));
  } catch {
    /* an odd parameter type: one entrypoint */
  }

  const initial: State = {
    stack: [
      {
        k: 'pair',
        a: { k: 'param', t: paramType, path: '', whole: true },
        b: { k: 'st', t: storageType, path: '', label: annotOf(storageType) ?? 'storage' },
      },
    ],
    ep: '',
    guards: new Map(),
    effects: [],
  };
  let finals: State[] = [];
  let failure: string | undefined;
  try {
    finals = code === undefined ? [{ ...initial, lost: 'no code section' }] : run(code, [initial], ctx);
  } catch (e) {
    failure = e instanceof Error ? e.message : String(e);
    finals = [{ ...initial, lost: 'the analysis failed' }];
  }

  const entrypoints: EntrypointSummary[] = leaves.map((leaf) => {
    const mine = finals.filter((s) => leaf.path.startsWith(s.ep) || s.ep.startsWith(leaf.path));
    const evidence: Evidence[] = [];
    const dispatchNode = ctx.dispatch.get(leaf.path);
    if (dispatchNode) evidence.push(evidenceOf(dispatchNode));
    if (mine.length === 0)
      return {
        name: leaf.name,
        who: 'nobody' as Who,
        can: [],
        writes: [],
        evidence,
        reason: 'every path fails',
      };
    const lost = mine.find((s) => s.lost);
    const effects = new Set<Effect>();
    for (const m of mine) for (const e of m.effects) effects.add(e);
    const can = [
      ...new Set(
        [...effects]
          .map((e) => e.cap)
          .filter((c): c is Capability => c !== 'contract' && c !== 'check_signature' && c !== 'threshold'),
      ),
    ];
    for (const e of effects) if (e.cap !== 'threshold') evidence.push(evidenceOf(e.node));
    let writes: string[] | null = [];
    for (const m of mine) {
      const top = m.stack[m.stack.length - 1];
      if (m.lost || m.stack.length !== 1 || !top) {
        writes = null;
        break;
      }
      const st = top.k === 'pair' ? top.b : top;
      const ws = writtenFields(st, storageType, '');
      if (ws === null) {
        writes = null;
        break;
      }
      for (const w of ws) if (!writes.includes(w)) writes.push(w);
    }
    const base = { name: leaf.name, can, writes, evidence };
    // guards held on every surviving path
    const common = [...mine[0]!.guards.entries()].filter(([k]) => mine.every((m) => m.guards.has(k)));
    if (common.length > 0) {
      const [key, g] = common[0]!;
      evidence.unshift(evidenceOf(g.node));
      const { node: _node, ...admin } = g;
      const address =
        admin.hardcoded || admin.set ? undefined : addressAt(storage, key.slice(key.indexOf(':') + 1));
      return { ...base, who: 'admin' as Who, admin: { ...admin, ...(address ? { address } : {}) } };
    }
    const sig = [...effects].find((e) => e.cap === 'check_signature' && e.field);
    if (sig) {
      const threshold = [...effects].find((e) => e.cap === 'threshold');
      return {
        ...base,
        who: 'multisig' as Who,
        multisig: { keys_field: sig.field!, ...(threshold ? { threshold_field: threshold.field! } : {}) },
      };
    }
    if (lost) return { ...base, who: 'unknown' as Who, reason: lost.lost! };
    const odd = mine.find((m) => m.oddSender);
    if (odd) {
      evidence.unshift(evidenceOf(odd.oddSender!));
      return {
        ...base,
        who: 'unknown' as Who,
        reason: 'compares SENDER or SOURCE with a value that is not a plain storage field',
      };
    }
    return { ...base, who: 'anyone' as Who };
  });

  // multisig thresholds and key counts from the storage value
  for (const e of entrypoints) {
    if (!e.multisig || !storage) continue;
    const m = e.multisig;
    const find = (label: string): Micheline | undefined => valueAtLabel(storageType, storage, label);
    const th = m.threshold_field ? find(m.threshold_field) : undefined;
    if (th && isInt(th)) m.threshold = Number(th.int);
    const keys = find(m.keys_field);
    if (Array.isArray(keys)) m.keys = keys.length;
  }

  // findings
  const findings: Finding[] = [];
  const adminsByField = new Map<string, AdminField>();
  for (const e of entrypoints) if (e.admin) adminsByField.set(e.admin.field, e.admin);
  const admins = [...adminsByField.values()];
  const fieldRef = (f: string): string => (f === 'storage' || f.startsWith('storage.') ? f : `%${f}`);
  const whoText = (e: EntrypointSummary): string =>
    e.who === 'admin'
      ? e.admin!.hardcoded
        ? `${e.admin!.hardcoded.join(', ')} (written in the code)`
        : e.admin!.set
          ? `the addresses in ${fieldRef(e.admin!.field)}`
          : `the address at ${fieldRef(e.admin!.field)}${e.admin!.address ? ` (${e.admin!.address})` : ''}`
      : e.who === 'multisig'
        ? `a multisig of the keys at %${e.multisig!.keys_field}${e.multisig!.threshold !== undefined ? ` (threshold ${e.multisig!.threshold})` : ''}`
        : e.who;

  const storedLambdas = new Map<string, { field: string; written_by: string[]; evidence: Evidence[] }>();
  for (const e of entrypoints)
    for (const m of finals.filter((s) => leafMatches(leaves, e.name, s.ep)))
      for (const ef of m.effects)
        if (ef.cap === 'exec_stored_lambda' && ef.field) {
          const l = storedLambdas.get(ef.field) ?? { field: ef.field, written_by: [], evidence: [] };
          if (!l.evidence.some((x) => x.path === evidenceOf(ef.node).path))
            l.evidence.push(evidenceOf(ef.node));
          storedLambdas.set(ef.field, l);
        }
  let upgradable: boolean | null = false;
  const writers = (field: string) => entrypoints.filter((e) => e.writes?.includes(field));
  const unknownWriters = entrypoints.filter((e) => e.writes === null);
  for (const l of storedLambdas.values()) {
    l.written_by = writers(l.field).map((e) => e.name);
    const by = writers(l.field).map((e) => `${e.name} (${whoText(e)})`);
    findings.push({
      kind: 'stored_lambda',
      sentence:
        `Runs code stored in ${fieldRef(l.field)}: the contract's logic can change` +
        (by.length
          ? `; ${by.join(', ')} can replace it.`
          : unknownWriters.length
            ? '; who can replace it is not known.'
            : ', but no entrypoint writes it.'),
      evidence: l.evidence,
    });
    if (by.length) upgradable = true;
    else if (unknownWriters.length && upgradable === false) upgradable = null;
  }
  if (constants.length) {
    findings.push({
      kind: 'global_constant',
      sentence: `Uses ${constants.length} global constant${constants.length > 1 ? 's' : ''} (${constants.join(', ')}): code registered on chain, fixed by its hash.`,
      evidence: [],
    });
  }
  const replaceable: SecuritySummary['upgrade']['admin_replaceable'] = [];
  for (const a of admins)
    for (const w of writers(a.field)) {
      replaceable.push({ field: a.field, entrypoint: w.name, who: w.who });
      findings.push({
        kind: 'admin_replaceable',
        sentence: `${fieldRef(a.field)} can be replaced through ${w.name}, callable by ${whoText(w)}.`,
        evidence: w.evidence.slice(0, 1),
      });
    }
  for (const e of entrypoints) {
    const caps = e.can.map((c) => CAP_SENTENCE[c]).filter(Boolean);
    if (e.who === 'admin' || e.who === 'multisig')
      findings.push({
        kind: 'privileged',
        sentence: `${e.name} can only be called by ${whoText(e)}${caps.length ? `; it ${caps.join(', ')}` : ''}.`,
        evidence: e.evidence,
      });
    else if (e.who === 'nobody')
      findings.push({
        kind: 'nobody',
        sentence: `${e.name} fails on every path: nobody can call it.`,
        evidence: e.evidence,
      });
    else if (e.who === 'unknown')
      findings.push({
        kind: 'unknown',
        sentence: `Who may call ${e.name} is not known: ${e.reason ?? 'not analysed'}.`,
        evidence: e.evidence,
      });
    if (e.who === 'anyone' || e.who === 'unknown') {
      for (const [cap, kind] of [
        ['transfer_tez', 'transfer_tez'],
        ['originate', 'originate'],
        ['mint_tickets', 'mint_tickets'],
        ['exec_parameter_lambda', 'parameter_lambda'],
      ] as const)
        if (e.can.includes(cap))
          findings.push({
            kind,
            sentence: `${e.name} (${e.who === 'anyone' ? 'callable by anyone' : 'caller not known'}) ${CAP_SENTENCE[cap]}.`,
            evidence: e.evidence.filter((x) => x.instruction !== '{…}'),
          });
    }
  }
  const delegators = entrypoints.filter((e) => e.can.includes('set_delegate'));
  for (const e of delegators)
    findings.push({
      kind: 'set_delegate',
      sentence: `${e.name} changes the contract's delegate (SET_DELEGATE), callable by ${whoText(e)}.`,
      evidence: e.evidence.filter((x) => x.instruction === 'SET_DELEGATE'),
    });

  const complete = !ctx.truncated && failure === undefined && !finals.some((s) => s.lost);
  // the headline
  const privileged = entrypoints.filter((e) => e.who === 'admin' || e.who === 'multisig');
  let headline: string;
  if (upgradable) {
    const l = [...storedLambdas.values()].find((x) => x.written_by.length)!;
    const w = entrypoints.find((e) => e.name === l.written_by[0])!;
    headline =
      w.who === 'admin' && w.admin?.address
        ? `Upgradable by admin ${w.admin.address}`
        : w.who === 'admin'
          ? `Upgradable by the address at %${w.admin!.field}`
          : w.who === 'multisig'
            ? `Upgradable by a multisig (%${w.multisig!.keys_field})`
            : w.who === 'anyone'
              ? `Upgradable by anyone (through ${w.name})`
              : `Upgradable (through ${w.name}, caller not known)`;
  } else if (upgradable === null) headline = 'Runs stored code; who can change it is not known';
  else if (privileged.length)
    headline = `Immutable; privileged entrypoints: ${privileged.map((e) => `${e.name} (${e.who})`).join(', ')}`;
  else if (entrypoints.every((e) => e.who === 'nobody')) headline = 'Immutable; every entrypoint fails';
  else if (entrypoints.some((e) => e.who === 'unknown')) headline = 'Immutable code; some callers not known';
  else headline = 'Immutable; no privileged entrypoint';

  return {
    headline,
    upgradable: complete || upgradable ? upgradable : null,
    admins,
    entrypoints,
    upgrade: {
      stored_lambdas: [...storedLambdas.values()],
      global_constants: constants,
      set_delegate: delegators.length > 0,
      admin_replaceable: replaceable,
      code_migrations: [],
    },
    findings,
    complete,
    steps: ctx.steps,
  };
}

function leafMatches(leaves: { name: string; path: string }[], name: string, ep: string): boolean {
  const leaf = leaves.find((l) => l.name === name);
  return !!leaf && (leaf.path.startsWith(ep) || ep.startsWith(leaf.path));
}

/** The value of the storage field annotated `label` (pairs only, the first match). */
function valueAtLabel(
  t: Micheline | undefined,
  v: Micheline | undefined,
  label: string,
): Micheline | undefined {
  if (!t || !v) return undefined;
  if (annotOf(t) === label) return v;
  const [a, b] = pairTypes(t);
  const halves = pairValues(v);
  if (a === undefined || !halves) return undefined;
  return valueAtLabel(a, halves[0], label) ?? valueAtLabel(b, halves[1], label);
}
