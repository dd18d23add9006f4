// What the interpreter sees of the sandbox chain (contracts, big maps, global constants, the
// address registry), and small helpers over stored scripts.
import { parseScript, toTy, type ChainContext, type ContractInfo, type Expr } from '@michelscope/interpreter';
import type { State } from './state';
import type { Listings } from './voting';

type Prim = { prim: string; args?: Expr[]; annots?: string[] };

function isPrim(e: unknown): e is Prim {
  return !!e && typeof e === 'object' && !Array.isArray(e) && typeof (e as Prim).prim === 'string';
}

/**
 * A stored script with its global constants expanded (the node stores the code as originated,
 * `constant "expr…"` references included).
 */
export function expandedCode(state: State, code: unknown): Expr[] {
  const plain = code && typeof code === 'object' ? plainCode.get(code) : undefined;
  if (plain !== undefined) return plain ? (code as Expr[]) : expand(state, code);
  const isPlain = Array.isArray(code) && !JSON.stringify(code).includes('"constant"');
  if (code && typeof code === 'object') plainCode.set(code, isPlain);
  return isPlain ? (code as Expr[]) : expand(state, code);
}

/** Whether a stored code object needs no constant expansion (computed once per object). */
const plainCode = new WeakMap<object, boolean>();

function expand(state: State, code: unknown): Expr[] {
  try {
    return parseScript(code as Expr, { globalConstant: (h) => state.constant(h) ?? null });
  } catch {
    return Array.isArray(code) ? (code as Expr[]) : [];
  }
}

/** The `parameter`, `storage` and `view` sections of a stored script (Micheline array). */
export function scriptSections(code: Expr[]): {
  parameter?: Expr;
  storage?: Expr;
  views: Record<string, { input: Expr; output: Expr; code: Expr }>;
} {
  const out: ReturnType<typeof scriptSections> = { views: {} };
  for (const s of code) {
    if (!isPrim(s)) continue;
    if (s.prim === 'parameter') out.parameter = s.args?.[0];
    else if (s.prim === 'storage') out.storage = s.args?.[0];
    else if (s.prim === 'view') {
      const [name, input, output, body] = s.args ?? [];
      if (name && !Array.isArray(name) && 'string' in name && input && output && body) {
        out.views[name.string] = { input, output, code: body };
      }
    }
  }
  return out;
}

/** Entrypoints of a parameter type: every `%name` reachable through `or`, plus `default`. */
export function entrypointsOf(parameter: Expr): Record<string, Expr> {
  const out: Record<string, Expr> = {};
  // The entrypoint's own %name is dropped; field annotations inside its type are kept.
  const strip = (e: Prim): Expr => {
    const annots = (e.annots ?? []).filter((a) => !a.startsWith('%'));
    return { prim: e.prim, ...(e.args ? { args: e.args } : {}), ...(annots.length > 0 ? { annots } : {}) };
  };
  const walk = (e: Expr, top: boolean) => {
    if (!isPrim(e)) return;
    const name = e.annots?.find((a) => a.startsWith('%'))?.slice(1);
    if (name && !(top && name === 'root')) out[name] = strip(e);
    if (e.prim === 'or') for (const a of e.args ?? []) walk(a, false);
  };
  walk(parameter, true);
  return out;
}

export interface ContextOptions {
  /** Gives the address of the next contract originated in the current operation group. */
  nextOriginatedAddress?: () => string;
  /** The voting listings the context reads (VOTING_POWER, TOTAL_VOTING_POWER); none: every power is 0. */
  listings?: () => Listings;
  /** Told of each address INDEX_ADDRESS adds to the registry (a receipt's `address_registry_diff`). */
  onAddressIndexed?: (address: string, index: bigint) => void;
}

export function chainContext(state: State, opts: ContextOptions = {}): ChainContext {
  return {
    contract(address: string): ContractInfo | null {
      const c = state.contract(address);
      if (!c) return null;
      const s = scriptSections(expandedCode(state, c.code));
      if (!s.parameter) return null;
      return {
        parameter: s.parameter,
        ...(s.storage ? { storageType: s.storage } : {}),
        storage: c.storage,
        balance: BigInt(c.balance),
        views: s.views,
      };
    },
    bigMapTypes(id: bigint) {
      const b = state.bigMap(String(id));
      if (!b) return null;
      return { key: toTy(b.key_type), value: toTy(b.value_type) };
    },
    saplingMemoSize(id: bigint) {
      return state.saplingState(String(id))?.memo_size ?? null;
    },
    bigMapGet(id: bigint, _key: Expr, keyHash: string) {
      return state.bigMapEntry(String(id), keyHash)?.value ?? null;
    },
    globalConstant(hash: string) {
      return state.constant(hash) ?? null;
    },
    ...(opts.nextOriginatedAddress ? { originatedAddress: () => opts.nextOriginatedAddress!() } : {}),
    addressIndex(address: string, create: boolean) {
      const found = state.addressIndex(address, false);
      if (found !== null || !create) return found;
      const index = state.addressIndex(address, true)!;
      opts.onAddressIndexed?.(address, index);
      return index;
    },
    ...(opts.listings
      ? {
          votingPower: (keyHash: string) => opts.listings!().power.get(keyHash) ?? 0n,
          totalVotingPower: () => opts.listings!().total,
        }
      : {}),
  };
}
