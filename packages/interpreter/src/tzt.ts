/**
 * Runner for TZT unit tests (the Octez/RV reference suite format): `code`, `input`, `output` and the
 * optional environment fields. Returns pass/fail with a reason; never throws on malformed files.
 */
import { Parser } from '@taquito/michel-codec';
import type { ChainContext, ContractInfo } from './context';
import { defaultEnv } from './context';
import type { DataContext } from './data';
import { packKeyHex, parseData, unparse } from './data';
import { valuesEqual } from './equality';
import { MichelsonError } from './errors';
import type { StepListener } from './interpreter';
import { Interpreter } from './interpreter';
import { matchOperation } from './tzt-operations';
import { fixMacroExpansion } from './macros';
import { scriptExprHash } from './pack';
import { typecheckCode } from './typecheck-patches';
import type { Expr, ExprPrim, Ty } from './types';
import { isPrim, showTy, toTy, tyEq } from './types';
import type { BigMapV, V } from './values';
import { ScriptRejected } from './values';
import './instructions/register-all';

export interface TztResult {
  pass: boolean;
  /** Why it failed, or what was checked. */
  reason: string;
  /** What the code did, when it ran (tests compare the compiled and stepping paths on it). */
  run?: TztRun;
}

export interface TztRun {
  consumedMilligas: number;
  /** The stack at the end (top first), when the code ended. */
  stack?: Expr[];
  error?: { kind: string; message: string; location?: number; ranOutAt?: number; with?: Expr };
}

const TZT_GAS_LIMIT = 200_000_000; // milligas: enough for every real test, quick to exhaust in endless loops

function field(items: ExprPrim[], name: string): Expr | undefined {
  return items.find((x) => x.prim === name)?.args?.[0];
}
function asString(e: Expr | undefined): string | undefined {
  return e && !Array.isArray(e) && 'string' in e ? e.string : undefined;
}
function asBig(e: Expr | undefined): bigint | undefined {
  return e && !Array.isArray(e) && 'int' in e ? BigInt(e.int) : undefined;
}

type Expected =
  | { kind: 'stack'; items: { t: Ty; e: Expr }[] }
  | { kind: 'failed'; with: Expr }
  | {
      kind: 'error';
      error: 'overflow' | 'mutez_overflow' | 'mutez_underflow' | 'ill_typed' | 'gas_exhausted';
    };

function parseExpected(e: Expr): Expected {
  if (Array.isArray(e)) return { kind: 'stack', items: e.map(stackElt) };
  if (!isPrim(e)) throw new Error('bad output');
  switch (e.prim) {
    case 'Failed':
      return { kind: 'failed', with: (e.args ?? [])[0] as Expr };
    case 'MutezOverflow':
      return { kind: 'error', error: 'mutez_overflow' };
    case 'MutezUnderflow':
      return { kind: 'error', error: 'mutez_underflow' };
    case 'GeneralOverflow':
    case 'Overflow':
      return { kind: 'error', error: 'overflow' };
    case 'StaticError':
      return { kind: 'error', error: 'ill_typed' };
    case 'Gas_exhaustion':
      return { kind: 'error', error: 'gas_exhausted' };
  }
  throw new Error(`unknown output form ${e.prim}`);
}

function stackElt(e: Expr): { t: Ty; e: Expr } {
  if (!isPrim(e) || e.prim !== 'Stack_elt' || e.args?.length !== 2) throw new Error('expected Stack_elt');
  return { t: toTy(e.args[0] as Expr), e: e.args[1] as Expr };
}

/** Parses a TZT file and runs it. */
export interface TztOptions {
  /** Octez legacy mode (the suite's legacy/ folder): accepts SUB on mutez. */
  legacy?: boolean;
  /** Milligas available (default 200,000,000). */
  gasLimit?: number;
  /** Step events: the code then runs on the stepping path, as trace_code and the debugger do. */
  onStep?: StepListener;
}

