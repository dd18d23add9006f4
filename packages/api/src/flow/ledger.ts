/**
 * A token contract's ledger big maps, found from its storage type and value: the big maps whose key is a
 * holder (`address`, FA1.2) or a holder and a token id (`pair address nat` / `pair nat address`, FA2) and whose
 * value is a `nat` balance. When one of them is annotated `%ledger` only the annotated ones are kept.
 */
import { toMiguel, type Micheline, type MiguelNode } from '@michelscope/michelson';

export interface LedgerBigMap {
  ptr: number;
  /** The holder and token id a key names ("0" for an address key), or undefined for another shape. */
  holder(key: Micheline): { address: string; tokenId: string } | undefined;
}

type Prim = { prim: string; args?: Micheline[]; annots?: string[] };
const isPrim = (m: Micheline): m is Prim & Micheline =>
  typeof m === 'object' && m !== null && !Array.isArray(m) && 'prim' in m;

/** A pair's two sides (n-ary combs and sequences read as right combs). */
function split(args: Micheline[]): [Micheline, Micheline] {
  return args.length <= 2 ? [args[0]!, args[1]!] : [args[0]!, { prim: 'Pair', args: args.slice(1) }];
}

function keyShape(key: Micheline): 'address' | 'address_nat' | 'nat_address' | undefined {
  if (!isPrim(key)) return undefined;
  if (key.prim === 'address') return 'address';
  if (key.prim !== 'pair' || key.args?.length !== 2) return undefined;
  const [a, b] = key.args.map((x) => (isPrim(x) ? x.prim : ''));
  if (a === 'address' && b === 'nat') return 'address_nat';
  if (a === 'nat' && b === 'address') return 'nat_address';
  return undefined;
}

export function ledgerBigMaps(storageType: Micheline, storage: Micheline): LedgerBigMap[] {
  const found: Array<LedgerBigMap & { annotated: boolean }> = [];
  const walk = (t: Micheline, v: Micheline): void => {
    if (!isPrim(t)) return;
    if (t.prim === 'pair' && t.args && t.args.length >= 2) {
      const [tl, tr] = split(t.args);
      const vargs = Array.isArray(v) ? v : isPrim(v) && v.prim === 'Pair' ? (v.args ?? []) : undefined;
      if (!vargs || vargs.length < 2) return;
      const [vl, vr] = split(vargs);
      walk(tl, vl);
      walk(tr, vr);
      return;
    }
    if (t.prim !== 'big_map' || !t.args || t.args.length !== 2) return;
    const ptr = (v as { int?: string }).int;
    const [kt, vt] = t.args as [Micheline, Micheline];
    const shape = keyShape(kt);
    if (ptr === undefined || !shape || !isPrim(vt) || vt.prim !== 'nat') return;
    found.push({
      ptr: Number(ptr),
      annotated: (t.annots ?? []).includes('%ledger'),
      holder: (key) => {
        try {
          const m = toMiguel(kt, key)[0] as MiguelNode;
          const vals = m.children ? m.children.map((c) => String(c.value)) : [String(m.value)];
          if (shape === 'address') return { address: vals[0]!, tokenId: '0' };
          if (shape === 'address_nat') return { address: vals[0]!, tokenId: vals[1]! };
          return { address: vals[1]!, tokenId: vals[0]! };
        } catch {
          return undefined;
        }
      },
    });
  };
  walk(storageType, storage);
  return found.some((f) => f.annotated) ? found.filter((f) => f.annotated) : found;
}
