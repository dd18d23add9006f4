/**
 * Compares a deployed script with a compiled one (issue 38). Both are normalised the same way: macros expanded
 * (michel-codec's expander, as the security analysis does) and, inside code (the `code` section and each view's
 * code), variable annotations `@x` dropped — the protocol ignores them there. Everything else is compared as
 * Micheline, exactly: the parameter and storage types with their field and type annotations (entrypoints and
 * field names), the code, and the views by name. The first difference is named: its section, the block (for
 * code, the entrypoint whose IF_LEFT branch of the parameter's dispatch holds it; a view by name), the first
 * differing instruction on each side as Michelson text and its line (the deployed side's in the Code tab's
 * text, the compiled side's in the compiled text this answers).
 */
import type { SourceDifference, SourceMapEntry } from '@michelscope/api-types';
import {
  buildTypeTree,
  entrypointLeaves,
  expandMicheline,
  formatMichelsonInline,
  formatWithLocations,
  isPrim,
} from '@michelscope/michelson';
import type { Micheline } from '@michelscope/michelson';
import { locateNodes } from '../security/locate';
import type { CompiledLocation } from './compiler';

type Section = 'parameter' | 'storage' | 'code' | 'views';
/** A step down a Micheline tree: a sequence's element or a primitive's argument. */
type Step = { seq: number } | { arg: number };

const MAX_SNIPPET = 200;
const stepText = (s: Step) => ('seq' in s ? `[${s.seq}]` : `.args[${s.arg}]`);

interface Sections {
  parameter?: Micheline;
  storage?: Micheline;
  code?: Micheline;
  /** name → the view's `view` primitive, in script order. */
  views: Map<string, Micheline>;
}

/** The sections of a script (any order), each as its `parameter`/`storage`/`code`/`view` primitive. */
function sectionsOf(script: Micheline[]): Sections {
  const out: Sections = { views: new Map() };
  for (const s of script) {
    if (!isPrim(s)) continue;
    if (s.prim === 'parameter' || s.prim === 'storage' || s.prim === 'code') out[s.prim] = s;
    else if (s.prim === 'view') {
      const name = s.args?.[0];
      if (name && typeof name === 'object' && 'string' in name) out.views.set(name.string, s);
    }
  }
  return out;
}

/** The compiled script in the deployed order: parameter, storage, code, views. */
export function orderedScript(script: Micheline[]): Micheline[] {
  const s = sectionsOf(script);
  return [
    ...[s.parameter, s.storage, s.code].filter((x): x is Micheline => x !== undefined),
    ...s.views.values(),
  ];
}

function expand(x: Micheline): Micheline {
  try {
    return expandMicheline(x);
  } catch {
    return x;
  }
}

/** Without variable annotations (`@x`) and empty annotation lists. */
function dropVariableAnnots(x: Micheline): Micheline {
  if (Array.isArray(x)) return x.map(dropVariableAnnots);
  if (!isPrim(x)) return x;
  const annots = x.annots?.filter((a) => !a.startsWith('@'));
  return {
    prim: x.prim,
    ...(x.args ? { args: x.args.map(dropVariableAnnots) } : {}),
    ...(annots && annots.length ? { annots } : {}),
  };
}

/** Normalises a section primitive: macros expanded; in code (args `codeArg`), variable annotations dropped. */
function normalise(section: Micheline, codeArg?: number): Micheline {
  const x = expand(section);
  if (codeArg === undefined || !isPrim(x) || !x.args) return x;
  return { ...x, args: x.args.map((a, i) => (i === codeArg ? dropVariableAnnots(a) : a)) };
}

const literalKey = (x: unknown) => JSON.stringify(x);

/** The first place where two trees differ (pre-order), as steps from their roots; undefined when equal. */
function firstDifference(
  a: Micheline | undefined,
  b: Micheline | undefined,
  at: Step[] = [],
): Step[] | undefined {
  if (a === undefined || b === undefined) return a === b ? undefined : at;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return at;
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], [...at, { seq: i }]);
      if (d) return d;
    }
    return undefined;
  }
  if (isPrim(a) || isPrim(b)) {
    if (!isPrim(a) || !isPrim(b)) return at;
    if (a.prim !== b.prim || literalKey(a.annots ?? []) !== literalKey(b.annots ?? [])) return at;
    const n = Math.max(a.args?.length ?? 0, b.args?.length ?? 0);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(a.args?.[i], b.args?.[i], [...at, { arg: i }]);
      if (d) return d;
    }
    return undefined;
  }
  return literalKey(a) === literalKey(b) ? undefined : at;
}

