// helpers/scripts/normalize_data, as Octez's plugin (src/proto_024_PtTALLiN/lib_plugin/RPC.ml): the type is
// parsed as parse_any_ty does (its errors, with Micheline locations), the data is normalised without being
// typechecked (Normalize_data: what does not match its type is kept as it is).
import { opMappingReverse } from '@taquito/local-forging';
import {
  isBytes,
  isInt,
  isPrim,
  isString,
  normalizeData,
  toMicheline,
  type Micheline,
} from '@michelscope/michelson';
import { COMPARABLE_LEAF } from '@michelscope/interpreter';
import { blockOf } from './block-id';
import { badBody, objectBody, unparsingMode } from './normalize';
import { RpcError } from './operation-types';
import { PROTO_ERROR_PREFIX as P } from './protocol';
import type { ScriptHost } from './script-host';

type Params = Record<string, string>;
type Fields = Record<string, unknown>;

/** An error of Octez's type parser (script_ir_translator.ml parse_ty), its id without the protocol prefix. */
class TypeError_ extends Error {
  constructor(
    readonly id: string,
    readonly fields: Fields,
  ) {
    super(id);
  }
}

/** What parse_ty allows where it is called (parse_any_ty: everything). */
interface Allow {
  lazy: boolean;
  operation: boolean;
  contract: boolean;
  ticket: boolean;
}
const ANY: Allow = { lazy: true, operation: true, contract: true, ticket: true };
const COMPARABLE: Allow = { lazy: false, operation: false, contract: false, ticket: false };
const PASSABLE: Allow = { lazy: true, operation: false, contract: true, ticket: true };

const NULLARY = new Set([
  'unit',
  'int',
  'nat',
  'string',
  'bytes',
  'mutez',
  'bool',
  'key',
  'key_hash',
  'chest_key',
  'chest',
  'timestamp',
  'address',
  'signature',
  'chain_id',
  'never',
  'bls12_381_g1',
  'bls12_381_g2',
  'bls12_381_fr',
]);
/** Those whose other arities are `invalid_arity` (the rest fall to `invalid_primitive`). */
const ARITY_ERRORS: Record<string, number> = {
  ...Object.fromEntries(
    [
      'unit',
      'signature',
      'int',
      'nat',
      'string',
      'bytes',
      'mutez',
      'bool',
      'key',
      'key_hash',
      'timestamp',
      'address',
      'chain_id',
      'operation',
      'never',
    ].map((p) => [p, 0]),
  ),
  set: 1,
  list: 1,
  option: 1,
  contract: 1,
  ticket: 1,
  pair: 2,
  or: 2,
  map: 2,
  lambda: 2,
};
/** The types parse_ty names when it meets something else. */
const EXPECTED_TYPES = [
  'bls12_381_fr',
  'bls12_381_g1',
  'bls12_381_g2',
  'bool',
  'bytes',
  'chain_id',
  'contract',
  'int',
  'key',
  'key_hash',
  'lambda',
  'list',
  'map',
  'mutez',
  'nat',
  'never',
  'operation',
  'option',
  'or',
  'pair',
  'set',
  'signature',
  'string',
  'ticket',
  'timestamp',
  'unit',
];
const TYPE_PRIMS = new Set([
  ...NULLARY,
  ...Object.keys(ARITY_ERRORS),
  'big_map',
  'sapling_state',
  'sapling_transaction',
  'sapling_transaction_deprecated',
  'tx_rollup_l2_address',
]);

/** Octez's primitive namespaces (michelson_v1_primitives.ml `namespace`). */
function namespace(prim: string): string {
  if (['code', 'view', 'parameter', 'storage'].includes(prim)) return 'keyword';
  if (prim === 'constant') return 'constant_hash';
  if (TYPE_PRIMS.has(prim)) return 'type';
  return /^[A-Z][a-z_]/.test(prim) ? 'constant' : 'instruction';
}

function kindOf(e: Micheline): string {
  if (Array.isArray(e)) return 'sequence';
  if (isInt(e)) return 'integer';
  if (isString(e)) return 'string';
  return isBytes(e) ? 'bytes' : 'primitiveApplication';
}

