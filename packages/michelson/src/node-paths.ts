/**
 * The path of every node of a script, in pre-order, as the security evidence, the verified source's map and the
 * debugger's source lines name them: a section by its primitive (`code`), then `[i]` for a sequence's element
 * and `.args[i]` for a primitive's argument (`code.args[0][4].args[1]`). The pre-order number is the node's
 * location as the formatter and the debugger count them.
 */
import type { Micheline } from './micheline-core';
import { isPrim } from './micheline-core';

/** Calls `visit` for every node of `script` (its sections, or one node), in pre-order, with its path and number. */
export function forEachNodePath(
  script: Micheline,
  visit: (node: Micheline, path: string, loc: number) => void,
): void {
  let loc = 0;
  const stack: [Micheline, string][] = [[script, '']];
  while (stack.length) {
    const [n, path] = stack.pop()!;
    visit(n, path, loc++);
    if (Array.isArray(n)) {
      for (let i = n.length - 1; i >= 0; i--) {
        const c = n[i]!;
        stack.push([c, path === '' && isPrim(c) ? c.prim : `${path}[${i}]`]);
      }
    } else if (isPrim(n) && n.args) {
      for (let i = n.args.length - 1; i >= 0; i--) stack.push([n.args[i]!, `${path}.args[${i}]`]);
    }
  }
}