export function runTzt(src: string, opts: TztOptions = {}): TztResult {
  let items: ExprPrim[];
  try {
    items = fixMacroExpansion(new Parser({ expandMacros: true }).parseScript(src) as unknown as ExprPrim[]);
    if (!Array.isArray(items)) throw new Error('empty file');
  } catch (e) {
    return { pass: false, reason: `parse error: ${(e as Error).message}` };
  }
  let expected: Expected;
  try {
    const out = field(items, 'output');
    if (out === undefined) return { pass: false, reason: 'no output field' };
    expected = parseExpected(out);
  } catch (e) {
    return { pass: false, reason: `bad output field: ${(e as Error).message}` };
  }
  const probe: Probe = {};
  const withRun = (r: TztResult, e?: unknown): TztResult => {
    if (!probe.it) return r;
    const run: TztRun = { consumedMilligas: probe.it.consumedMilligas };
    try {
      if (probe.stack) run.stack = probe.stack.map((v) => unparse(v)).reverse();
    } catch {
      // a value without a Micheline form: the comparison has the rest
    }
    if (e instanceof MichelsonError) {
      const { location, ranOutAt } = e.data;
      run.error = { kind: e.kind, message: e.message, location, ranOutAt, with: e.data.with };
    } else if (e !== undefined)
      run.error = { kind: 'crash', message: e instanceof Error ? e.message : 'not an Error' };
    return { ...r, run };
  };
  try {
    return withRun(runParsed(items, expected, opts, probe));
  } catch (e) {
    if (e instanceof MichelsonError) return withRun(judgeError(e, expected), e);
    return withRun({ pass: false, reason: `crash: ${(e as Error).stack ?? String(e)}` }, e);
  }
}

interface Probe {
  it?: Interpreter;
  stack?: V[];
}

function judgeError(e: MichelsonError, expected: Expected): TztResult {
  if (expected.kind === 'failed' && e instanceof ScriptRejected) {
    const v = e.value;
    try {
      if (valuesEqual(v, parseData(expected.with, v.t, { allowTickets: true })))
        return { pass: true, reason: 'failed as expected' };
    } catch {
      // fall through: the expected value does not even have the failing value's type
    }
    return { pass: false, reason: `failed with another value (${showTy(v.t)})` };
  }
  if (expected.kind === 'error') {
    const ok = expected.error === e.kind || (expected.error === 'overflow' && e.kind === 'mutez_overflow');
    return ok
      ? { pass: true, reason: e.kind }
      : { pass: false, reason: `expected ${expected.error}, got ${e.kind}: ${e.message}` };
  }
  return { pass: false, reason: `expected ${expected.kind}, got ${e.kind}: ${e.message}` };
}

