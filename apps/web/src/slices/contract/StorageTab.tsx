import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import Grid from '@mui/material/Grid';
import InputLabel from '@mui/material/InputLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  storageLevelsQuery,
  storageQuery,
  storageRawQuery,
  storageRichQuery,
  storageSchemaQuery,
} from '../../api/contract-api';
import { useCopy } from '../../shared/clipboard/useCopy';
import { formatNumber } from '../../shared/format/format';
import { RawJsonDialog } from '../../shared/json/RawJsonDialog';
import { MiguelTree } from '../../shared/micheline/MiguelTree';
import { TypedefPanel } from '../../shared/micheline/TypedefPanel';
import type { ContractPageData } from './useContractPage';
import { StorageCompare } from './StorageCompare';
import { defaultEnds, orderedEnds, parseLevel } from './storage-compare-logic';

/** `?level=` as a positive integer, else null (Latest). */
export function levelFromQuery(value: string | null): number | null {
  if (value === null || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 ? n : null;
}

/** Version options after Latest: the levels at which the storage changed and the selected one, newest first. */
export function versionLevels(selected: number | null, changedAt: readonly number[]): number[] {
  const set = new Set(changedAt.filter((l) => l > 0));
  if (selected !== null) set.add(selected);
  return [...set].sort((a, b) => b - a);
}

function MichelineText({
  network,
  address,
  level,
}: {
  network: string;
  address: string;
  level: number | null;
}) {
  const raw = useQuery(storageRawQuery(network, address, level));
  if (raw.isPending) return <LinearProgress aria-label="Loading storage" />;
  if (raw.isError) return null;
  return (
    <Box
      component="pre"
      aria-label="Storage in Micheline"
      sx={{ m: 0, p: 1, fontSize: 13, overflowX: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
    >
      {raw.data}
    </Box>
  );
}

/** The storage tab (workspace spec §2): tree / Micheline, version (query `level`), Raw JSON, Full dump, Copy, type. */
export function StorageTab({ data }: { data: ContractPageData }) {
  const { network, address } = data;
  const [params, setParams] = useSearchParams();
  const level = levelFromQuery(params.get('level'));
  const [view, setView] = useState<'tree' | 'micheline'>('tree');
  const [dialog, setDialog] = useState<'raw' | 'dump' | null>(null);
  const storage = useQuery(storageQuery(network, address, level));
  const schema = useQuery(storageSchemaQuery(network, address));
  const changes = useQuery({ ...storageLevelsQuery(network, address), meta: { silent: true } });
  const dump = useQuery({ ...storageRichQuery(network, address, level), enabled: dialog === 'dump' });
  const queryClient = useQueryClient();
  const copy = useCopy();
  const levels = versionLevels(
    level,
    (changes.data ?? []).map((c) => c.level),
  );

  const compareEnds = orderedEnds(parseLevel(params.get('from')), parseLevel(params.get('to')));
  const comparing = compareEnds !== null || params.has('compare');
  const setCompare = (ends: { from: number; to: number } | null, open: boolean) => {
    const next = new URLSearchParams(params);
    next.delete('from');
    next.delete('to');
    next.delete('compare');
    if (ends) {
      next.set('from', String(ends.from));
      next.set('to', String(ends.to));
    } else if (open) next.set('compare', '');
    setParams(next);
  };

  if (comparing)
    return (
      <StorageCompare
        network={network}
        address={address}
        ends={compareEnds}
        onApply={(ends) => setCompare(ends, true)}
        onClose={() => setCompare(null, false)}
      />
    );

  const selectLevel = (value: string) => {
    const next = new URLSearchParams(params);
    if (value === 'latest') next.delete('level');
    else next.set('level', value);
    setParams(next, { replace: true });
  };

  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 8 }}>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }}>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={view}
            onChange={(_, v: 'tree' | 'micheline' | null) => v && setView(v)}
            aria-label="Storage view"
          >
            <ToggleButton value="tree">Tree</ToggleButton>
            <ToggleButton value="micheline">Micheline</ToggleButton>
          </ToggleButtonGroup>
          <FormControl size="small" sx={{ minWidth: 160 }}>
            <InputLabel id="storage-version">Version</InputLabel>
            <Select
              labelId="storage-version"
              label="Version"
              value={level === null ? 'latest' : String(level)}
              onChange={(e) => selectLevel(e.target.value)}
            >
              <MenuItem value="latest">Latest</MenuItem>
              {levels.map((l) => (
                <MenuItem key={l} value={String(l)}>
                  At {formatNumber(l)}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <Box sx={{ flexGrow: 1 }} />
          <Button
            size="small"
            variant="outlined"
            onClick={() => setCompare(defaultEnds((changes.data ?? []).map((c) => c.level)), true)}
          >
            Compare
          </Button>
          <Button size="small" onClick={() => setDialog('raw')} disabled={!storage.data}>
            Raw JSON
          </Button>
          <Button size="small" onClick={() => setDialog('dump')}>
            Full dump
          </Button>
          <Button
            size="small"
            onClick={() =>
              void queryClient
                .fetchQuery(storageRawQuery(network, address, level))
                .then((text) => copy(text))
                .catch(() => undefined)
            }
          >
            Copy
          </Button>
        </Stack>
        <Typography
          variant="body2"
          color="text.secondary"
          component="nav"
          aria-label="Storage path"
          sx={{ mb: 1 }}
        >
          Storage / {level === null ? 'Latest' : `At ${formatNumber(level)}`}
        </Typography>
        <Paper variant="outlined" sx={{ p: 1 }}>
          {view === 'micheline' ? (
            <MichelineText network={network} address={address} level={level} />
          ) : storage.isPending ? (
            <LinearProgress aria-label="Loading storage" />
          ) : storage.isError ? null : (
            <MiguelTree
              roots={storage.data}
              label="Storage"
              network={network}
              address={address}
              level={level}
              open="all"
              maxHeight={640}
            />
          )}
        </Paper>
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <TypedefPanel title="Storage type" typedef={schema.data?.typedef ?? []} />
        </Paper>
      </Grid>
      <RawJsonDialog
        open={dialog === 'raw'}
        onClose={() => setDialog(null)}
        title="Storage: raw JSON"
        value={storage.data}
      />
      <RawJsonDialog
        open={dialog === 'dump'}
        onClose={() => setDialog(null)}
        title="Storage: full dump"
        value={dump.data}
        loading={dump.isFetching}
        error={dump.isError ? dump.error.message : null}
      />
    </Grid>
  );
}
