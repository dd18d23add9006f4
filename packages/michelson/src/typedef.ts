/**
 * Typedef: type documentation as the reference's entrypoint and storage pages show it
 * (bcd-api.md §5.1). A doc is a flat array: the root entry, then the named sub-types referenced
 * as `$name`.
 */
import { formatMichelsonInline } from './format';
import type { Micheline } from './micheline-core';
import {
  buildTypeTree,
  entrypointLeaves,
  flatPairArgs,
  isSynthetic,
  SIMPLE_TYPES,
  typeToMicheline,
} from './type-tree';
import type { TypeNode } from './type-tree';

export interface TypedefArg {
  key?: string;
  value: string;
}
export interface Typedef {
  name: string;
  type?: string;
  typedef?: Typedef[];
  args?: TypedefArg[];
}
/** One entrypoint with its docs (`GET …/entrypoints`). */
export interface EntrypointDoc {
  name: string;
  typedef: Typedef[];
}

interface Docs {
  /** Entry describing this node itself (shown at the root, or when referenced with `$`). */
  own?: Typedef;
  /** Entries of named sub-types. */
  extra: Typedef[];
  /** How a parent refers to this node: `nat`, `list(nat)`, `$name`. */
  ref: string;
  /** The parent lists `own` among its entries (it is referenced with `$`). */
  referenced: boolean;
  /** map/big_map with a simple key: the key's own entry, listed by `or` parents and at the root only. */
  keyEntry?: Typedef;
}

const varName = (name: string): string => (name.startsWith('@') ? name.slice(1) : name);
const isSimple = (n: TypeNode): boolean => SIMPLE_TYPES.has(n.prim);
const inlineType = (n: TypeNode): string => formatMichelsonInline(typeToMicheline(n));
const entries = (d: Docs): Typedef[] => (d.referenced && d.own ? [d.own, ...d.extra] : d.extra);

function docName(n: TypeNode, inferred: string | undefined): string {
  return isSynthetic(n.name) && inferred ? inferred : n.name;
}

class DocBuilder {
  constructor(private readonly detailedMaps: boolean) {}

  docs(n: TypeNode, inferred?: string): Docs {
    switch (n.prim) {
      case 'pair':
      case 'or':
        return this.composite(n, inferred);
      case 'option': {
        const t = n.args[0]!;
        const inner = this.docs(t, docName(n, inferred));
        // the reference drops the entry of an `or` under an option (keeping its branches' entries)
        const extra = t.prim === 'or' ? inner.extra : entries(inner);
        return { extra, ref: `option(${inner.ref})`, referenced: false };
      }
      case 'list':
      case 'set':
        return this.list(n, inferred);
      case 'map':
      case 'big_map':
        return this.map(n, inferred);
      case 'lambda': {
        const name = docName(n, inferred);
        const [a, r] = [n.args[0]!, n.args[1]!];
        if (isSimple(a) && isSimple(r)) {
          const t = `lambda(${a.prim}, ${r.prim})`;
          return { own: { name, type: t }, extra: [], ref: t, referenced: false };
        }
        const own: Typedef = {
          name,
          type: 'lambda',
          args: [
            { key: 'input', value: inlineType(a) },
            { key: 'return', value: inlineType(r) },
          ],
        };
        return { own, extra: [], ref: `$${varName(name)}`, referenced: true };
      }
      case 'contract': {
        const name = docName(n, inferred);
        const t = n.args[0]!;
        if (isSimple(t)) {
          const ref = `contract(${t.prim})`;
          return { own: { name, type: ref }, extra: [], ref, referenced: false };
        }
        const param = `${name}_param`;
        const ref = `contract($${varName(param)})`;
        return {
          own: { name, type: ref },
          extra: [{ name: param, type: inlineType(t) }],
          ref,
          referenced: false,
        };
      }
      case 'ticket': {
        const name = docName(n, inferred);
        const inner = this.docs(n.args[0]!, `${name}_param`);
        const ref = `ticket(${inner.ref})`;
        return { own: { name, type: ref }, extra: entries(inner), ref, referenced: false };
      }
      case 'sapling_state':
      case 'sapling_transaction':
      case 'sapling_transaction_deprecated': {
        const ref = `${n.prim}(${n.memoSize ?? ''})`;
        return { own: { name: docName(n, inferred), type: ref }, extra: [], ref, referenced: false };
      }
      default:
        return { own: { name: n.name, type: n.prim }, extra: [], ref: n.prim, referenced: false };
    }
  }

