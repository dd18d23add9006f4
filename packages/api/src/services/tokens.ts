import type { TokenMetadata } from '@michelscope/api-types';
import {
  bigMapsOfContract,
  countTokenMetadata,
  liveBigMapEntries,
  resolvedContractMetadata,
  tokenMetadataRows,
  type TokenMetadataFilter,
} from '@michelscope/db/read';
import { buildTypeTree, keyText, toMicheline, type Micheline, type TypeNode } from '@michelscope/michelson';
import type { ApiContext } from '../context';

type Meta = Record<string, unknown>;
const str = (m: Meta, k: string) => (typeof m[k] === 'string' ? m[k] : undefined);
const bool = (m: Meta, k: string) => (typeof m[k] === 'boolean' ? m[k] : undefined);
const strs = (m: Meta, k: string) =>
  Array.isArray(m[k]) ? (m[k] as unknown[]).filter((x): x is string => typeof x === 'string') : undefined;

/** Resolved token metadata of a contract in the historical `TokenMetadata` shape (reference §4.4). */
export async function contractTokens(
  ctx: ApiContext,
  network: string,
  contract: string,
  f: TokenMetadataFilter,
): Promise<TokenMetadata[]> {
  const rows = await tokenMetadataRows(ctx.readDb, network, contract, f);
  return rows.map((r) => {
    const m = (r.metadata && typeof r.metadata === 'object' ? r.metadata : {}) as Meta;
    const t: TokenMetadata = { contract: r.contract, network, level: r.level, token_id: Number(r.token_id) };
    const set = <K extends keyof TokenMetadata>(k: K, v: TokenMetadata[K] | undefined) => {
      if (v !== undefined && v !== null) t[k] = v;
    };
    set('symbol', r.symbol ?? str(m, 'symbol'));
    set('name', r.name ?? str(m, 'name'));
    set('decimals', r.decimals ?? (Number.isInteger(Number(m.decimals)) ? Number(m.decimals) : undefined));
    set('description', str(m, 'description'));
    set('artifact_uri', str(m, 'artifactUri'));
    set('display_uri', str(m, 'displayUri'));
    set('thumbnail_uri', str(m, 'thumbnailUri'));
    set('external_uri', str(m, 'externalUri'));
    set('minter', str(m, 'minter'));
    set('is_transferable', bool(m, 'isTransferable'));
    set('is_boolean_amount', bool(m, 'isBooleanAmount'));
    set('should_prefer_symbol', bool(m, 'shouldPreferSymbol'));
    set('creators', strs(m, 'creators'));
    set('tags', strs(m, 'tags'));
    if (m.formats !== undefined) t.formats = m.formats;
    if (r.token_info != null) t.token_info = r.token_info;
    return t;
  });
}

export async function countTokens(ctx: ApiContext, network: string, contract: string): Promise<number> {
  return countTokenMetadata(ctx.readDb, network, contract);
}

/** The resolved TZIP-16 metadata JSON of a contract, or null. */
export async function contractMetadataOf(
  ctx: ApiContext,
  network: string,
  address: string,
): Promise<unknown> {
  return resolvedContractMetadata(ctx.readDb, network, address);
}

/** Holders listed by `/contract/{network}/{address}/tokens/holders` at the most. */
export const MAX_HOLDERS = 10_000;

/** How a ledger big map stores balances: where the owner, the token id and the amount are. */
export interface LedgerLayout {
  /** JSON path of the token id inside the key (multi-asset ledgers), none for single-asset ledgers. */
  tokenPath?: string[];
  owner: (key: Micheline, value: Micheline) => string | undefined;
  amount: (value: Micheline) => string | undefined;
}

/** Children of a `Pair` (or of the sequence form of a pair). */
const args = (m: Micheline): Micheline[] => (Array.isArray(m) ? m : 'args' in m ? (m.args ?? []) : []);
const intText = (m: Micheline | undefined): string | undefined =>
  m && !Array.isArray(m) && 'int' in m ? m.int : undefined;

