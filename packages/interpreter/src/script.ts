/**
 * Loading a contract script: Michelson text or Micheline JSON, macros expanded (with Octez's forms),
 * global constants resolved through the chain context, sections split, code typechecked once (cached).
 */
import { Parser } from '@taquito/michel-codec';
import type { ChainContext } from './context';
import { MichelsonError, staticError, syntacticConstantError } from './errors';
import { fixMacroExpansion } from './macros';
import { encodeExpr } from './pack';
import { locationOf } from './syntactic-constants';
import { typecheckCode } from './typecheck-patches';
import type { StaticVerdict } from './typecheck-patches';
import type { TypeIssue } from './type-positions';
import { octezTrace, sectionIssue } from './type-positions';
import type { Expr, ExprPrim, Ty } from './types';
import { isPrim, memoMismatch, pairT, showTy, toTy, tyEq } from './types';

export interface LoadedScript {
  /** The expanded script (sections), used as the root for Octez locations. */
  script: Expr[];
  parameter: Expr;
  parameterTy: Ty;
  storageTy: Ty;
  code: Expr[];
  views: Record<string, { input: Expr; output: Expr; code: Expr }>;
  /** Binary size of the script in bytes (for gas and storage accounting). */
  size: number;
  /** Typechecked in legacy mode (deprecated instructions allowed). */
  legacy: boolean;
}

const MAX_CONSTANT_ROUNDS = 100;

function findConstants(e: Expr, out: Set<string>): void {
  if (Array.isArray(e)) e.forEach((x) => findConstants(x, out));
  else if (isPrim(e)) {
    if (e.prim === 'constant') {
      const h = e.args?.[0];
      if (h && !Array.isArray(h) && 'string' in h) out.add(h.string);
    }
    (e.args ?? []).forEach((x) => findConstants(x, out));
  }
}

/** Parses a script, resolving `constant "expr…"` through `chain.globalConstant` (recursively). */
export function parseScript(
  src: string | Expr,
  chain: ChainContext = {},
  table: Record<string, Expr> = {},
): Expr[] {
  for (let round = 0; round < MAX_CONSTANT_ROUNDS; round++) {
    const parser = new Parser({ expandMacros: true, expandGlobalConstant: table });
    let parsed: Expr;
    try {
      parsed = (typeof src === 'string' ? parser.parseScript(src) : parser.parseJSON(src)) as unknown as Expr;
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (/constant/i.test(msg) || /expr[1-9A-Za-z]{50}/.test(msg)) {
        // fall through to constant discovery below
        parsed = (typeof src === 'string'
          ? new Parser({ expandMacros: false }).parseScript(src)
          : new Parser({ expandMacros: false }).parseJSON(src)) as unknown as Expr;
      } else throw staticError('invalid_script', `cannot parse script: ${msg}`);
    }
    if (parsed === null) throw staticError('invalid_script', 'empty script');
    const missing = new Set<string>();
    findConstants(parsed, missing);
    const unknown = [...missing].filter((h) => !(h in table));
    if (unknown.length === 0) {
      if (missing.size > 0) throw staticError('invalid_script', 'global constants could not be expanded');
      return fixMacroExpansion(Array.isArray(parsed) ? parsed : [parsed]);
    }
    for (const h of unknown) {
      const value = chain.globalConstant?.(h) ?? null;
      if (value === null)
        throw new MichelsonError('ill_typed', `unknown global constant ${h}`, {
          detail: 'unregistered_global_constant',
        });
      table[h] = value;
    }
  }
  throw staticError('invalid_script', 'global constants nested too deeply');
}

function containsPrim(e: Expr, prim: string): boolean {
  if (Array.isArray(e)) return e.some((x) => containsPrim(x, prim));
  return isPrim(e) && (e.prim === prim || (e.args ?? []).some((x) => containsPrim(x, prim)));
}

function section(script: Expr[], name: string): Expr {
  const all = script.filter((x): x is ExprPrim => isPrim(x) && x.prim === name);
  if (all.length !== 1)
    throw staticError(
      'invalid_script',
      all.length === 0 ? `missing ${name} section` : `duplicate ${name} section`,
    );
  const arg = all[0]?.args?.[0];
  if (arg === undefined) throw staticError('invalid_script', `empty ${name} section`);
  return arg;
}

const cache = new Map<string, { loaded: LoadedScript; constants: Record<string, string> }>();
const CACHE_MAX = 200;
const identityCache = new WeakMap<object, { L?: string; S?: string }>();

/**
 * Loads and typechecks a script (results cached by content). `legacy` (default true) typechecks like
 * Octez does for contracts already on chain (e.g. SUB on mutez from before Ithaca); originations should
 * pass `legacy: false`.
 */