  private composite(n: TypeNode, inferred?: string): Docs {
    const name = docName(n, inferred);
    const kids = n.prim === 'pair' ? flatPairArgs(n) : flatOrArgs(n);
    const args: TypedefArg[] = [];
    const extra: Typedef[] = [];
    for (const k of kids) {
      const d = this.docs(k);
      args.push({ key: k.name, value: d.ref });
      if (n.prim === 'or' && this.detailedMaps && d.keyEntry) extra.push(d.keyEntry);
      extra.push(...entries(d));
    }
    return { own: { name, type: n.prim, args }, extra, ref: `$${varName(name)}`, referenced: true };
  }

  private list(n: TypeNode, inferred?: string): Docs {
    const name = docName(n, inferred);
    const elem = n.args[0]!;
    const d = this.docs(elem, `${name}_item`);
    const ref = `${n.prim}(${d.ref})`;
    // The reference also lists the entry of a nested list/set element (kept for identical output).
    const extra =
      d.own && !d.referenced && (elem.prim === 'list' || elem.prim === 'set')
        ? [d.own, ...d.extra]
        : entries(d);
    return { own: { name, type: ref }, extra, ref, referenced: false };
  }

  private map(n: TypeNode, inferred?: string): Docs {
    const name = docName(n, inferred);
    const [k, v] = [n.args[0]!, n.args[1]!];
    const kd = this.docs(k, `${name}_key`);
    const vd = this.docs(v, `${name}_value`);
    const ref = `${n.prim}(${kd.ref}, ${vd.ref})`;
    const own: Typedef = { name, type: ref };
    const extra = [...entries(kd), ...entries(vd)];
    if (this.detailedMaps) {
      const arg = (node: TypeNode, d: Docs): TypedefArg =>
        d.own && (isSimple(node) || d.referenced) ? { key: d.own.name, value: d.ref } : { value: d.ref };
      own.args = [arg(k, kd), arg(v, vd)];
    }
    const out: Docs = { own, extra, ref, referenced: false };
    if (isSimple(k) && kd.own) out.keyEntry = kd.own;
    return out;
  }
}

/** Branches of an or with nested ors flattened (named or not, like the reference). */
export function flatOrArgs(n: TypeNode): TypeNode[] {
  const out: TypeNode[] = [];
  const visit = (o: TypeNode): void => {
    for (const a of o.args) {
      if (a.prim === 'or') visit(a);
      else out.push(a);
    }
  };
  visit(n);
  return out;
}

function rootDocs(n: TypeNode, detailedMaps: boolean, rootName?: string): Typedef[] {
  const d = new DocBuilder(detailedMaps).docs(n, rootName);
  if (d.own) return detailedMaps && d.keyEntry ? [d.own, d.keyEntry, ...d.extra] : [d.own, ...d.extra];
  // an option has no entry of its own: its inner type's entries, or a `default` entry
  if (d.extra.length > 0) return d.extra;
  return [{ name: rootName ?? 'default', type: d.ref }];
}

/**
 * Typedef of a type tree (or of one of its entrypoints when `entrypoint` is given).
 * Returns undefined when the entrypoint does not exist.
 */
export function typedefOf(tree: TypeNode, entrypoint?: string): Typedef[] | undefined {
  if (!entrypoint) return rootDocs(tree, false);
  const leaf = entrypointLeaves(tree).find((l) => l.name === entrypoint);
  return leaf ? rootDocs(leaf.node, false) : undefined;
}

/** Typedef of a Michelson type given as Micheline. */
export function typedef(type: Micheline, entrypoint?: string): Typedef[] | undefined {
  return typedefOf(buildTypeTree(type), entrypoint);
}

/** Docs of every entrypoint (`GetEntrypointsDocs`): one per root-or leaf, else one `default`. */
export function entrypointsDocsOf(tree: TypeNode): EntrypointDoc[] {
  if (tree.prim !== 'or') return [{ name: 'default', typedef: rootDocs(tree, false) }];
  return entrypointLeaves(tree).map((l) => ({
    name: l.name,
    typedef: rootDocs(l.node, true),
  }));
}

/** {@link entrypointsDocsOf} for a parameter type given as Micheline. */
export function entrypointsDocs(parameterType: Micheline): EntrypointDoc[] {
  return entrypointsDocsOf(buildTypeTree(parameterType));
}