function runParsed(items: ExprPrim[], expected: Expected, opts: TztOptions, probe: Probe): TztResult {
  const code = field(items, 'code');
  if (code === undefined) return { pass: false, reason: 'no code field' };
  const codeSeq = Array.isArray(code) ? code : [code];
  const selfParameter = field(items, 'parameter') ?? { prim: 'unit' };
  const self = asString(field(items, 'self')) ?? 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';
  const chainIdE = field(items, 'chain_id');

  // Chain context from other_contracts and big_maps.
  const contracts = new Map<string, ContractInfo>();
  contracts.set(self, { parameter: selfParameter });
  for (const c of (field(items, 'other_contracts') as Expr[] | undefined) ?? []) {
    if (isPrim(c) && c.prim === 'Contract')
      contracts.set(asString(c.args?.[0]) ?? '', { parameter: c.args?.[1] as Expr });
  }
  // Extension fields (not read by Octez's runner): `views { Views "KT1" { View name arg ret code } }`
  // and `storages { Storage "KT1" type value }`.
  for (const v of (field(items, 'views') as Expr[] | undefined) ?? []) {
    if (!isPrim(v) || v.prim !== 'Views') continue;
    const addr = asString(v.args?.[0]) ?? '';
    const info = contracts.get(addr) ?? { parameter: { prim: 'unit' } };
    info.views = {};
    for (const d of (v.args?.[1] as Expr[] | undefined) ?? []) {
      if (!isPrim(d) || d.prim !== 'View') continue;
      const [n, input, output, body] = d.args ?? [];
      info.views[asString(n) ?? ''] = { input: input as Expr, output: output as Expr, code: body as Expr };
    }
    contracts.set(addr, info);
  }
  for (const st of (field(items, 'storages') as Expr[] | undefined) ?? []) {
    if (!isPrim(st) || st.prim !== 'Storage') continue;
    const addr = asString(st.args?.[0]) ?? '';
    const info = contracts.get(addr) ?? { parameter: { prim: 'unit' } };
    info.storageType = st.args?.[1];
    info.storage = st.args?.[2];
    contracts.set(addr, info);
  }
  const votingPowers = new Map<string, bigint>();
  for (const x of (field(items, 'voting_power') as Expr[] | undefined) ?? []) {
    if (isPrim(x) && x.prim === 'Elt')
      votingPowers.set(asString(x.args?.[0]) ?? '', asBig(x.args?.[1]) ?? 0n);
  }
  const totalVotingPower = asBig(field(items, 'total_voting_power'));
  // The mockup's address registry already holds the zero key hash at index 0.
  const registry = new Map<string, bigint>([['tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU', 0n]]);
  const bigMaps = new Map<bigint, { key: Ty; value: Ty; entries: Map<string, Expr> }>();
  const chain: ChainContext = {
    contract: (a) => contracts.get(a) ?? null,
    bigMapTypes: (id) => bigMaps.get(id) ?? null,
    bigMapGet: (id, _key, hash) => bigMaps.get(id)?.entries.get(hash) ?? null,
    votingPower: (k) => votingPowers.get(k) ?? 0n,
    totalVotingPower: () => totalVotingPower ?? [...votingPowers.values()].reduce((a, b) => a + b, 0n),
    addressIndex: (a, create) => {
      let i = registry.get(a) ?? null;
      if (i === null && create) {
        i = BigInt(registry.size);
        registry.set(a, i);
      }
      return i;
    },
  };
  let chainId = 'NetXdQprcVkpaWU';
  const env = defaultEnv({
    self,
    selfParameter,
    amount: asBig(field(items, 'amount')) ?? 0n,
    balance: asBig(field(items, 'balance')) ?? 0n,
    level: asBig(field(items, 'level')) ?? 0n,
    sender: asString(field(items, 'sender')) ?? 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU',
    source: asString(field(items, 'source')) ?? 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU',
  });
  const it = new Interpreter({
    env,
    chain,
    gasLimit: opts.gasLimit ?? TZT_GAS_LIMIT,
    root: code,
    legacy: opts.legacy,
    onStep: opts.onStep,
  });
  probe.it = it;
  if (chainIdE !== undefined) {
    const v = it.parseValue(chainIdE, toTy({ prim: 'chain_id' }));
    chainId = (v as Extract<V, { k: 'chain_id' }>).str;
    env.chainId = chainId;
  }
  const nowE = field(items, 'now');
  if (nowE !== undefined)
    env.now = (it.parseValue(nowE, toTy({ prim: 'timestamp' })) as Extract<V, { k: 'num' }>).v;
  const mbt = asBig(field(items, 'min_block_time'));
  if (mbt !== undefined) env.minBlockTime = mbt;

  const dctx: DataContext = { ...it.dataContext(), allowTickets: true };
  for (const b of (field(items, 'big_maps') as Expr[] | undefined) ?? []) {
    if (!isPrim(b) || b.prim !== 'Big_map') continue;
    const [idE, kE, vE, eltsE] = b.args ?? [];
    const key = toTy(kE as Expr);
    const value = toTy(vE as Expr);
    const entries = new Map<string, Expr>();
    parseData(eltsE as Expr, { prim: 'map', args: [key, value] }, dctx); // validates types, order, uniqueness
    for (const x of (eltsE as ExprPrim[]) ?? []) {
      entries.set(scriptExprHash(parseData((x.args ?? [])[0] as Expr, key, dctx)), (x.args ?? [])[1] as Expr);
    }
    bigMaps.set(asBig(idE) ?? -1n, { key, value, entries });
  }

  // Input stack (first element = top).
  const input = ((field(items, 'input') as Expr[] | undefined) ?? []).map(stackElt);
  const values = input.map(({ t, e }) => parseData(e, t, dctx));

  const verdict = typecheckCode(
    codeSeq,
    input.map((x) => x.t),
    { selfParameter, legacy: opts.legacy },
  );
  if (verdict.kind === 'error') throw new MichelsonError('ill_typed', verdict.message);

  const stack = values.slice().reverse();
  it.exec(codeSeq, stack);
  probe.stack = stack;
  if (verdict.kind === 'ok' && verdict.output !== 'failed') {
    const outTypes = verdict.output;
    if (outTypes.length !== stack.length)
      throw new MichelsonError('ill_typed', 'output stack length differs from the static type');
  }

  if (expected.kind !== 'stack')
    return {
      pass: false,
      reason: `expected ${expected.kind === 'failed' ? 'Failed' : expected.error}, but the code succeeded`,
    };
  const got = stack.slice().reverse();
  if (got.length !== expected.items.length)
    return { pass: false, reason: `stack has ${got.length} elements, expected ${expected.items.length}` };
  for (let i = 0; i < got.length; i++) {
    const g = got[i] as V;
    const x = expected.items[i] as { t: Ty; e: Expr };
    if (!tyEq(g.t, x.t))
      return { pass: false, reason: `element ${i}: type ${showTy(g.t)}, expected ${showTy(x.t)}` };
    if (!matches(g, x.e, dctx))
      return { pass: false, reason: `element ${i}: value differs (${showTy(g.t)})` };
  }
  return { pass: true, reason: 'stack matches' };
}

