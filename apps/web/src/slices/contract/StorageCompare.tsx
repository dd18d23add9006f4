import { useState, type FormEvent } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { opgListQuery } from '../../api/contract-api';
import { bigMapKeyChangesQuery, KEY_CHANGES_PAGE_SIZE, storageDiffQuery } from '../../api/queries';
import type {
  KeyChangeCounts,
  KeyChangeKind as KeyChange,
  MiguelNode,
  StorageDiff,
} from '@michelscope/api-types';
import { formatNumber } from '../../shared/format/format';
import { MiguelTree } from '../../shared/micheline/MiguelTree';
import {
  CHANGE_LABEL,
  hasChange,
  operationChoices,
  orderedEnds,
  pageRange,
  parseLevel,
  totalChanges,
} from './storage-compare-logic';

const CHANGE_COLOUR = { added: 'success', changed: 'warning', removed: 'error' } as const;

interface Ends {
  from: number;
  to: number;
}

/** One end of the comparison: a level typed in, or the level of one of the contract's recent operations. */
function EndPicker({
  label,
  value,
  onChange,
  operations,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  operations: ReadonlyArray<{ level: number; text: string; hash: string }>;
}) {
  const id = `compare-${label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
      <TextField
        size="small"
        label={`${label} level`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        slotProps={{ htmlInput: { inputMode: 'numeric', 'aria-label': `${label} level` } }}
        sx={{ width: 150 }}
      />
      <FormControl size="small" sx={{ minWidth: 200, flex: '1 1 200px', maxWidth: 360 }}>
        <InputLabel id={`${id}-op`}>{`${label}: after operation`}</InputLabel>
        <Select
          labelId={`${id}-op`}
          label={`${label}: after operation`}
          value=""
          onChange={(e) => onChange(String(e.target.value))}
          disabled={operations.length === 0}
        >
          {operations.map((o) => (
            <MenuItem key={`${o.hash}-${o.level}`} value={String(o.level)}>
              {o.text}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
    </Stack>
  );
}

export function CountChips({ counts }: { counts: KeyChangeCounts }) {
  return (
    <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap' }} aria-label="Key changes">
      {(['added', 'changed', 'removed'] as const).map((c) => (
        <Chip
          key={c}
          size="small"
          variant="outlined"
          color={CHANGE_COLOUR[c]}
          label={`${formatNumber(counts[c])} ${c}`}
        />
      ))}
    </Stack>
  );
}

/** One big-map key that differs: its class, its text, and its value as a diff tree (old ➛ new). */
export function ChangedKey({
  network,
  item,
  note,
}: {
  network: string;
  item: { key_string: string; change: KeyChange; value: MiguelNode | null };
  note?: string;
}) {
  return (
    <Box
      component="li"
      aria-label={`${CHANGE_LABEL[item.change]} key ${item.key_string}`}
      sx={{ borderTop: 1, borderColor: 'divider', pt: 1 }}
    >
      <Stack direction="row" sx={{ gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
        <Chip size="small" color={CHANGE_COLOUR[item.change]} label={CHANGE_LABEL[item.change]} />
        <Box
          component="span"
          sx={{ fontFamily: 'monospace', fontSize: 14, overflowWrap: 'anywhere', minWidth: 0 }}
        >
          {item.key_string}
        </Box>
        {note ? (
          <Typography variant="caption" color="text.secondary">
            {note}
          </Typography>
        ) : null}
      </Stack>
      {item.value ? (
        <MiguelTree
          roots={[item.value]}
          label={`Value of ${item.key_string}`}
          network={network}
          diffMode
          open="changed"
          maxHeight={240}
        />
      ) : null}
    </Box>
  );
}

/** The keys of one big map that differ between the two ends: counts, a class filter, pages of 20. */
function BigMapChanges({
  network,
  address,
  ends,
  map,
}: {
  network: string;
  address: string;
  ends: Ends;
  map: StorageDiff['big_maps'][number];
}) {
  const [change, setChange] = useState<KeyChange | null>(null);
  const [page, setPage] = useState(0);
  const total = totalChanges(map.counts);
  const keys = useQuery({
    ...bigMapKeyChangesQuery(network, address, map.ptr, { ...ends, page, change }),
    enabled: total > 0,
  });
  const title = `${map.name ?? 'big map'} · Big Map ${map.ptr}`;
  const shownTotal = change ? map.counts[change] : total;
  const items = keys.data?.items ?? [];
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 1.5 }}>
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontFamily: 'monospace' }}>
          {title}
        </Typography>
        <CountChips counts={map.counts} />
      </Stack>
      {total === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No key differs between the two levels.
        </Typography>
      ) : (
        <>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={change ?? 'all'}
            onChange={(_, v: KeyChange | 'all' | null) => {
              if (v === null) return;
              setChange(v === 'all' ? null : v);
              setPage(0);
            }}
            aria-label={`Show keys of ${title}`}
            sx={{ mb: 1, flexWrap: 'wrap' }}
          >
            <ToggleButton value="all">All</ToggleButton>
            <ToggleButton value="added">Added</ToggleButton>
            <ToggleButton value="changed">Changed</ToggleButton>
            <ToggleButton value="removed">Removed</ToggleButton>
          </ToggleButtonGroup>
          {keys.isPending ? <LinearProgress aria-label="Loading changed keys" /> : null}
          {keys.isError ? <Alert severity="error">{keys.error.message}</Alert> : null}
          <Stack
            component="ol"
            aria-label={`Changed keys of ${title}`}
            sx={{ p: 0, m: 0, listStyle: 'none', gap: 1 }}
          >
            {items.map((item) => (
              <ChangedKey
                key={item.key_hash}
                network={network}
                item={item}
                note={`last written at ${formatNumber(item.level)}`}
              />
            ))}
          </Stack>
          <Stack direction="row" sx={{ gap: 1, alignItems: 'center', mt: 1, flexWrap: 'wrap' }}>
            <Typography variant="body2" aria-live="polite">
              {pageRange(page, KEY_CHANGES_PAGE_SIZE, items.length, shownTotal)}
            </Typography>
            <Button size="small" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <Button
              size="small"
              disabled={(page + 1) * KEY_CHANGES_PAGE_SIZE >= shownTotal}
              onClick={() => setPage(page + 1)}
            >
              Next
            </Button>
          </Stack>
        </>
      )}
    </Paper>
  );
}

/**
 * Storage tab 'Compare': the storage at the end of one level against another (levels in the URL, `from` and
 * `to`), fields as the operation storage diff shows them, and every big map's keys added, changed (old ➛ new)
 * and removed, counted and paged.
 */
export function StorageCompare({
  network,
  address,
  ends,
  onApply,
  onClose,
}: {
  network: string;
  address: string;
  ends: Ends | null;
  onApply: (ends: Ends) => void;
  onClose: () => void;
}) {
  const [fromText, setFromText] = useState(ends ? String(ends.from) : '');
  const [toText, setToText] = useState(ends ? String(ends.to) : '');
  const [formError, setFormError] = useState<string | null>(null);
  const ops = useInfiniteQuery({ ...opgListQuery(network, address), meta: { silent: true } });
  const operations = operationChoices(ops.data?.pages.flat() ?? []);
  const diff = useQuery({
    ...storageDiffQuery(network, address, ends?.from ?? 0, ends?.to ?? 1),
    enabled: ends !== null,
  });

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const next = orderedEnds(parseLevel(fromText), parseLevel(toText));
    if (!next) {
      setFormError('Enter two different levels (whole numbers).');
      return;
    }
    setFormError(null);
    setFromText(String(next.from));
    setToText(String(next.to));
    onApply(next);
  };

  return (
    <Stack sx={{ gap: 2 }}>
      <Paper
        variant="outlined"
        component="form"
        onSubmit={apply}
        aria-label="Compare storage"
        sx={{ p: 1.5 }}
      >
        <Stack sx={{ gap: 1 }}>
          <EndPicker label="From" value={fromText} onChange={setFromText} operations={operations} />
          <EndPicker label="To" value={toText} onChange={setToText} operations={operations} />
          <Stack direction="row" sx={{ gap: 1 }}>
            <Button type="submit" variant="contained" size="small">
              Compare
            </Button>
            <Button size="small" onClick={onClose}>
              Close comparison
            </Button>
          </Stack>
          {formError ? <Alert severity="warning">{formError}</Alert> : null}
          <Typography variant="caption" color="text.secondary">
            Each end is the state at the end of its block: an operation stands for its level.
          </Typography>
        </Stack>
      </Paper>
      {ends === null ? null : diff.isPending ? (
        <LinearProgress aria-label="Loading storage comparison" />
      ) : diff.isError ? (
        <Alert severity="error">{diff.error.message}</Alert>
      ) : (
        <>
          <Typography variant="h6" component="h2" sx={{ fontSize: 18 }}>
            Storage at {formatNumber(diff.data.from.level)} ➛ {formatNumber(diff.data.to.level)}
          </Typography>
          <Paper variant="outlined" component="section" aria-label="Storage fields" sx={{ p: 1.5 }}>
            <Typography variant="overline" component="h3">
              Fields
            </Typography>
            {diff.data.from.storage_level === null ? (
              <Typography variant="body2" color="text.secondary">
                The contract was not originated yet at {formatNumber(diff.data.from.level)}: everything is
                new.
              </Typography>
            ) : !hasChange(diff.data.storage) ? (
              <Typography variant="body2" color="text.secondary">
                No field of the storage differs (big-map contents below).
              </Typography>
            ) : null}
            {diff.data.storage ? (
              <MiguelTree
                roots={[diff.data.storage]}
                label="Storage diff"
                network={network}
                diffMode
                open="changed"
                maxHeight={400}
              />
            ) : null}
          </Paper>
          {diff.data.big_maps.map((m) => (
            <BigMapChanges
              key={`${m.ptr}-${diff.data.from.level}-${diff.data.to.level}`}
              network={network}
              address={address}
              ends={{ from: diff.data.from.level, to: diff.data.to.level }}
              map={m}
            />
          ))}
        </>
      )}
    </Stack>
  );
}
