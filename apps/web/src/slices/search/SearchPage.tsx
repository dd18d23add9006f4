import { Fragment, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useInfiniteQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Collapse from '@mui/material/Collapse';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import FilterListIcon from '@mui/icons-material/FilterList';
import SearchIcon from '@mui/icons-material/Search';
import { EXPORTS } from '../../api/export-requests';
import { runAction } from '../../api/resources';
import { SEARCH_PAGE_SIZE } from '../../api/services';
import { ExportButton } from '../../shared/export/ExportButton';
import { useAppConfig } from '../../shared/config/useAppConfig';
import { sortNetworks } from '../../shared/config/network-order';
import { useDebouncedValue } from '../../shared/hooks/useDebouncedValue';
import { EmptyState } from '../../shared/ui/EmptyState';
import { MAX_QUERY_LENGTH, normalizeQuery } from '../home/search-box-logic';
import { DetailCard } from './DetailCard';
import { ResultItem } from './ResultItem';
import {
  EMPTY_TOKEN_FILTERS,
  MIN_QUERY_LENGTH,
  SEARCH_DEBOUNCE_MS,
  SEARCH_TABS,
  TOTAL_CAP,
  canApplyFilters,
  hasTokenFilters,
  isComplete,
  requestFilters,
  totalLabel,
  type SearchTabId,
  verifiedFilterApplies,
  type TokenFilterValues,
} from './search-logic';
import { TokenFilters } from './TokenFilters';

export const NOTHING_FOUND = 'Nothing found';
export const NOTHING_FOUND_TEXT = 'Empty set is also a result, otherwise try a broader query';

/** The search page: query box, network chips, tabs, results with infinite scroll and the selected card. */
export function SearchPage() {
  const config = useAppConfig();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(() => (params.get('text') ?? '').slice(0, MAX_QUERY_LENGTH));
  const [tab, setTab] = useState<SearchTabId>('everywhere');
  const [networks, setNetworks] = useState(() => sortNetworks(config.networks, (n) => n));
  const [draft, setDraft] = useState<TokenFilterValues>(EMPTY_TOKEN_FILTERS);
  const [applied, setApplied] = useState<TokenFilterValues>(EMPTY_TOKEN_FILTERS);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [selected, setSelected] = useState(0);
  // 'Verified source only' (issue 38), kept in the URL as `verified=true`
  const [verifiedOnly, setVerifiedOnly] = useState(() => params.get('verified') === 'true');
  const query = useDebouncedValue(normalizeQuery(text), SEARCH_DEBOUNCE_MS);

  // The query text lives in the URL; the original's `sc` and `redirected` parameters are dropped.
  useEffect(() => {
    const current = params.get('text') ?? '';
    const verified = params.get('verified') === 'true';
    if (current === query && verified === verifiedOnly && !params.has('sc') && !params.has('redirected'))
      return;
    setParams(
      { ...(query ? { text: query } : {}), ...(verifiedOnly ? { verified: 'true' } : {}) },
      { replace: true },
    );
  }, [query, verifiedOnly, params, setParams]);
  const filters = requestFilters(tab, networks, applied, verifiedOnly);

  const active =
    query.length >= MIN_QUERY_LENGTH ||
    hasTokenFilters(applied) ||
    (verifiedOnly && verifiedFilterApplies(tab));
  const results = useInfiniteQuery({
    // the registry's name with the request but its offset (the page cursor is the infinite query's own)
    queryKey: ['search', { query, filters }] as const,
    enabled: active,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      runAction(
        'search',
        undefined,
        { query, size: SEARCH_PAGE_SIZE, offset: pageParam, filters },
        { signal },
      ),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      return isComplete(last, loaded) ? undefined : loaded;
    },
    staleTime: 30_000,
  });
  const items = results.data?.pages.flatMap((p) => p.items) ?? [];
  const first = results.data?.pages[0];
  const current = items[selected] ?? items[0];

  const sentinel = useRef<HTMLDivElement>(null);
  // Spec: list on the left, the selected result's card on the right. On a phone the card opens right under the
  // result that was tapped, where the user is looking (a card above or below the list would be off-screen).
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const inlineRef = useRef<HTMLLIElement>(null);
  const [tapped, setTapped] = useState(0);
  const select = (index: number) => {
    setSelected(index);
    setTapped((n) => n + 1);
  };
  // bring the opened card into view (a tap on the last visible result opens it below the screen's edge)
  useEffect(() => {
    if (narrow && tapped > 0) inlineRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'nearest' });
  }, [narrow, tapped]);
  const card = current ? <DetailCard key={`${current.type}-${current.value}`} item={current} /> : null;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = results;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || typeof IntersectionObserver === 'undefined' || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const changeTab = (next: SearchTabId) => {
    setTab(next);
    setSelected(0);
    if (next !== 'tokens') {
      setDraft(EMPTY_TOKEN_FILTERS);
      setApplied(EMPTY_TOKEN_FILTERS);
      setFiltersOpen(false);
    }
  };
  const toggleNetwork = (network: string) => {
    setSelected(0);
    setNetworks((list) =>
      list.includes(network)
        ? list.length > 1
          ? list.filter((n) => n !== network)
          : list
        : sortNetworks([...list, network], (n) => n),
    );
  };

  return (
    <Stack sx={{ py: 3, gap: 2 }}>
      <title>{query ? `${query} · Search · Michelscope` : 'Search · Michelscope'}</title>
      <Typography variant="h4" component="h1">
        Search
      </Typography>
      <TextField
        value={text}
        onChange={(e) => {
          setText(e.target.value.slice(0, MAX_QUERY_LENGTH));
          setSelected(0);
        }}
        placeholder="Search anything: address, entrypoint, token, operation hash…"
        slotProps={{
          htmlInput: { 'aria-label': 'Search query' },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon />
              </InputAdornment>
            ),
          },
        }}
      />
      <Stack direction="row" role="group" aria-label="Networks" sx={{ flexWrap: 'wrap', gap: 1 }}>
        {sortNetworks(config.networks, (n) => n).map((n) => (
          <Chip
            key={n}
            label={n}
            role="checkbox"
            aria-checked={networks.includes(n)}
            color={networks.includes(n) ? 'primary' : 'default'}
            variant={networks.includes(n) ? 'filled' : 'outlined'}
            onClick={() => toggleNetwork(n)}
          />
        ))}
      </Stack>
      <Stack direction="row" sx={{ alignItems: 'center', borderBottom: 1, borderColor: 'divider', gap: 1 }}>
        <Tabs
          value={tab}
          onChange={(_e, v: SearchTabId) => changeTab(v)}
          variant="scrollable"
          allowScrollButtonsMobile
          aria-label="Search in"
          sx={{ flexGrow: 1 }}
        >
          {SEARCH_TABS.map((t) => (
            <Tab key={t.id} value={t.id} label={t.label} />
          ))}
        </Tabs>
        {tab === 'tokens' ? (
          <Button
            startIcon={<FilterListIcon />}
            aria-expanded={filtersOpen}
            onClick={() => setFiltersOpen((o) => !o)}
          >
            Filters
          </Button>
        ) : null}
      </Stack>
      {verifiedFilterApplies(tab) ? (
        <FormControlLabel
          sx={{ alignSelf: 'flex-start' }}
          control={
            <Checkbox
              checked={verifiedOnly}
              onChange={(e) => {
                setVerifiedOnly(e.target.checked);
                setSelected(0);
              }}
            />
          }
          label="Verified source only"
        />
      ) : null}
      {tab === 'tokens' ? (
        <Collapse in={filtersOpen} unmountOnExit>
          <TokenFilters
            draft={draft}
            onDraftChange={setDraft}
            canApply={canApplyFilters(draft, applied, text)}
            onApply={() => {
              setApplied(draft);
              setSelected(0);
            }}
          />
        </Collapse>
      ) : null}

      {!active ? (
        <EmptyState
          title="Let's search"
          text="Type an address, an entrypoint, a token name, an operation hash or anything else."
        />
      ) : results.isPending ? (
        <Box role="status" sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
          <CircularProgress aria-label="Searching" />
        </Box>
      ) : items.length === 0 ? (
        results.isError ? (
          <EmptyState title="The search failed" text={results.error.message} />
        ) : (
          <EmptyState title={NOTHING_FOUND} text={NOTHING_FOUND_TEXT} />
        )
      ) : (
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 7 }}>
            <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography variant="caption" color="text.secondary" role="status" sx={{ flexGrow: 1 }}>
                Found {totalLabel(first?.total ?? 0)} documents ({first?.took ?? 0} ms)
              </Typography>
              <ExportButton
                what="search results"
                request={(format) => EXPORTS.search({ query, filters }, format)}
                total={first && first.total < TOTAL_CAP ? first.total : undefined}
              />
            </Stack>
            <List aria-label="Search results">
              {items.map((item, i) => (
                <Fragment key={`${item.type}-${item.value}-${i}`}>
                  <ResultItem item={item} selected={item === current} onSelect={() => select(i)} />
                  {narrow && item === current ? (
                    <Box
                      component="li"
                      ref={inlineRef}
                      sx={{ listStyle: 'none', py: 1 }}
                      data-testid="search-inline-card"
                    >
                      {card}
                    </Box>
                  ) : null}
                </Fragment>
              ))}
            </List>
            <div ref={sentinel} />
            {hasNextPage ? (
              <Button fullWidth disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                {isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            ) : null}
          </Grid>
          {narrow ? null : (
            <Grid size={{ xs: 12, md: 5 }} data-testid="search-side-card">
              {card}
            </Grid>
          )}
        </Grid>
      )}
    </Stack>
  );
}
