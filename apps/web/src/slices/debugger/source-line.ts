/**
 * The source line of a debugger location (issue 38): a verified contract's source map names Micheline paths
 * of its code (`code.args[0][4].args[0][1]`, the notation of the security evidence, see the API's
 * security/locate.ts); the debugger knows pre-order locations. The recording's `code` is the script formatted
 * as the Code tab shows it, so parsing it back gives the script's tree, numbered as the locations are.
 */
import { forEachNodePath, parseMichelsonScript, type Micheline } from '@michelscope/michelson';
import type { ContractSource, SourceMapEntry } from '@michelscope/api-types';

/** Where an instruction comes from in the verified source, and that line's text ('' when not in the files). */
export interface SourceLine {
  file: string;
  line: number;
  text: string;
  /** the Micheline path whose entry this is (the instruction's own, or an enclosing one's) */
  path: string;
}

/** Each location's Micheline path, indexed by pre-order number (as the API's locateNodes walks the script). */
export function pathsOfScript(script: Micheline): string[] {
  const paths: string[] = [];
  forEachNodePath(script, (_n, path) => paths.push(path));
  return paths;
}

/** The enclosing path: `a.args[0][4]` → `a.args[0]` → `a`; undefined at a section. */
export function parentPath(path: string): string | undefined {
  const m = /^(.+?)(?:\.args\[\d+\]|\[\d+\])$/.exec(path);
  return m ? m[1] : undefined;
}

/**
 * A function giving the source line of a location of a script whose nodes have `paths` (pathsOfScript), or
 * undefined when the source has no map: the entry of the instruction's path, or else of the nearest enclosing
 * path that has one.
 */
export function sourceLineFinder(
  paths: readonly string[],
  source: ContractSource | null | undefined,
): ((loc: number | undefined) => SourceLine | undefined) | undefined {
  const map = source?.source_map;
  if (!source || !map?.length) return undefined;
  const byPath = new Map<string, SourceMapEntry>();
  for (const e of map) if (!byPath.has(e.path)) byPath.set(e.path, e);
  const files = new Map(source.files.map((f) => [f.name, f.content.split(/\r?\n/)]));
  return (loc) => {
    let path = loc === undefined ? undefined : paths[loc];
    while (path !== undefined) {
      const e = byPath.get(path);
      if (e) {
        const text = files.get(e.file)?.[e.start_line - 1] ?? '';
        return { file: e.file, line: e.start_line, text, path };
      }
      path = parentPath(path);
    }
    return undefined;
  };
}

/** sourceLineFinder over a recording's `code` (the formatted script, parsed back); undefined when it does not parse. */
export function sourceLocator(
  code: string,
  source: ContractSource | null | undefined,
): ((loc: number | undefined) => SourceLine | undefined) | undefined {
  if (!source?.source_map?.length) return undefined;
  try {
    return sourceLineFinder(pathsOfScript(parseMichelsonScript(code)), source);
  } catch {
    return undefined;
  }
}
