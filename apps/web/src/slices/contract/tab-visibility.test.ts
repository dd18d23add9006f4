import { describe, expect, it } from 'vitest';
import { tabShown, tabUnreachable, visibleTabs, type TabFacts } from './tab-visibility';

const base: TabFacts = {
  accountType: 'contract',
  operationsCount: 0,
  ticketUpdatesCount: 0,
  eventsCount: 0,
  tokenService: true,
  metadataLoaded: false,
  viewsCount: 0,
  statsService: false,
  verifiedSource: false,
};
const ids = (facts: TabFacts, current = 'operations' as const) =>
  visibleTabs(facts, current).map((t) => t.id);

describe('visibleTabs', () => {
  it('shows contract tabs only for contracts', () => {
    expect(ids(base)).toEqual([
      'operations',
      'storage',
      'code',
      'security',
      'interact',
      'tokens',
      'fork',
      'details',
      'watch',
    ]);
    expect(ids({ ...base, accountType: 'account' })).toEqual(['operations']);
  });

  it('adds ticket updates, events, metadata, views and stats only when their condition holds', () => {
    const all = ids({
      ...base,
      ticketUpdatesCount: 1,
      eventsCount: 2,
      metadataLoaded: true,
      viewsCount: 1,
      statsService: true,
    });
    expect(all).toEqual([
      'operations',
      'storage',
      'code',
      'security',
      'interact',
      'tokens',
      'ticket_updates',
      'metadata',
      'fork',
      'views',
      'events',
      'contract_stats',
      'details',
      'watch',
    ]);
    expect(ids({ ...base, accountType: 'account', ticketUpdatesCount: 3, eventsCount: 1 })).toEqual([
      'operations',
      'ticket_updates',
      'events',
    ]);
  });

  it('a tab is shown exactly when it is reachable: a known-false condition hides it and its URL', () => {
    expect(visibleTabs(base, 'events').map((t) => t.id)).not.toContain('events');
    expect(tabUnreachable(base, 'events')).toBe(true);
    // the contract Statistics tab where the network has no statistics service (was: hidden yet opening)
    expect(visibleTabs(base, 'contract_stats').map((t) => t.id)).not.toContain('contract_stats');
    expect(tabUnreachable(base, 'contract_stats')).toBe(true);
    const withStats = { ...base, statsService: true };
    expect(visibleTabs(withStats, 'operations').map((t) => t.id)).toContain('contract_stats');
    expect(tabUnreachable(withStats, 'contract_stats')).toBe(false);
    // an implicit account has no storage
    expect(tabUnreachable({ ...base, accountType: 'account' }, 'storage')).toBe(true);
    for (const id of ['operations', 'storage', 'code', 'tokens'] as const)
      expect(tabUnreachable(base, id)).toBe(false);
  });

  it('keeps the current tab while what it depends on is loading, and only that one', () => {
    const loading: TabFacts = {
      ...base,
      accountType: null,
      ticketUpdatesCount: null,
      eventsCount: null,
      tokenService: null,
      metadataLoaded: null,
      viewsCount: null,
    };
    expect(ids(loading)).toEqual(['operations']);
    expect(visibleTabs(loading, 'events').map((t) => t.id)).toEqual(['operations', 'events']);
    expect(tabUnreachable(loading, 'events')).toBe(false);
    expect(tabShown('tokens', { ...loading, accountType: 'contract' })).toBeNull();
    // one known-false half is enough to decide
    expect(tabShown('tokens', { ...loading, accountType: 'account' })).toBe(false);
    expect(tabShown('views', { ...base, viewsCount: null })).toBeNull();
  });

  it('shows the Source tab right after Code only when the contract has a verified source (issue 38)', () => {
    expect(ids({ ...base, verifiedSource: true }).slice(0, 4)).toEqual([
      'operations',
      'storage',
      'code',
      'source',
    ]);
    expect(ids(base)).not.toContain('source');
    expect(tabUnreachable(base, 'source')).toBe(true);
    // while the source is asked for, the Source tab's own URL keeps it; other tabs do not list it
    expect(ids({ ...base, verifiedSource: null })).not.toContain('source');
    expect(visibleTabs({ ...base, verifiedSource: null }, 'source').map((t) => t.id)).toContain('source');
    expect(tabUnreachable({ ...base, verifiedSource: null }, 'source')).toBe(false);
    expect(tabShown('source', { ...base, accountType: 'account', verifiedSource: true })).toBe(false);
  });

  it('labels operations with the compact count', () => {
    expect(visibleTabs({ ...base, operationsCount: 12_345 }, 'operations')[0]?.label).toBe(
      'Operations (12.3K)',
    );
    expect(visibleTabs({ ...base, operationsCount: 999 }, 'operations')[0]?.label).toBe('Operations (999)');
  });
});
