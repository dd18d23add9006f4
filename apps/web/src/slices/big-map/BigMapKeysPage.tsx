import { memo, startTransition, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  BIG_MAP_PAGE_SIZE,
  bigMapDetailsQuery,
  bigMapKeysQuery,
  bigMapKeyStateQuery,
} from '../../api/bigmap-api';
import type { BigMapKeyRow } from '../../api/bigmap-api';
import { EXPORTS } from '../../api/export-requests';
import { CopyButton } from '../../shared/clipboard/CopyButton';
import { ExportButton } from '../../shared/export/ExportButton';
import { formatTime } from '../../shared/format/format';
import { useDebouncedValue } from '../../shared/hooks/useDebouncedValue';
import { MiguelTree } from '../../shared/micheline/MiguelTree';
import { EmptyState } from '../../shared/ui/EmptyState';
import { ContractFrame } from '../contract/ContractFrame';
import { BigMapSidebar } from './BigMapSidebar';
import { KEY_FILTER_DEBOUNCE_MS, KEY_FILTER_PLACEHOLDER, keySearch } from './big-map-logic';
import { useLiveSubscription } from '../../shared/live/useLive';

/**
 * One key, collapsed until opened. Memoised: paging shows the previous page's keys (the same objects) until the
 * next page arrives, and rendering them again made the click's next paint wait (INP 160–270 ms on a phone, 4× CPU).
 */
