import { describe, expect, it } from 'vitest';
import { visibleTabs, type TabFacts } from './tab-visibility';

const base: TabFacts = {
  accountType: 'contract',
  operationsCount: 0,
  ticketUpdatesCount: 0,
  eventsCount: 0,
  tokenService: true,
  metadataLoaded: false,
  viewsCount: 0,
  statsService: false,
};
const ids = (facts: TabFacts, current = 'operations' as const) =>
  visibleTabs(facts, current).map((t) => t.id);

describe('visibleTabs', () => {
  it('shows contract tabs only for contracts', () => {
    expect(ids(base)).toEqual(['operations', 'storage', 'code', 'interact', 'tokens', 'fork', 'details']);
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
      'interact',
      'tokens',
      'ticket_updates',
      'metadata',
      'fork',
      'views',
      'events',
      'contract_stats',
      'details',
    ]);
    expect(ids({ ...base, accountType: 'account', ticketUpdatesCount: 3, eventsCount: 1 })).toEqual([
      'operations',
      'ticket_updates',
      'events',
    ]);
  });

  it('keeps the current tab even when its condition is false', () => {
    expect(visibleTabs(base, 'events').map((t) => t.id)).toContain('events');
  });

  it('labels operations with the compact count', () => {
    expect(visibleTabs({ ...base, operationsCount: 12_345 }, 'operations')[0]?.label).toBe(
      'Operations (12.3K)',
    );
    expect(visibleTabs({ ...base, operationsCount: 999 }, 'operations')[0]?.label).toBe('Operations (999)');
  });
});
