import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import FilterListIcon from '@mui/icons-material/FilterList';
import { searchOperations } from '../../api/account-search-api';
import { nextOpgCursor, opgListQuery, opgPage } from '../../api/contract-api';
import { fetchResource, resourceKey } from '../../api/resources';
import type { OpgRow } from '../../api/opg-types';
import { OPERATION_SEARCH_PAGE_SIZE } from '../../api/account-search-api';
import { useAppConfig } from '../../shared/config/useAppConfig';
import { useDebouncedValue } from '../../shared/hooks/useDebouncedValue';
import { useLiveEvent, useLiveSubscription } from '../../shared/live/useLive';
import { EmptyState } from '../../shared/ui/EmptyState';
import { ExportButton } from '../../shared/export/ExportButton';
import { EXPORTS } from '../../api/export-requests';
import type { ContractPageData } from '../contract/useContractPage';
import { InfoCard } from './InfoCard';
import { NO_FILTERS, OpgFilterDialog, type OpgFilters } from './OpgFilterDialog';
import { OpgList } from './OpgList';
import {
  dateRange,
  HEADER_PX,
  isLastPage,
  isNarrowSearch,
  mergeMempool,
  opgRowKey,
  prependNew,
  searchStatuses,
} from './opg-list-logic';

export const SEARCH_PLACEHOLDER = 'Start entering hash of operation, source or destination address';

function useMempool(network: string, address: string, enabled: boolean) {
  return useQuery({
    queryKey: resourceKey('mempool', { network, address }),
    enabled,
    retry: false,
    meta: { silent: true },
    queryFn: async ({ signal }): Promise<OpgRow[]> => {
      const ops = (await fetchResource('mempool', { network, address }, { signal })) ?? [];
      return ops.map((op) => ({
        last_id: 0,
        content_index: op.content_index,
        counter: op.counter ?? 0,
        level: op.level ?? 0,
        total_cost: (op.fee ?? 0) + (op.burned ?? 0),
        flow: op.source === address ? -(op.amount ?? 0) : (op.amount ?? 0),
        internals: 0,
        hash: op.hash ?? '',
        entrypoint: op.entrypoint ?? '',
        timestamp: op.timestamp,
        status: op.status,
        kind: op.kind,
        mempool: true,
      }));
    },
  });
}

