// The `type_map` of typecheck_code: for every instruction (and instruction sequence) of a script's
// code and views, the stack types before and after it, keyed by the node's Micheline location
// (preorder index of the node in the whole program, the root being 0, as Octez numbers them).
// The types come from michel-codec's typechecker (its traceCallback).
import { Contract, type InstructionTrace } from '@taquito/michel-codec';
import type { Expr } from '@michelscope/interpreter';

export interface TypeMapEntry {
  location: number;
  stack_before: Expr[];
  stack_after: Expr[];
}

type Node = Expr & { prim?: string; args?: unknown[] };

/** Preorder locations of every node of `root` (sequences, primitives, literals). */
function locate(root: unknown): Map<unknown, number> {
  const out = new Map<unknown, number>();
  let next = 0;
  const walk = (e: unknown): void => {
    out.set(e, next++);
    if (Array.isArray(e)) e.forEach(walk);
    else if (e && typeof e === 'object' && Array.isArray((e as Node).args)) (e as Node).args!.forEach(walk);
  };
  walk(root);
  return out;
}

/** Code bodies whose instructions the typechecker traces: the `code` section and each view's body. */
function codeBodies(program: unknown[]): unknown[] {
  const bodies: unknown[] = [];
  for (const s of program) {
    const sec = s as Node;
    if (sec?.prim === 'code' && sec.args?.[0] !== undefined) bodies.push(sec.args[0]);
    if (sec?.prim === 'view' && sec.args?.[3] !== undefined) bodies.push(sec.args[3]);
  }
  return bodies;
}

/** Maps the typechecker's copy of a body onto the original nodes, in parallel (same shape). */
function pair(copy: unknown, original: unknown, into: Map<unknown, unknown>): void {
  into.set(copy, original);
  const kids = (e: unknown): unknown[] =>
    Array.isArray(e)
      ? e
      : e && typeof e === 'object' && Array.isArray((e as Node).args)
        ? (e as Node).args!
        : [];
  const a = kids(copy);
  const b = kids(original);
  if (a.length !== b.length) return;
  a.forEach((c, i) => pair(c, b[i], into));
}

/** Drops the variable annotations (`@x`) the typechecker puts on stack types; Octez shows types only. */
function stackType(t: unknown): Expr {
  if (!t || typeof t !== 'object' || Array.isArray(t)) return t as Expr;
  const n = t as Node & { annots?: string[] };
  const out: Record<string, unknown> = { prim: n.prim };
  if (Array.isArray(n.args)) out.args = n.args.map(stackType);
  const annots = (n.annots ?? []).filter((a) => !a.startsWith('@'));
  if (annots.length > 0) out.annots = annots;
  return out as unknown as Expr;
}

/**
 * Typechecks `program` (a Micheline script, constants already expanded) and returns its type map,
 * ordered by location. Instructions that always fail (FAILWITH, NEVER…) have no entry, as in Octez.
 * Throws michel-codec's error when the script does not typecheck.
 */
export function typeMap(program: Expr[]): TypeMapEntry[] {
  const traces: InstructionTrace[] = [];
  Contract.parse(program, { traceCallback: (t) => traces.push(t) });
  const locations = locate(program);
  const toOriginal = new Map<unknown, unknown>();
  for (const body of codeBodies(program)) {
    const text = JSON.stringify(body);
    // The traced copy of a body is reported after its instructions: take the last one equal to it.
    const copy = traces.findLast((t) => !toOriginal.has(t.op) && JSON.stringify(t.op) === text);
    if (copy) pair(copy.op, body, toOriginal);
  }
  const byLocation = new Map<number, TypeMapEntry>();
  for (const t of traces) {
    const location = locations.get(toOriginal.get(t.op));
    if (location === undefined || !Array.isArray(t.out)) continue;
    byLocation.set(location, {
      location,
      stack_before: t.in.map(stackType),
      stack_after: t.out.map(stackType),
    });
  }
  return [...byLocation.values()].sort((x, y) => x.location - y.location);
}
