/**
 * Corrections to michel-codec's macro expansion where it differs from Octez's (the difference is visible
 * through PACK and locations): Octez expands `CAR n` / `CDR n` to `{ GET k }`, michel-codec to `GET k`.
 */
import { sourceReference } from '@taquito/michel-codec';
import type { Expr } from './types';
import { isPrim } from './types';

function macroOf(e: Expr): Expr | undefined {
  const ref = (e as unknown as Record<symbol, { macro?: Expr } | undefined>)[sourceReference];
  return ref?.macro;
}

function needsSeq(e: Expr): boolean {
  if (!isPrim(e) || e.prim !== 'GET') return false;
  const m = macroOf(e);
  return !!m && isPrim(m) && (m.prim === 'CAR' || m.prim === 'CDR') && (m.args?.length ?? 0) === 1;
}

/** Rewrites the expanded tree in place and returns it. */
export function fixMacroExpansion<T extends Expr | Expr[]>(root: T): T {
  const walk = (e: Expr): void => {
    if (Array.isArray(e)) {
      for (let i = 0; i < e.length; i++) {
        const x = e[i] as Expr;
        if (needsSeq(x)) e[i] = [x];
        else walk(x);
      }
    } else if (isPrim(e) && e.args) {
      for (let i = 0; i < e.args.length; i++) {
        const x = e.args[i] as Expr;
        if (needsSeq(x)) e.args[i] = [x];
        else walk(x);
      }
    }
  };
  walk(root);
  return root;
}
