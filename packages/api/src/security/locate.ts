/**
 * Where each node of a script is: its path in the script sections as Micheline JSON (`code.args[0][1]`, the
 * notation of the security evidence and of verified source's differences and source maps) and its 1-based line
 * in the Code tab's text (`formatMichelson` of the whole script, `GET …/code`; formatWithLocations' spans).
 */
import { forEachNodePath, formatWithLocations } from '@michelscope/michelson';
import type { Micheline } from '@michelscope/michelson';

export interface NodeLocations {
  /** Each node object of the script: its path and pre-order number (as formatWithLocations numbers them). */
  where: Map<object, { path: string; loc: number }>;
  /** The formatter's spans by pre-order number, undefined when the script could not be formatted. */
  spans: ReturnType<typeof formatWithLocations>['spans'] | undefined;
  /** The node at a path. */
  byPath: Map<string, Micheline>;
  /** 1-based line of a node of the script in the formatted text, null when unknown. */
  lineOf: (node: object) => number | null;
}

/** Locates every node of `script` (its sections: parameter, storage, code, views). */
export function locateNodes(script: Micheline[]): NodeLocations {
  const where = new Map<object, { path: string; loc: number }>();
  const byPath = new Map<string, Micheline>();
  forEachNodePath(script, (n, path, loc) => {
    where.set(n, { path, loc });
    if (!byPath.has(path)) byPath.set(path, n);
  });
  let spans: NodeLocations['spans'];
  try {
    spans = formatWithLocations(script).spans;
  } catch {
    spans = undefined;
  }
  return {
    where,
    spans,
    byPath,
    lineOf: (node) => {
      const at = where.get(node);
      const span = at && spans ? spans[at.loc] : undefined;
      return span ? span[0] + 1 : null;
    },
  };
}