interface Ty {
  prim: string;
  args: Ty[];
}

const comparable = (t: Ty): boolean =>
  COMPARABLE_LEAF.has(t.prim) || (['pair', 'or', 'option'].includes(t.prim) && t.args.every(comparable));

/** parse_ty over a type expression whose nodes are numbered as Octez's canonical Micheline locations. */
class TypeParser {
  private readonly locations = new Map<Micheline, number>();

  constructor(root: Micheline) {
    let n = 0;
    const number = (e: Micheline) => {
      this.locations.set(e, n++);
      for (const x of Array.isArray(e) ? e : isPrim(e) ? (e.args ?? []) : []) number(x);
    };
    number(root);
  }

  private loc(e: Micheline): number {
    return this.locations.get(e) ?? 0;
  }

  parse(e: Micheline, allow: Allow, legacy: boolean, depth = 0, loc = this.loc(e)): Ty {
    if (depth > 10_000) throw new TypeError_('michelson_v1.typechecking_too_many_recursive_calls', {});
    if (!isPrim(e))
      throw new TypeError_('michelson_v1.invalid_expression_kind', {
        location: loc,
        expected_kinds: ['primitiveApplication'],
        wrong_kind: kindOf(e),
      });
    const args = e.args ?? [];
    const d = depth + 1;
    const arity = (n: number) =>
      new TypeError_('michelson_v1.invalid_arity', {
        location: loc,
        primitive_name: e.prim,
        expected_arity: n,
        wrong_arity: args.length,
      });
    const p = e.prim;
    if (args.length === 0 && NULLARY.has(p)) return { prim: p, args: [] };
    if (p === 'operation' && args.length === 0) {
      if (!allow.operation) throw new TypeError_('michelson_v1.unexpected_operation', { loc });
      return { prim: p, args: [] };
    }
    if (p === 'contract' && args.length === 1) {
      if (!allow.contract) throw new TypeError_('michelson_v1.unexpected_contract', { loc });
      return { prim: p, args: [this.parse(args[0]!, PASSABLE, legacy, d)] };
    }
    if (p === 'pair' && args.length >= 1) {
      const l = this.parse(args[0]!, allow, legacy, d);
      const rest = args.slice(1);
      // `pair t1 … tn` is `pair t1 (pair t2 … tn)`, the inner pair at the same location
      const r =
        rest.length === 1
          ? this.parse(rest[0]!, allow, legacy, d)
          : this.parse({ prim: 'pair', args: rest }, allow, legacy, d, loc);
      return { prim: 'pair', args: [l, r] };
    }
    if ((p === 'or' || p === 'map' || p === 'lambda') && args.length === 2) {
      if (p === 'lambda')
        return {
          prim: p,
          args: [this.parse(args[0]!, ANY, legacy, d), this.parse(args[1]!, ANY, legacy, d)],
        };
      const k = p === 'map' ? this.comparable(args[0]!, d) : this.parse(args[0]!, allow, legacy, d);
      return { prim: p, args: [k, this.parse(args[1]!, allow, legacy, d)] };
    }
    if ((p === 'option' || p === 'list') && args.length === 1)
      return { prim: p, args: [this.parse(args[0]!, allow, legacy, d)] };
    if (p === 'ticket' && args.length === 1) {
      if (!allow.ticket) throw new TypeError_('michelson_v1.unexpected_ticket', { loc });
      return { prim: p, args: [this.comparable(args[0]!, d)] };
    }
    if (p === 'set' && args.length === 1) return { prim: p, args: [this.comparable(args[0]!, d)] };
    if (p === 'sapling_transaction' && args.length === 1) return this.memo(p, args[0]!);
    if (p === 'sapling_transaction_deprecated' && args.length === 1) {
      if (!legacy) throw new TypeError_('michelson_v1.deprecated_instruction', { prim: p });
      return this.memo(p, args[0]!);
    }
    if (p === 'big_map' && allow.lazy) {
      if (args.length !== 2) throw arity(2);
      const k = this.comparable(args[0]!, d);
      // parse_big_map_value_ty: no lazy storage nor operation, contracts in legacy mode only
      const value = { lazy: false, operation: false, contract: legacy, ticket: true };
      return { prim: p, args: [k, this.parse(args[1]!, value, legacy, d)] };
    }
    if (p === 'sapling_state' && allow.lazy && args.length === 1) return this.memo(p, args[0]!);
    if (p === 'big_map' || p === 'sapling_state')
      throw new TypeError_('michelson_v1.unexpected_lazy_storage', { loc });
    const n = ARITY_ERRORS[p];
    if (n !== undefined) throw arity(n);
    if (p === 'tx_rollup_l2_address')
      throw new TypeError_('michelson_v1.deprecated_instruction', { prim: p });
    const ns = namespace(p);
    if (ns === 'type')
      throw new TypeError_('michelson_v1.invalid_primitive', {
        location: loc,
        expected_primitive_names: EXPECTED_TYPES,
        wrong_primitive_name: p,
      });
    throw new TypeError_('michelson_v1.invalid_primitive_namespace', {
      location: loc,
      primitive_name: p,
      expected_namespace: 'type',
      wrong_namespace: ns,
    });
  }