export function loadScript(
  src: string | Expr,
  chain: ChainContext = {},
  opts: { legacy?: boolean } = {},
): LoadedScript {
  const legacy = opts.legacy ?? true;
  if (src === null || src === undefined) throw staticError('invalid_script', 'no script given');
  const mode = legacy ? 'L' : 'S';
  // Same object as before (callers keep scripts immutable): skip serialising it to find the cache entry.
  const byObject = typeof src === 'object' ? identityCache.get(src)?.[mode] : undefined;
  const key = byObject ?? mode + (typeof src === 'string' ? src : JSON.stringify(src));
  if (typeof src === 'object' && !byObject)
    identityCache.set(src, { ...identityCache.get(src), [mode]: key });
  const hit = cache.get(key);
  // A cached script that used global constants is reused only if the chain still has the same ones.
  if (
    hit &&
    Object.entries(hit.constants).every(([h, v]) => JSON.stringify(chain.globalConstant?.(h) ?? null) === v)
  )
    return hit.loaded;
  const table: Record<string, Expr> = {};
  const script = parseScript(src, chain, table);
  const parameter = section(script, 'parameter');
  const storage = section(script, 'storage');
  const codeE = section(script, 'code');
  const code = Array.isArray(codeE) ? codeE : [codeE];
  // Octez parse_ty: sapling_transaction_deprecated only in legacy mode (Deprecated_instruction, since Jakarta).
  if (!legacy && containsPrim(script, 'sapling_transaction_deprecated'))
    throw staticError('deprecated_instruction', 'sapling_transaction_deprecated is deprecated');
  // Octez parse_code: the parameter passable, the storage storable, views' types, each traced by ill_formed_type.
  const sections = sectionIssue(script, script, script, legacy);
  if (sections) throw issueError(sections, script);
  const parameterTy = toTy(parameter);
  const storageTy = toTy(storage);
  const views: LoadedScript['views'] = {};
  for (const v of script) {
    if (!isPrim(v) || v.prim !== 'view') continue;
    const [n, input, output, body] = v.args ?? [];
    if (!n || Array.isArray(n) || !('string' in n) || !input || !output || !body)
      throw staticError('invalid_script', 'malformed view');
    if (n.string in views) throw staticError('duplicated_view_name', `duplicate view ${n.string}`);
    views[n.string] = { input, output, code: body };
    const viewCode = Array.isArray(body) ? body : [body];
    const checked = typecheckCode(viewCode, [pairT(toTy(input), storageTy)], { legacy });
    if (checked.kind === 'error' && checked.trace) throw traceError(checked, script);
    if (checked.kind === 'error' && checked.syntactic)
      throw syntacticConstantError(
        'ill_typed_contract',
        checked.syntactic,
        locationOf(script, checked.syntactic.node),
        script,
      );
    if (checked.kind === 'error') throw staticError('ill_typed_view', `view ${n.string}: ${checked.message}`);
    if (checked.kind === 'ok' && checked.output !== 'failed') {
      const out = checked.output;
      if (out.length !== 1 || !tyEq(out[0] as Ty, toTy(output)))
        throw staticError('bad_view_result', `view ${n.string} returns a bad stack`);
    }
  }
  const verdict = typecheckCode(code, [pairT(parameterTy, storageTy)], { selfParameter: parameter, legacy });
  if (verdict.kind === 'error' && verdict.trace) throw traceError(verdict, script);
  if (verdict.kind === 'error' && verdict.syntactic)
    throw syntacticConstantError(
      'ill_typed_contract',
      verdict.syntactic,
      locationOf(script, verdict.syntactic.node),
      script,
    );
  if (verdict.kind === 'error' && verdict.memoSizes)
    throw new MichelsonError('ill_typed', verdict.message, {
      detail: 'inconsistent_memo_sizes',
      memoSizes: verdict.memoSizes,
    });
  if (verdict.kind === 'error') throw staticError('ill_typed_contract', verdict.message);
  if (verdict.kind === 'ok' && verdict.output !== 'failed') {
    const expected = pairT({ prim: 'list', args: [{ prim: 'operation', args: [] }] }, storageTy);
    const out = verdict.output;
    if (out.length !== 1 || !tyEq(out[0] as Ty, expected)) {
      const e = staticError(
        'bad_return',
        `code returns ${out.map(showTy).join(', ')}, expected ${showTy(expected)}`,
      );
      // Octez: ty_eq (returned) (expected) traces the memo sizes when they are the difference
      const memo = out.length === 1 ? memoMismatch(out[0] as Ty, expected) : null;
      if (memo) e.data.memoSizes = memo;
      throw e;
    }
  }
  const loaded: LoadedScript = {
    legacy,
    script,
    parameter,
    parameterTy,
    storageTy,
    code,
    views,
    size: encodeExpr(script).length,
  };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, {
    loaded,
    constants: Object.fromEntries(Object.entries(table).map(([h, v]) => [h, JSON.stringify(v)])),
  });
  return loaded;
}

/** A section refusal (its trace starts with its own toplevel error, ill_formed_type). */
function issueError(issue: TypeIssue, script: Expr[]): MichelsonError {
  return new MichelsonError('ill_typed', issue.message, {
    detail: 'ill_formed_type',
    trace: octezTrace(issue.trace, (n) => locationOf(script, n)),
  });
}

/** A refusal in the code: Octez's `ill_typed_contract` (the script, an empty type map), then its trace. */
function traceError(verdict: Extract<StaticVerdict, { kind: 'error' }>, script: Expr[]): MichelsonError {
  return new MichelsonError('ill_typed', verdict.message, {
    detail: 'ill_typed_contract',
    trace: [
      {
        id: 'michelson_v1.ill_typed_contract',
        ill_typed_code: JSON.parse(JSON.stringify(script)) as Expr,
        type_map: [],
      },
      ...octezTrace(verdict.trace ?? [], (n) => locationOf(script, n)),
    ],
  });
}