/**
 * The layouts of the common FA1.2/FA2 ledgers: `address → nat`, `address → pair` holding the balance nat
 * (FA1.2 with allowances), `pair address nat → nat` and `pair nat address → nat` (FA2 multi-asset),
 * `nat → address` (FA2 NFT: the owner holds 1).
 */
function ledgerLayout(key: TypeNode, value: TypeNode): LedgerLayout | undefined {
  const text = (t: TypeNode) => (m: Micheline | undefined) => {
    try {
      return m === undefined ? undefined : keyText(t, m);
    } catch {
      return undefined;
    }
  };
  const nat = (t: TypeNode) => t.prim === 'nat' || t.prim === 'int';
  const valueAmount = (): LedgerLayout['amount'] | undefined => {
    if (nat(value)) return intText;
    const i = value.prim === 'pair' ? value.args.findIndex(nat) : -1;
    return i < 0 ? undefined : (v) => intText(args(v)[i]);
  };
  const amount = valueAmount();
  if (key.prim === 'address' && amount) return { owner: (k) => text(key)(k), amount };
  if (key.prim === 'pair' && key.args.length === 2 && nat(value)) {
    const [a, b] = key.args as [TypeNode, TypeNode];
    if (a.prim === 'address' && nat(b))
      return { tokenPath: ['args', '1', 'int'], owner: (k) => text(a)(args(k)[0]), amount: intText };
    if (nat(a) && b.prim === 'address')
      return { tokenPath: ['args', '0', 'int'], owner: (k) => text(b)(args(k)[1]), amount: intText };
  }
  if (nat(key) && value.prim === 'address')
    return { tokenPath: ['int'], owner: (_k, v) => text(value)(v), amount: () => '1' };
  return undefined;
}

/** The contract's big map named `ledger` and its layout, when it is one of the known layouts. */
export async function ledgerOf(
  ctx: ApiContext,
  network: string,
  contract: string,
): Promise<{ ptr: number; layout: LedgerLayout } | undefined> {
  const ledger = (await bigMapsOfContract(ctx.readDb, network, contract)).find((b) => b.name === 'ledger');
  if (!ledger) return undefined;
  try {
    const map = buildTypeTree({
      prim: 'big_map',
      args: [toMicheline(ledger.key_type), toMicheline(ledger.value_type)],
    });
    const layout = ledgerLayout(map.args[0]!, map.args[1]!);
    return layout ? { ptr: ledger.ptr, layout } : undefined;
  } catch {
    return undefined;
  }
}

/** Which ledger keys hold token `tokenId`; null when the ledger cannot hold it (a single-asset ledger). */
export function ledgerMatch(
  layout: LedgerLayout,
  tokenId: string,
): { path: string[]; equals: string } | undefined | null {
  if (!layout.tokenPath) return tokenId === '0' ? undefined : null;
  return { path: layout.tokenPath, equals: tokenId };
}

/** The holder and the balance of a ledger entry; undefined for a zero balance or an entry off the layout. */
export function ledgerHolder(
  layout: LedgerLayout,
  key: unknown,
  value: unknown,
): { owner: string; amount: string } | undefined {
  try {
    const k = toMicheline(key);
    const v = toMicheline(value);
    const owner = layout.owner(k, v);
    const amount = layout.amount(v);
    return owner && amount && amount !== '0' ? { owner, amount } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Balances of one token of a contract (reference §4.4 `tokens/holders`: `{address: balance}`), read from the
 * live keys of its big map named `ledger`; empty when the contract has no ledger of a known layout. Zero
 * balances are left out.
 */
export async function tokenHolders(
  ctx: ApiContext,
  network: string,
  contract: string,
  tokenId: string,
): Promise<Record<string, string>> {
  const ledger = await ledgerOf(ctx, network, contract);
  if (!ledger) return {};
  const match = ledgerMatch(ledger.layout, tokenId);
  if (match === null) return {};
  const rows = await liveBigMapEntries(ctx.readDb, network, ledger.ptr, MAX_HOLDERS, match);
  const out: Record<string, string> = {};
  for (const r of rows) {
    const h = ledgerHolder(ledger.layout, r.key, r.value);
    if (h) out[h.owner] = h.amount;
  }
  return out;
}