  /** parse_comparable_ty: parsed with nothing allowed (not legacy), then it must be comparable. */
  private comparable(e: Micheline, depth: number): Ty {
    const t = this.parse(e, COMPARABLE, false, depth);
    if (!comparable(t))
      throw new TypeError_('michelson_v1.comparable_type_expected', { location: this.loc(e), wrong_type: e });
    return t;
  }

  /** parse_memo_size: an int in 0..65535. */
  private memo(prim: string, m: Micheline): Ty {
    if (!isInt(m))
      throw new TypeError_('michelson_v1.invalid_expression_kind', {
        location: this.loc(m),
        expected_kinds: ['integer'],
        wrong_kind: kindOf(m),
      });
    const z = BigInt(m.int);
    if (z < 0n || z > 65535n)
      throw new TypeError_('michelson_v1.invalid_syntactic_constant', {
        location: this.loc(m),
        expected_form: 'a positive 16-bit integer (between 0 and 65535)',
        wrong_expression: m,
      });
    return { prim, args: [] };
  }
}

const PRIMS = opMappingReverse as Record<string, string>;

/** Script.expr_encoding: Micheline whose primitives are Michelson's; else the body does not decode (400). */
function expr(v: unknown, field: string): Micheline {
  let e: Micheline;
  try {
    e = toMicheline(v);
  } catch (err) {
    throw badBody(`${field}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const stack: Micheline[] = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (Array.isArray(x)) stack.push(...x);
    else if (isPrim(x)) {
      if (!(x.prim in PRIMS))
        throw badBody(`${field}: unknown primitive ${JSON.stringify(x.prim.slice(0, 40))}`);
      stack.push(...(x.args ?? []));
    }
  }
  return e;
}

/** POST …/helpers/scripts/normalize_data: `{data, type, unparsing_mode, legacy?, other_contracts?, extra_big_maps?}`. */
export function normalizeDataRpc(sandbox: ScriptHost, p: Params, body: unknown): { normalized: Micheline } {
  blockOf(sandbox, p);
  const b = objectBody(body, '{data, type, unparsing_mode, legacy?}');
  if (b.data === undefined || b.type === undefined || b.unparsing_mode === undefined)
    throw badBody('data, type and unparsing_mode are required');
  const data = expr(b.data, 'data');
  const type = expr(b.type, 'type');
  const mode = unparsingMode(b.unparsing_mode);
  if (b.legacy !== undefined && typeof b.legacy !== 'boolean') throw badBody('legacy must be a boolean');
  for (const f of ['other_contracts', 'extra_big_maps'])
    if (b[f] !== undefined && b[f] !== null && !Array.isArray(b[f])) throw badBody(`${f} must be a list`);
  try {
    new TypeParser(type).parse(type, ANY, b.legacy === true);
  } catch (e) {
    if (e instanceof TypeError_)
      throw new RpcError(500, [{ kind: 'permanent', id: `${P}${e.id}`, ...e.fields }]);
    throw e;
  }
  return { normalized: normalizeData(type, data, mode) };
}
