/** Structural type equality (prims and arguments; annotations ignored). */
import type { TypeNode } from './type-tree';

export function isTypeEqualShape(a: TypeNode, b: TypeNode): boolean {
  const stack: [TypeNode, TypeNode][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x.prim !== y.prim || x.args.length !== y.args.length || x.memoSize !== y.memoSize) return false;
    for (let i = 0; i < x.args.length; i++) stack.push([x.args[i]!, y.args[i]!]);
  }
  return true;
}
