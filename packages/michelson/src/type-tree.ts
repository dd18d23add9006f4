/**
 * Typed tree of a Michelson type: every node gets a pre-order id (root = 1) and a name, exactly as
 * the reference numbers them (bcd-api.md §5.0). Typedef, JSON schema, form data, Miguel and diffs
 * all work on this tree.
 */
import { isInt, isPrim, MichelsonDataError } from './micheline-core';
import type { Micheline, MichelinePrim } from './micheline-core';

export interface TypeNode {
  /** Pre-order id, root = 1. */
  id: number;
  prim: string;
  /** Field annotation without `%`. */
  fieldName?: string;
  /** Type annotation without `:`. */
  typeName?: string;
  /** Field annotation, else type annotation, else `@<prim>_<id>`. */
  name: string;
  /** Type annotation, else field annotation, else `@<prim>_<id>` (Miguel's naming). */
  typeLabel: string;
  /** Children: pair/or/map/big_map/lambda: 2; option/list/set/contract/ticket: 1; comb pairs are binarised. */
  args: TypeNode[];
  /** ticket T: the internal `pair address (pair T nat)` the reference uses for values. */
  ticketPair?: TypeNode;
  /** sapling_state / sapling_transaction memo size. */
  memoSize?: string;
  /** The Micheline this node was built from (for inline rendering of types). */
  source: MichelinePrim;
}

export const SIMPLE_TYPES = new Set([
  'int',
  'nat',
  'string',
  'bytes',
  'bool',
  'mutez',
  'timestamp',
  'address',
  'key_hash',
  'key',
  'signature',
  'chain_id',
  'unit',
  'operation',
  'baker_hash',
  'bls12_381_fr',
  'bls12_381_g1',
  'bls12_381_g2',
  'never',
  'chest',
  'chest_key',
  'tx_rollup_l2_address',
]);

const ARITY: Record<string, number> = {
  option: 1,
  list: 1,
  set: 1,
  contract: 1,
  ticket: 1,
  map: 2,
  big_map: 2,
  lambda: 2,
  or: 2,
};

/** True for synthetic names (`@nat_3`). */
export const isSynthetic = (name: string): boolean => name.startsWith('@');

function annots(n: MichelinePrim): { field?: string; type?: string } {
  const out: { field?: string; type?: string } = {};
  for (const a of n.annots ?? []) {
    if (a.startsWith('%') && out.field === undefined) out.field = a.slice(1);
    else if (a.startsWith(':') && out.type === undefined) out.type = a.slice(1);
  }
  return out;
}

class Builder {
  id = 0;
  count = 0;

  private synth(prim: string, args: TypeNode[]): TypeNode {
    const id = ++this.id;
    const name = `@${prim}_${id}`;
    const source: MichelinePrim = args.length > 0 ? { prim, args: args.map((a) => a.source) } : { prim };
    return { id, prim, name, typeLabel: name, args, source };
  }

  ticketPair(t: TypeNode): TypeNode {
    const outer = this.synth('pair', []);
    const address = this.synth('address', []);
    const inner = this.synth('pair', []);
    const nat = this.synth('nat', []);
    inner.args = [t, nat];
    inner.source = { prim: 'pair', args: [t.source, nat.source] };
    outer.args = [address, inner];
    outer.source = { prim: 'pair', args: [address.source, inner.source] };
    return outer;
  }

