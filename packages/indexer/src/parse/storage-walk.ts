/**
 * Walks a storage value along its type to find big maps: their field names, and (for originations) the
 * substitution of literal big maps / temporary ids by the pointers the node allocated. Comb pairs are
 * matched in every form the node uses (`Pair a b c`, nested `Pair`, sequences) and the value keeps its shape.
 */
import { isPrim, type Micheline, type MichelinePrim } from '@michelscope/michelson';

const MAX_DEPTH = 2000;

function combTypes(t: MichelinePrim): Micheline[] {
  const args = t.args ?? [];
  const last = args[args.length - 1];
  if (args.length < 2 || last === undefined) return args;
  return isPrim(last) && last.prim === 'pair' ? [...args.slice(0, -1), ...combTypes(last)] : args;
}

export function fieldName(t: Micheline): string | null {
  if (!isPrim(t)) return null;
  const a = t.annots?.find((x) => x.startsWith('%'));
  return a ? a.slice(1) : null;
}

const pairItems = (value: Micheline): Micheline[] | null =>
  Array.isArray(value) ? value : isPrim(value) && value.prim === 'Pair' && value.args ? value.args : null;

/**
 * Calls `fn` for each big map position (type node, value) and replaces the value with its result. With
 * `readable`, right combs come out as one flat `Pair a b c …` (how the node prints storage in Readable mode);
 * otherwise the value keeps its shape.
 */
export function mapBigMaps(
  type: Micheline,
  value: Micheline,
  fn: (type: MichelinePrim, value: Micheline) => Micheline,
  readable = false,
  depth = 0,
): Micheline {
  if (depth > MAX_DEPTH || !isPrim(type)) return value;
  const map = (t: Micheline, v: Micheline) => mapBigMaps(t, v, fn, readable, depth + 1);
  switch (type.prim) {
    case 'big_map':
      return fn(type, value);
    case 'pair': {
      const items = pairItems(value);
      if (!items || items.length < 2) return value;
      const flat = (vals: Micheline[], types: Micheline[]): Micheline[] => {
        const out: Micheline[] = [];
        vals.forEach((v, i) => {
          if (i < vals.length - 1) return void out.push(types[i] ? map(types[i], v) : v);
          const rest = types.slice(i);
          const sub = readable && rest.length > 1 ? pairItems(v) : null;
          if (sub && sub.length >= 2) out.push(...flat(sub, rest));
          else
            out.push(
              rest.length === 1
                ? map(rest[0]!, v)
                : rest.length > 1
                  ? map({ prim: 'pair', args: rest }, v)
                  : v,
            );
        });
        return out;
      };
      const mapped = flat(items, combTypes(type));
      if (readable) return { prim: 'Pair', args: mapped };
      return Array.isArray(value) ? mapped : { ...(value as MichelinePrim), args: mapped };
    }
    case 'option':
      if (isPrim(value) && value.prim === 'Some' && value.args?.[0] !== undefined && type.args?.[0])
        return { ...value, args: [map(type.args[0], value.args[0])] };
      return value;
    case 'or':
      if (
        isPrim(value) &&
        (value.prim === 'Left' || value.prim === 'Right') &&
        value.args?.[0] !== undefined
      ) {
        const t = type.args?.[value.prim === 'Left' ? 0 : 1];
        return t ? { ...value, args: [map(t, value.args[0])] } : value;
      }
      return value;
    default:
      return value;
  }
}

/** Field names of the big maps of a (pointer-form) storage value: ptr -> name. */
export function bigMapNames(storageType: Micheline, storage: Micheline): Map<number, string | null> {
  const out = new Map<number, string | null>();
  mapBigMaps(storageType, storage, (t, v) => {
    if (!Array.isArray(v) && 'int' in v) out.set(Number(v.int), fieldName(t));
    return v;
  });
  return out;
}
