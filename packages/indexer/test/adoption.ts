/** What the backfill tests ask of an address (issue 32): its adoption, waited for, and its backfill's row. */
import type { Db } from '@michelscope/db';
import { requestAddress } from '@michelscope/db/address-requests';
import { waitFor } from './fake-node';

/** Asks for `address` on `network` (as a page would) and waits until the indexer has adopted it. */
export async function adoptAndWait(db: Db, network: string, address: string): Promise<void> {
  await requestAddress(db, network, address, 10);
  await waitFor(async () => {
    const r = await db
      .selectFrom('address_requests')
      .select('state')
      .where('network', '=', network)
      .where('address', '=', address)
      .executeTakeFirst();
    return r?.state === 'adopted';
  }, 30_000);
}

/** The row of `address`'s history backfill on `network`, if one is open. */
export const backfillStateOf = (db: Db, network: string, address: string) =>
  db
    .selectFrom('history_backfills')
    .selectAll()
    .where('network', '=', network)
    .where('address', '=', address)
    .executeTakeFirst();