/** The nodes along `steps` from `root` (the root first), as far as they exist. */
function nodesAlong(root: Micheline, steps: Step[]): Micheline[] {
  const out = [root];
  let n: Micheline | undefined = root;
  for (const s of steps) {
    n =
      'seq' in s
        ? Array.isArray(n)
          ? n[s.seq]
          : undefined
        : isPrim(n) && n.args
          ? n.args[s.arg]
          : undefined;
    if (n === undefined) break;
    out.push(n);
  }
  return out;
}

/** The deepest node along the steps that is a primitive (an instruction in code: an upper-case one). */
function nearestPrim(nodes: Micheline[], instruction: boolean): Micheline | undefined {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i]!;
    if (isPrim(n) && (!instruction || /^[A-Z_]+$/.test(n.prim))) return n;
  }
  return undefined;
}

const snippet = (x: Micheline | undefined) => {
  if (x === undefined) return undefined;
  const t = formatMichelsonInline(x);
  return t.length > MAX_SNIPPET ? `${t.slice(0, MAX_SNIPPET - 1)}…` : t;
};

/** The IF_LEFT branches of the parameter's dispatch at the start of the code: path (from `code`) → entrypoint. */
function entrypointBranches(
  code: Micheline,
  parameter: Micheline | undefined,
): { path: string; name: string }[] {
  const type = isPrim(parameter!) ? parameter.args?.[0] : undefined;
  if (!type) return [];
  let leaves: { name: string; path: string }[];
  try {
    leaves = entrypointLeaves(buildTypeTree(type)).map((l) => ({ name: l.name, path: l.path }));
  } catch {
    return [];
  }
  const out: { path: string; name: string }[] = [];
  const visit = (seq: Micheline | undefined, seqPath: string, ep: string, depth: number) => {
    if (!Array.isArray(seq) || depth > 64) return;
    const i = seq.findIndex((n) => isPrim(n) && n.prim === 'IF_LEFT');
    const node = seq[i];
    if (!node || !isPrim(node) || !leaves.some((l) => l.path.startsWith(ep) && l.path.length > ep.length))
      return;
    for (const b of [0, 1]) {
      const branchPath = `${seqPath}[${i}].args[${b}]`;
      const p = ep + (b === 0 ? 'L' : 'R');
      const leaf = leaves.find((l) => l.path === p);
      if (leaf) out.push({ path: branchPath, name: leaf.name });
      else visit(node.args?.[b], branchPath, p, depth + 1);
    }
  };
  visit(isPrim(code) ? code.args?.[0] : undefined, 'code.args[0]', '', 0);
  return out;
}

export interface Comparison {
  difference?: SourceDifference;
  /** The compiled script as Michelson text (sections in the deployed order): `compiled_line`s are in it. */
  compiledText: string;
}

