/** Which tabs of the account / contract page are shown (workspace spec §2, "Tab visibility"). */
import { formatCompact } from '../../shared/format/format';

export type TabId =
  | 'operations'
  | 'storage'
  | 'code'
  | 'interact'
  | 'tokens'
  | 'ticket_updates'
  | 'metadata'
  | 'fork'
  | 'views'
  | 'events'
  | 'contract_stats'
  | 'details';

export interface TabFacts {
  accountType: string;
  operationsCount: number;
  ticketUpdatesCount: number;
  eventsCount: number;
  /** The token-metadata service exists (always with Michelscope's server). */
  tokenService: boolean;
  metadataLoaded: boolean;
  viewsCount: number;
  statsService: boolean;
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
  { id: 'interact', label: 'Interact', path: 'interact' },
  { id: 'tokens', label: 'Tokens', path: 'tokens' },
  { id: 'ticket_updates', label: 'Ticket updates', path: 'ticket_updates' },
  { id: 'metadata', label: 'Metadata', path: 'metadata' },
  { id: 'fork', label: 'Fork', path: 'fork' },
  { id: 'views', label: 'Views', path: 'views' },
  { id: 'events', label: 'Events', path: 'events' },
  { id: 'contract_stats', label: 'Statistics', path: 'stats' },
  { id: 'details', label: 'Details', path: 'details' },
];

function shown(id: TabId, f: TabFacts): boolean {
  const contract = f.accountType === 'contract';
  switch (id) {
    case 'operations':
      return true;
    case 'storage':
    case 'code':
    case 'interact':
    case 'fork':
    case 'details':
      return contract;
    case 'tokens':
      return contract && f.tokenService;
    case 'ticket_updates':
      return f.ticketUpdatesCount > 0;
    case 'metadata':
      return contract && f.metadataLoaded;
    case 'views':
      return contract && f.viewsCount > 0;
    case 'events':
      return f.eventsCount > 0;
    case 'contract_stats':
      return contract && f.statsService;
  }
}

/** The visible tabs in order; the current tab is always kept so that a direct URL never loses its tab. */
export function visibleTabs(facts: TabFacts, current: TabId): TabDef[] {
  return ORDER.filter((t) => t.id === current || shown(t.id, facts)).map((t) =>
    t.id === 'operations' ? { ...t, label: `Operations (${formatCompact(facts.operationsCount)})` } : t,
  );
}
