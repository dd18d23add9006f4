/** Which tabs of the account / contract page are shown (workspace spec §2, "Tab visibility"). */
import { formatCompact } from '../../shared/format/format';

export type TabId =
  | 'operations'
  | 'storage'
  | 'code'
  | 'source'
  | 'security'
  | 'watch'
  | 'interact'
  | 'tokens'
  | 'ticket_updates'
  | 'metadata'
  | 'fork'
  | 'views'
  | 'events'
  | 'contract_stats'
  | 'details';

/** What the tab conditions depend on; null while that fact is still loading. */
export interface TabFacts {
  accountType: string | null;
  operationsCount: number;
  ticketUpdatesCount: number | null;
  eventsCount: number | null;
  /** The token-metadata service exists (always with Michelscope's server). */
  tokenService: boolean | null;
  metadataLoaded: boolean | null;
  viewsCount: number | null;
  statsService: boolean;
  /** The contract has a verified source (issue 38): GET …/source answered 200 (404: false). */
  verifiedSource: boolean | null;
}

export interface TabDef {
  id: TabId;
  label: string;
  /** Path segment under /{network}/{address}/. */
  path: string;
}

const ORDER: TabDef[] = [
  { id: 'operations', label: 'Operations', path: 'operations' },
  { id: 'storage', label: 'Storage', path: 'storage' },
  { id: 'code', label: 'Code', path: 'code' },
  { id: 'source', label: 'Source', path: 'source' },
  { id: 'security', label: 'Security', path: 'security' },
  { id: 'interact', label: 'Interact', path: 'interact' },
  { id: 'tokens', label: 'Tokens', path: 'tokens' },
  { id: 'ticket_updates', label: 'Ticket updates', path: 'ticket_updates' },
  { id: 'metadata', label: 'Metadata', path: 'metadata' },
  { id: 'fork', label: 'Fork', path: 'fork' },
  { id: 'views', label: 'Views', path: 'views' },
  { id: 'events', label: 'Events', path: 'events' },
  { id: 'contract_stats', label: 'Statistics', path: 'stats' },
  { id: 'details', label: 'Details', path: 'details' },
  { id: 'watch', label: 'Watch', path: 'watch' },
];

/** Both known: their conjunction; else false when one is known false, null (unknown) otherwise. */
const and = (a: boolean | null, b: boolean | null): boolean | null =>
  a === false || b === false ? false : a === null || b === null ? null : true;
const positive = (n: number | null): boolean | null => (n === null ? null : n > 0);

/** Whether the tab exists for these facts; null while a fact it depends on is loading. */
export function tabShown(id: TabId, f: TabFacts): boolean | null {
  const contract = f.accountType === null ? null : f.accountType === 'contract';
  switch (id) {
    case 'operations':
      return true;
    case 'storage':
    case 'code':
    case 'security':
    case 'interact':
    case 'fork':
    case 'details':
    case 'watch':
      return contract;
    case 'tokens':
      return and(contract, f.tokenService);
    case 'ticket_updates':
      return positive(f.ticketUpdatesCount);
    case 'metadata':
      return and(contract, f.metadataLoaded);
    case 'views':
      return and(contract, positive(f.viewsCount));
    case 'events':
      return positive(f.eventsCount);
    case 'contract_stats':
      return and(contract, f.statsService);
    case 'source':
      return and(contract, f.verifiedSource);
  }
}

/**
 * The visible tabs in order. The current tab is listed while its condition is still loading; once known
 * false it is neither listed nor reachable (see {@link tabUnreachable}): a tab is reachable exactly when shown.
 */
export function visibleTabs(facts: TabFacts, current: TabId): TabDef[] {
  return ORDER.filter((t) => {
    const shown = tabShown(t.id, facts);
    return shown === true || (t.id === current && shown === null);
  }).map((t) =>
    t.id === 'operations' ? { ...t, label: `Operations (${formatCompact(facts.operationsCount)})` } : t,
  );
}

/** The current tab's condition is known to be false: its URL leads to the operations tab instead. */
export function tabUnreachable(facts: TabFacts, current: TabId): boolean {
  return tabShown(current, facts) === false;
}
