// Voting power as Octez computes it (src/proto_alpha/lib_protocol/vote_storage.ml `update_listings`): at the end
// of a voting period's last block, every active delegate with the minimal stake is listed with its voting weight
// (full_staking_balance_repr.ml `voting_weight`: own frozen + staked frozen + delegated, in mutez), and the total
// is their sum. VOTING_POWER and TOTAL_VOTING_POWER read these listings, not the current balances.
import { BLOCKS_PER_CYCLE, CYCLES_PER_VOTING_PERIOD, MINIMAL_STAKE } from './protocol';
import { isOriginated, type State } from './state';

export interface Listings {
  power: ReadonlyMap<string, bigint>;
  total: bigint;
}

export const BLOCKS_PER_VOTING_PERIOD = BLOCKS_PER_CYCLE * CYCLES_PER_VOTING_PERIOD;

/**
 * The level whose end state the listings of a context at `level` were computed from: genesis (0) for the first
 * period, then the last block of the previous period.
 */
export function listingsLevel(level: number): number {
  return Math.floor(level / BLOCKS_PER_VOTING_PERIOD) * BLOCKS_PER_VOTING_PERIOD;
}

/**
 * The listings of a state. The sandbox has no staking: a delegate's whole balance and its delegators' balances
 * are its delegated stake; delegates below the minimal stake are not listed.
 */
export function computeListings(state: State): Listings {
  const weight = new Map<string, bigint>();
  const add = (delegate: string | undefined, balance: string) => {
    if (delegate && state.isDelegate(delegate))
      weight.set(delegate, (weight.get(delegate) ?? 0n) + BigInt(balance));
  };
  for (const key of state.kv.keys('a:')) {
    const pkh = key.slice(2);
    const a = state.implicit(pkh);
    if (a && !isOriginated(pkh)) add(a.delegate, a.balance);
  }
  for (const kt1 of state.contracts()) {
    const c = state.contract(kt1);
    if (c) add(c.delegate, c.balance);
  }
  const power = new Map(
    [...weight].filter(([, w]) => w >= MINIMAL_STAKE).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  let total = 0n;
  for (const w of power.values()) total += w;
  return { power, total };
}