function matches(g: V, e: Expr, dctx: DataContext): boolean {
  if (isPrim(e) && e.prim === '_') return true;
  if (g.k === 'operation') return matchOperation(g, e, dctx);
  if (g.k === 'big_map') return matchBigMap(g, e, dctx);
  return valuesEqual(g, parseData(e, g.t, dctx));
}

function matchBigMap(g: BigMapV, e: Expr, dctx: DataContext): boolean {
  const kt = g.t.args[0] as Ty;
  const vt = g.t.args[1] as Ty;
  let id: bigint | null = null;
  let elts: Expr = e;
  if (isPrim(e) && e.prim === 'Pair') {
    id = asBig(e.args?.[0]) ?? null;
    elts = e.args?.[1] ?? [];
  } else if (!Array.isArray(e) && 'int' in e) {
    id = BigInt(e.int);
    elts = [];
  }
  if (id !== g.id || !Array.isArray(elts)) return false;
  const want = new Map<string, V | null>();
  for (const x of elts) {
    if (!isPrim(x) || x.prim !== 'Elt') return false;
    const k = parseData((x.args ?? [])[0] as Expr, kt, dctx);
    const raw = (x.args ?? [])[1] as Expr;
    const v =
      id === null
        ? parseData(raw, vt, dctx)
        : (parseData(raw, { prim: 'option', args: [vt] }, dctx) as Extract<V, { k: 'option' }>).v;
    want.set(packKeyHex(k), v);
  }
  if (want.size !== g.diff.size) return false;
  for (const [k, entry] of g.diff) {
    if (!want.has(k)) return false;
    const w = want.get(k) ?? null;
    if (w === null || entry.value === null ? w !== entry.value : !valuesEqual(w, entry.value)) return false;
  }
  return true;
}