  build(m: Micheline, depth: number): TypeNode {
    if (depth > 2000) throw new MichelsonDataError('type nested too deeply');
    if (++this.count > 200_000) throw new MichelsonDataError('type too large');
    if (!isPrim(m))
      throw new MichelsonDataError(
        `invalid type: expected a primitive, got ${JSON.stringify(m).slice(0, 80)}`,
      );
    const id = ++this.id;
    const a = annots(m);
    const synthetic = `@${m.prim}_${id}`;
    const node: TypeNode = {
      id,
      prim: m.prim,
      name: a.field ?? a.type ?? synthetic,
      typeLabel: a.type ?? a.field ?? synthetic,
      args: [],
      source: m,
    };
    if (a.field !== undefined) node.fieldName = a.field;
    if (a.type !== undefined) node.typeName = a.type;
    const args = m.args ?? [];
    if (m.prim === 'pair') {
      if (args.length < 2) throw new MichelsonDataError('invalid type: pair needs at least 2 arguments');
      node.args.push(this.build(args[0]!, depth + 1));
      node.args.push(
        args.length === 2
          ? this.build(args[1]!, depth + 1)
          : this.build({ prim: 'pair', args: args.slice(1) }, depth + 1),
      );
    } else if (
      m.prim === 'sapling_state' ||
      m.prim === 'sapling_transaction' ||
      m.prim === 'sapling_transaction_deprecated'
    ) {
      const memo = args[0];
      if (!memo || !isInt(memo)) throw new MichelsonDataError(`invalid type: ${m.prim} needs a memo size`);
      node.memoSize = memo.int;
    } else if (m.prim in ARITY) {
      const n = ARITY[m.prim]!;
      if (args.length !== n) throw new MichelsonDataError(`invalid type: ${m.prim} needs ${n} argument(s)`);
      if (m.prim === 'ticket') {
        // the reference represents a ticket value as `pair address (pair T nat)` built around the
        // already-numbered T: ids go ticket, T…, pair, address, pair, nat
        const t = this.build(args[0]!, depth + 1);
        node.args.push(t);
        node.ticketPair = this.ticketPair(t);
      } else {
        for (const x of args) node.args.push(this.build(x, depth + 1));
      }
    } else if (!SIMPLE_TYPES.has(m.prim)) {
      throw new MichelsonDataError(`invalid type: unknown type ${m.prim}`);
    } else if (args.length > 0) {
      throw new MichelsonDataError(`invalid type: ${m.prim} takes no arguments`);
    }
    return node;
  }
}

/** Builds the typed tree of a Michelson type (Micheline). Throws MichelsonDataError on invalid types. */
export function buildTypeTree(type: Micheline): TypeNode {
  return new Builder().build(type, 0);
}

/** Finds the section (`parameter`, `storage`, `code`) of a script. */
export function scriptSection(script: Micheline, section: string): Micheline | undefined {
  const items = Array.isArray(script) ? script : [];
  for (const s of items) if (isPrim(s) && s.prim === section) return s.args?.[0];
  return undefined;
}

/** Pre-order walk of a type tree (ticket internals excluded). */
export function walkType(root: TypeNode, fn: (n: TypeNode) => void): void {
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    fn(n);
    for (let i = n.args.length - 1; i >= 0; i--) stack.push(n.args[i]!);
  }
}

/** Children of a pair with unnamed nested pairs flattened (Typedef, Miguel). */
export function flatPairArgs(n: TypeNode): TypeNode[] {
  const out: TypeNode[] = [];
  const visit = (p: TypeNode): void => {
    for (const a of p.args) {
      if (a.prim === 'pair' && isSynthetic(a.name)) visit(a);
      else out.push(a);
    }
  };
  visit(n);
  return out;
}

/** An entrypoint: a leaf of the root `or` tree (or the whole type). */
export interface EntrypointLeaf {
  /** Field annotation, or `entrypoint_<n>` for unnamed leaves (docs numbering). */
  name: string;
  node: TypeNode;
  /** Path of Left/Right choices from the root ('L'/'R'). */
  path: string;
}

/**
 * Entrypoint leaves of a parameter type: the non-or leaves of the root `or` tree (nested ors are
 * always descended into, named or not, as the reference does). A parameter that is not an `or` has one entrypoint, `default`.
 */
export function entrypointLeaves(root: TypeNode): EntrypointLeaf[] {
  if (root.prim !== 'or') return [{ name: 'default', node: root, path: '' }];
  const out: EntrypointLeaf[] = [];
  const visit = (n: TypeNode, path: string): void => {
    n.args.forEach((a, i) => {
      const p = path + (i === 0 ? 'L' : 'R');
      if (a.prim === 'or') visit(a, p);
      else out.push({ name: a.fieldName ?? `entrypoint_${out.length}`, node: a, path: p });
    });
  };
  visit(root, '');
  return out;
}

/** Micheline of a type tree node, with comb pairs written as nested binary pairs (as the reference prints them). */
export function typeToMicheline(n: TypeNode): MichelinePrim {
  const out: MichelinePrim = { prim: n.prim };
  if (n.memoSize !== undefined) out.args = [{ int: n.memoSize }];
  else if (n.args.length > 0) out.args = n.args.map(typeToMicheline);
  if (n.source.annots && n.source.annots.length > 0) out.annots = [...n.source.annots];
  return out;
}