/** The operations tab: info card, search, filters and the infinite list of operation groups. */
export function OperationsTab({ data }: { data: ContractPageData }) {
  const { network, address } = data;
  const config = useAppConfig();
  const [text, setText] = useState('');
  const [filters, setFilters] = useState<OpgFilters>(NO_FILTERS);
  const [dialog, setDialog] = useState(false);
  // the dialog (MUI Dialog, Selects, date fields) is not part of the first render: drawn from its first opening
  const [dialogUsed, setDialogUsed] = useState(false);
  const [narrow, setNarrow] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const search = useDebouncedValue(text.trim(), 300);

  const range = dateRange(filters.from, filters.to);
  const statuses = searchStatuses(filters.statuses);
  const filterCount = filters.statuses.length + filters.entrypoints.length + (range ? 1 : 0);
  const filtering = search !== '' || filterCount > 0;

  const unfiltered = opgListQuery(network, address);
  const list = useInfiniteQuery({
    // The unfiltered list is the route loader's query (opgListQuery); a search or filter adds to its key.
    queryKey: filtering ? [...unfiltered.queryKey, search, filters] : unfiltered.queryKey,
    enabled: !filtering || statuses !== null,
    initialPageParam: filtering ? 0 : (null as number | null),
    queryFn: ({ pageParam, signal }) =>
      filtering
        ? searchOperations(
            {
              network,
              address,
              text: search,
              statuses: statuses ?? [],
              entrypoints: filters.entrypoints,
              range,
            },
            pageParam ?? 0,
            { signal },
          )
        : opgPage(network, address, pageParam, { signal }),
    getNextPageParam: (last, pages) => {
      if (!filtering) return nextOpgCursor(last);
      return isLastPage(last.length, OPERATION_SEARCH_PAGE_SIZE)
        ? undefined
        : pages.length * OPERATION_SEARCH_PAGE_SIZE;
    },
  });
  const mempool = useMempool(network, address, config.mempool_enabled);

  // Live: groups of this account indexed since the page opened go on top, marked new; while the user reads
  // further down, they wait behind an 'N new operations' button instead of moving the rows.
  const queries = useQueryClient();
  const listRef = useRef<HTMLUListElement>(null);
  const [newKeys, setNewKeys] = useState<ReadonlySet<string>>(new Set());
  const [waiting, setWaiting] = useState<OpgRow[]>([]);
  const [jump, setJump] = useState(0);
  useLiveSubscription(network, { address });
  const insert = (rows: OpgRow[]) => {
    queries.setQueryData<InfiniteData<OpgRow[], number | null>>(unfiltered.queryKey, (old) =>
      old ? { ...old, pages: prependNew(old.pages, rows) } : old,
    );
    setNewKeys((keys) => new Set([...keys, ...rows.map(opgRowKey)]));
  };
  useLiveEvent(network, 'operations', (event) => {
    if (event.address !== address || filtering) return;
    void opgPage(network, address, null).then((page) => {
      const known = new Set([
        ...(queries.getQueryData<InfiniteData<OpgRow[]>>(unfiltered.queryKey)?.pages.flat() ?? []).map(
          opgRowKey,
        ),
        ...waiting.map(opgRowKey),
      ]);
      const fresh = page.filter((r) => !known.has(opgRowKey(r)));
      if (fresh.length === 0) return;
      // the list's top under the sticky header (56-64 px): the user reads further down
      const top = listRef.current?.getBoundingClientRect().top ?? HEADER_PX;
      if (top < HEADER_PX) setWaiting((w) => [...fresh, ...w]);
      else insert(fresh);
    });
  });
  const showWaiting = () => {
    insert(waiting);
    setWaiting([]);
    setJump((j) => j + 1);
  };
  // to the list's top once the new rows are rendered (before, the browser's scroll anchoring would keep the
  // row read in place and leave the new rows above, under the header)
  useLayoutEffect(() => {
    if (jump > 0) listRef.current?.scrollIntoView({ block: 'start' });
  }, [jump]);
  // the same rows (array) from render to render until the data changes: a key typed in the search box does not
  // walk the list again
  const rows = useMemo(
    () => mergeMempool(list.data?.pages.flat() ?? [], mempool.data ?? [], filtering),
    [list.data, mempool.data, filtering],
  );
  // On error the list counts as downloaded: nothing more is requested.
  const downloaded = !list.hasNextPage || list.isError;

  const sentinel = useRef<HTMLDivElement>(null);
  const { fetchNextPage, isFetchingNextPage } = list;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || downloaded || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [downloaded, fetchNextPage, isFetchingNextPage]);

  useEffect(() => {
    const el = boxRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) =>
      setNarrow(isNarrowSearch(entry?.contentRect.width ?? 1000)),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const noSearchPossible = filtering && statuses === null;
  return (
    <Stack spacing={2}>
      <InfoCard data={data} />
      <Stack direction="row" spacing={1} ref={boxRef} sx={{ alignItems: 'center' }}>
        <TextField
          fullWidth
          size="small"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value.slice(0, 255))}
          placeholder={narrow ? 'Search' : SEARCH_PLACEHOLDER}
          slotProps={{ htmlInput: { 'aria-label': 'Search operations' } }}
        />
        <Badge badgeContent={filterCount} color="primary">
          <Button
            variant="outlined"
            startIcon={<FilterListIcon />}
            onClick={() => {
              setDialogUsed(true);
              setDialog(true);
            }}
          >
            Filters
          </Button>
        </Badge>
      </Stack>
      {statuses === null ? null : (
        <ExportButton
          what="operations"
          request={(format) =>
            EXPORTS.operations(
              { network, address, statuses, entrypoints: filters.entrypoints, range, search },
              format,
            )
          }
        />
      )}
      {dialogUsed ? (
        <OpgFilterDialog
          open={dialog}
          onClose={() => setDialog(false)}
          value={filters}
          onApply={setFilters}
          entrypoints={data.isContract ? (data.contract?.entrypoints ?? []) : null}
        />
      ) : null}
      {list.isPending && !noSearchPossible ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label="Loading operations" />
        </Box>
      ) : rows.length === 0 ? (
        list.isError ? null : (
          <EmptyState
            title="Nothing found"
            text="Empty set is also a result, otherwise try a broader query"
          />
        )
      ) : (
        <>
          {waiting.length > 0 ? (
            // a bar right under the app's sticky header (56 px on a phone, 64 px above): it is part of the
            // toolbar and floats over no row the user reads
            <Box
              sx={{
                position: 'sticky',
                top: { xs: 56, sm: HEADER_PX },
                zIndex: 2,
                display: 'flex',
                justifyContent: 'center',
                py: 0.5,
                bgcolor: 'background.default',
                borderBottom: 1,
                borderColor: 'divider',
              }}
            >
              <Button variant="contained" size="small" onClick={showWaiting}>
                {waiting.length === 1 ? '1 new operation' : `${waiting.length} new operations`}
              </Button>
            </Box>
          ) : null}
          <OpgList network={network} rows={rows} newKeys={newKeys} complete={downloaded} listRef={listRef} />
        </>
      )}
      {!downloaded && rows.length > 0 ? (
        <Box ref={sentinel} sx={{ display: 'flex', justifyContent: 'center' }}>
          <Button onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </Box>
      ) : null}
    </Stack>
  );
}
