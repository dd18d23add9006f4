/**
 * The registry's entries (./resources.ts) of an account (implicit or contract) and of a smart rollup.
 */
import type { AccountInfo, SmartRollup, TicketUpdate } from '@michelscope/api-types';
import { enc, offsetFirst, resource, type At, type Page } from './resource-builders';

/** An account, a smart rollup, the ticket updates of an address. */
export const ACCOUNT_RESOURCES = {
  account: resource<At, AccountInfo>((p) => `/account/${enc(p.network)}/${enc(p.address)}`),
  smartRollup: resource<At, SmartRollup>((p) => `/smart_rollups/${enc(p.network)}/${enc(p.address)}`),
  /** Ticket updates an account (contract or implicit) holds or issued. */
  accountTicketUpdates: resource<At & Page, TicketUpdate[] | null>(
    (p) => `/account/${enc(p.network)}/${enc(p.address)}/ticket_updates?${offsetFirst(p)}`,
  ),
};