/** Compares `deployed` (as the index holds it: parameter, storage, code, views) with `compiled`. */
export function compareScripts(deployed: Micheline[], compiled: Micheline[]): Comparison {
  const ordered = orderedScript(compiled);
  const compiledFormat = formatWithLocations(ordered);
  const compiledText = compiledFormat.text;
  const d = sectionsOf(deployed);
  const c = sectionsOf(ordered);
  const deployedAt = locateNodes(deployed);
  const compiledAt = locateNodes(ordered);

  const describe = (
    section: Section,
    label: string,
    dRoot: Micheline | undefined,
    cRoot: Micheline | undefined,
    codeArg: number | undefined,
    block?: (path: string) => string | undefined,
  ): SourceDifference | undefined => {
    const dn = dRoot && normalise(dRoot, codeArg);
    const cn = cRoot && normalise(cRoot, codeArg);
    const steps = firstDifference(dn, cn);
    if (!steps) return undefined;
    if (!dRoot || !cRoot)
      return {
        section,
        message: dRoot
          ? `The deployed contract has a ${label} section that the compiled source does not have.`
          : `The compiled source has a ${label} section that the deployed contract does not have.`,
      };
    const instruction = codeArg !== undefined;
    // the first differing instruction of each side (normalised), and its line: found on the original trees
    let depth = steps.length;
    const dNodes = nodesAlong(dn!, steps);
    const cNodes = nodesAlong(cn!, steps);
    const dInstr = nearestPrim(dNodes, instruction);
    const cInstr = nearestPrim(cNodes, instruction);
    const dIdx = dInstr ? dNodes.indexOf(dInstr) : -1;
    const cIdx = cInstr ? cNodes.indexOf(cInstr) : -1;
    depth = Math.max(0, Math.max(dIdx, cIdx));
    const at = steps.slice(0, depth);
    const path = `${section === 'views' ? 'view' : section}${at.map(stepText).join('')}`;
    const lineAt = (root: Micheline, locate: typeof deployedAt) => {
      const along = nodesAlong(root, at);
      for (let i = along.length - 1; i >= 0; i--) {
        const line = locate.lineOf(along[i] as object);
        if (line !== null) return line;
      }
      return null;
    };
    const deployedText = dIdx >= 0 ? snippet(dInstr) : undefined;
    const compiledSnippet = cIdx >= 0 ? snippet(cInstr) : undefined;
    const blockName = block?.(path);
    const where = blockName ? ` in ${blockName.replace(/ \(.*\)$/, '')}` : '';
    const has = (t: string | undefined, side: string) => (t ? `${side} has ${t}` : `${side} has nothing`);
    return {
      section,
      ...(blockName ? { block: blockName } : {}),
      path,
      ...(deployedText !== undefined ? { deployed: deployedText } : {}),
      ...(compiledSnippet !== undefined ? { compiled: compiledSnippet } : {}),
      deployed_line: lineAt(dRoot, deployedAt),
      compiled_line: lineAt(cRoot, compiledAt),
      message:
        `The ${label} differs${where}: ${has(deployedText, 'the deployed contract')} where ` +
        `${has(compiledSnippet, 'the compiled source')}.`,
    };
  };

  const difference =
    describe('parameter', 'parameter type', d.parameter, c.parameter, undefined) ??
    describe('storage', 'storage type', d.storage, c.storage, undefined) ??
    describe('code', 'code', d.code, c.code, 0, (path) => {
      const branches = entrypointBranches(normalise(d.code!, 0), d.parameter);
      const inside = branches
        .filter((b) => path === b.path || path.startsWith(`${b.path}[`) || path.startsWith(`${b.path}.`))
        .sort((x, y) => y.path.length - x.path.length)[0];
      return inside ? `entrypoint %${inside.name} (${inside.path})` : undefined;
    }) ??
    viewsDifference();

  function viewsDifference(): SourceDifference | undefined {
    for (const name of d.views.keys())
      if (!c.views.has(name))
        return {
          section: 'views',
          block: `view %${name}`,
          message: `The deployed contract has a view %${name} that the compiled source does not have.`,
        };
    for (const name of c.views.keys())
      if (!d.views.has(name))
        return {
          section: 'views',
          block: `view %${name}`,
          message: `The compiled source has a view %${name} that the deployed contract does not have.`,
        };
    for (const [name, view] of d.views) {
      const diff = describe('views', `view %${name}`, view, c.views.get(name), 3, () => `view %${name}`);
      if (diff) return { ...diff, message: diff.message.replace(/ in view %\S+:/, ':') };
    }
    return undefined;
  }

  return { ...(difference ? { difference } : {}), compiledText };
}

/**
 * The source map of a verified contract: each compiled instruction with a source location whose path holds
 * the same instruction in the deployed script, with its line in the Code tab's text.
 */
export function sourceMapOf(deployed: Micheline[], locations: CompiledLocation[]): SourceMapEntry[] {
  const at = locateNodes(deployed);
  const out: SourceMapEntry[] = [];
  for (const l of locations) {
    if (!l.path.startsWith('code')) continue; // views share the path prefix `view`: not mapped
    const node = at.byPath.get(l.path);
    const line = node && typeof node === 'object' ? at.lineOf(node) : null;
    if (line === null) continue;
    out.push({ ...l, line });
  }
  return out.sort((a, b) => a.line - b.line || a.path.localeCompare(b.path));
}