const KeyPanel = memo(function KeyPanel({
  network,
  address,
  ptr,
  item,
}: {
  network: string;
  address: string;
  ptr: number;
  item: BigMapKeyRow;
}) {
  const [open, setOpen] = useState(false);
  const state = useQuery({ ...bigMapKeyStateQuery(network, ptr, item.key_hash), enabled: open });
  return (
    <Accordion
      expanded={open}
      onChange={(_, v) => setOpen(v)}
      disableGutters
      variant="outlined"
      slots={{ heading: 'h2' }}
      slotProps={{ transition: { unmountOnExit: true } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap', minWidth: 0 }}>
          <Typography sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
            {item.key_string || item.key_hash}
          </Typography>
          <Chip
            size="small"
            variant="outlined"
            color={item.is_active ? 'success' : 'default'}
            label={item.is_active ? 'Active' : 'Removed'}
          />
          <Typography variant="caption" color="text.secondary">
            {formatTime(item.timestamp)}
          </Typography>
        </Stack>
      </AccordionSummary>
      <AccordionDetails>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="caption" color="text.secondary">
            Key hash
          </Typography>
          <Typography sx={{ fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere' }}>
            {item.key_hash}
          </Typography>
          <CopyButton text={item.key_hash} label="Copy key hash" />
        </Stack>
        {item.key ? (
          <>
            <Typography variant="overline">Key</Typography>
            <MiguelTree roots={[item.key]} label="Key" network={network} address={address} />
          </>
        ) : null}
        <Typography variant="overline" component="div">
          Value
        </Typography>
        {state.isPending ? (
          <LinearProgress aria-label="Loading value" />
        ) : state.data?.value ? (
          <MiguelTree roots={[state.data.value]} label="Value" network={network} address={address} />
        ) : (
          <Typography color="text.secondary">—</Typography>
        )}
        <Button
          component={RouterLink}
          to={`/${network}/${address}/storage/big_map/${ptr}/${item.key_hash}`}
          size="small"
          sx={{ mt: 1 }}
        >
          View history
        </Button>
      </AccordionDetails>
    </Accordion>
  );
});

/** A collapsed key row's height at least (MUI's accordion summary, one line). */
const KEY_ROW_PX = 48;

/** The room a page of keys takes at least, while it loads: its rows (a page, or fewer in a small map). */
function loadingRoom(
  details: { total_keys: number; active_keys: number } | undefined,
  onlyActive: boolean,
): number {
  const total = details ? (onlyActive ? details.active_keys : details.total_keys) : BIG_MAP_PAGE_SIZE;
  return Math.min(BIG_MAP_PAGE_SIZE, Math.max(1, total)) * KEY_ROW_PX;
}

function KeysList({ network, address, ptr }: { network: string; address: string; ptr: number }) {
  // live: keys updated in a new block refetch the page shown, and the contract's new operations its
  // counts (the tab labels) (api/live.ts)
  useLiveSubscription(network, { bigMap: ptr, address });
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [onlyActive, setOnlyActive] = useState(false);
  const debounced = useDebouncedValue(text, KEY_FILTER_DEBOUNCE_MS);
  const next = keySearch(debounced);
  if (next !== null && next !== search) {
    setSearch(next);
    setPage(1);
  }
  // each shown page's last key hash (for this filter): the next page is read after it, by keyset, whatever
  // its depth (an offset walks every key it skips: 2,000,000-key maps)
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new map for each big map and filter
  const lastKeys = useMemo(() => new Map<number, string>(), [network, ptr, search, onlyActive]);
  const keys = useQuery({
    ...bigMapKeysQuery(
      network,
      ptr,
      (page - 1) * BIG_MAP_PAGE_SIZE,
      search,
      onlyActive,
      lastKeys.get(page - 1),
    ),
    placeholderData: keepPreviousData,
  });
  const lastKey = keys.isPlaceholderData ? undefined : keys.data?.at(-1)?.key_hash;
  useEffect(() => {
    if (lastKey !== undefined) lastKeys.set(page, lastKey);
  }, [lastKeys, page, lastKey]);
  const details = useQuery(bigMapDetailsQuery(network, ptr));
  const items = (keys.data ?? []).filter((k) => !onlyActive || k.is_active);
  const pages =
    search === '' && details.data
      ? Math.max(
          1,
          Math.ceil((onlyActive ? details.data.active_keys : details.data.total_keys) / BIG_MAP_PAGE_SIZE),
        )
      : null;
  const more = (keys.data?.length ?? 0) === BIG_MAP_PAGE_SIZE;
  return (
    <Stack spacing={1}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          size="small"
          fullWidth
          type="search"
          value={text}
          placeholder={KEY_FILTER_PLACEHOLDER}
          onChange={(e) => setText(e.target.value.slice(0, 255))}
          slotProps={{ htmlInput: { 'aria-label': 'Filter keys' } }}
        />
        <FormControlLabel
          control={
            <Switch
              checked={onlyActive}
              onChange={(_, v) => {
                setOnlyActive(v);
                setPage(1);
              }}
            />
          }
          label="Only active"
          sx={{ flexShrink: 0 }}
        />
      </Stack>
      <ExportButton
        what="keys"
        request={(format) => EXPORTS.bigMapKeys({ network, ptr, search, activeOnly: onlyActive }, format)}
        total={
          search === '' && details.data
            ? onlyActive
              ? details.data.active_keys
              : details.data.total_keys
            : undefined
        }
      />
      {keys.isPending ? (
        // the page's rows' room (one line each at least): the pagination and, on a phone, the details below
        // do not jump down when the keys arrive
        <Box sx={{ minHeight: loadingRoom(details.data, onlyActive) }}>
          <LinearProgress aria-label="Loading keys" />
        </Box>
      ) : null}
      {!keys.isPending && items.length === 0 ? <EmptyState title="Nothing found" /> : null}
      <Box role="list" aria-label="Keys">
        {items.map((item) => (
          <Box role="listitem" key={item.key_hash}>
            <KeyPanel network={network} address={address} ptr={ptr} item={item} />
          </Box>
        ))}
      </Box>
      <Pagination
        count={pages ?? page + (more ? 1 : 0)}
        page={page}
        // a transition: the click is painted (the ripple) before the page's new render
        onChange={(_, p) => startTransition(() => setPage(p))}
        sx={{ alignSelf: 'center' }}
        getItemAriaLabel={(type, p) => (type === 'page' ? `Go to page ${p}` : `Go to ${type} page`)}
      />
    </Stack>
  );
}

/** /{network}/{address}/storage/big_map/{ptr}/keys */
export function BigMapKeysPage() {
  const { ptr = '0' } = useParams();
  const pointer = Number(ptr);
  return (
    <ContractFrame tab="storage">
      {({ network, address }) => (
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 8 }}>
            <KeysList network={network} address={address} ptr={pointer} />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <BigMapSidebar network={network} address={address} ptr={pointer} />
          </Grid>
        </Grid>
      )}
    </ContractFrame>
  );
}
