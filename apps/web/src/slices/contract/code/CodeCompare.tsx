import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { CodeDiffBlock } from '@michelscope/api-types';
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
import { alpha, type Theme } from '@mui/material/styles';
import { migrationsQuery, sameContractsQuery } from '../../../api/contract-api';
import { codeDiffQuery, configQuery } from '../../../api/queries';
import type { CodeLeg } from '@michelscope/api-types';
import { formatNumber } from '../../../shared/format/format';
import { blockLabel, isContractAddress, unifiedLines } from './code-compare-logic';
import { protocolOptions, shortProtocol } from './code-versions';

/** Rows of one block drawn at first; 'Show all' draws the rest. */
const ROWS_SHOWN = 400;

const STATUS_COLOUR = { same: 'default', changed: 'warning', added: 'success', removed: 'error' } as const;

const tint = (theme: Theme, kind: 'removed' | 'added' | 'changed' | 'same') =>
  kind === 'removed'
    ? alpha(theme.palette.error.main, 0.18)
    : kind === 'added'
      ? alpha(theme.palette.success.main, 0.18)
      : kind === 'changed'
        ? alpha(theme.palette.warning.main, 0.14)
        : undefined;

const codeLine = {
  m: 0,
  px: 1,
  fontFamily: 'monospace',
  fontSize: 13,
  lineHeight: '20px',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  minHeight: 20,
} as const;

const lines = (n: number) => `${formatNumber(n)} ${n === 1 ? 'line' : 'lines'}`;

function legText(leg: CodeLeg): string {
  return `${leg.address} on ${leg.network}${leg.protocol ? ` under ${shortProtocol(leg.protocol)}` : ''}`;
}

export function BlockView({ block, view }: { block: CodeDiffBlock; view: 'split' | 'unified' }) {
  const [all, setAll] = useState(false);
  const label = blockLabel(block);
  const rows = block.rows ?? [];
  const shown = all ? rows : rows.slice(0, ROWS_SHOWN);
  return (
    <Paper variant="outlined" component="section" aria-label={`Block ${label}`} sx={{ overflow: 'hidden' }}>
      <Stack
        direction="row"
        sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap', px: 1.5, py: 0.75, bgcolor: 'action.hover' }}
      >
        <Typography component="h3" sx={{ fontFamily: 'monospace', fontSize: 14 }}>
          {label}
        </Typography>
        <Chip size="small" variant="outlined" color={STATUS_COLOUR[block.status]} label={block.status} />
        <Typography variant="caption" color="text.secondary">
          {block.status === 'same'
            ? `${lines(block.left_lines)}, unchanged`
            : `${formatNumber(block.left_lines)} ➛ ${lines(block.right_lines)}`}
          {block.replaced ? ' · too different for a line diff: shown as replaced' : ''}
        </Typography>
      </Stack>
      {block.status === 'same' ? null : view === 'split' ? (
        <Box
          role="table"
          aria-label={`Side-by-side diff of ${label}`}
          sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', overflowX: 'auto' }}
        >
          {shown.map((r, i) => (
            <Box role="row" key={i} sx={{ display: 'contents' }}>
              <Box
                role="cell"
                component="pre"
                sx={(t) => ({
                  ...codeLine,
                  bgcolor: r.left === null ? undefined : tint(t, r.type === 'added' ? 'same' : r.type),
                  borderRight: 1,
                  borderColor: 'divider',
                })}
              >
                {r.left ?? ''}
              </Box>
              <Box
                role="cell"
                component="pre"
                sx={(t) => ({
                  ...codeLine,
                  bgcolor: r.right === null ? undefined : tint(t, r.type === 'removed' ? 'same' : r.type),
                })}
              >
                {r.right ?? ''}
              </Box>
            </Box>
          ))}
        </Box>
      ) : (
        <Box component="ol" aria-label={`Unified diff of ${label}`} sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {unifiedLines(shown).map((l, i) => (
            <Box
              component="li"
              key={i}
              sx={(t) => ({
                ...codeLine,
                bgcolor: tint(t, l.sign === '-' ? 'removed' : l.sign === '+' ? 'added' : 'same'),
              })}
            >
              {`${l.sign} ${l.text}`}
            </Box>
          ))}
        </Box>
      )}
      {rows.length > shown.length ? (
        <Button size="small" onClick={() => setAll(true)} sx={{ m: 1 }}>
          Show all {formatNumber(rows.length)} rows
        </Button>
      ) : null}
    </Paper>
  );
}

/** The diff of this contract's code (left) against `other` (right). */
function CodeDiffView({ left, right }: { left: CodeLeg; right: CodeLeg }) {
  const [view, setView] = useState<'split' | 'unified'>('split');
  const diff = useQuery(codeDiffQuery(left, right));
  if (diff.isPending) return <LinearProgress aria-label="Loading code diff" />;
  if (diff.isError) return <Alert severity="error">{diff.error.message}</Alert>;
  const d = diff.data.diff;
  const changed = d.blocks.filter((b) => b.status !== 'same');
  return (
    <Stack sx={{ gap: 1.5 }}>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        <b>Left</b>: {legText(left)} · <b>Right</b>: {legText(right)}
      </Typography>
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          onChange={(_, v: 'split' | 'unified' | null) => v && setView(v)}
          aria-label="Diff view"
        >
          <ToggleButton value="split">Side by side</ToggleButton>
          <ToggleButton value="unified">Unified</ToggleButton>
        </ToggleButtonGroup>
        <Typography variant="body2" aria-label="Line counts">
          <Box component="span" sx={{ color: 'error.main' }}>
            −{formatNumber(d.removed)}
          </Box>{' '}
          <Box component="span" sx={{ color: 'success.main' }}>
            +{formatNumber(d.added)}
          </Box>{' '}
          lines
        </Typography>
      </Stack>
      <Box component="section" aria-label="Changed entrypoints">
        <Typography variant="subtitle2" component="h3">
          Changed entrypoints ({d.changed_entrypoints.length})
        </Typography>
        {d.changed_entrypoints.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {changed.length === 0 ? 'The two codes are the same.' : 'No entrypoint changed.'}
          </Typography>
        ) : (
          <Stack
            direction="row"
            component="ul"
            sx={{ gap: 0.5, flexWrap: 'wrap', p: 0, m: 0, listStyle: 'none' }}
          >
            {d.changed_entrypoints.map((n) => (
              <li key={n}>
                <Chip size="small" color="warning" variant="outlined" label={n} />
              </li>
            ))}
          </Stack>
        )}
      </Box>
      {d.blocks.map((b) => (
        <BlockView key={b.key} block={b} view={view} />
      ))}
    </Stack>
  );
}

/**
 * Code tab 'Compare code': this contract's code against another contract (any network), against itself under
 * another protocol, or against a member of its 'Same contracts' list; the other side is in the URL
 * (`compare=network:address[@protocol]`).
 */
export function CodeCompare({
  network,
  address,
  protocol,
  other,
  onPick,
  onClose,
}: {
  network: string;
  address: string;
  protocol: string | null;
  other: CodeLeg | null;
  onPick: (leg: CodeLeg) => void;
  onClose: () => void;
}) {
  const [source, setSource] = useState<'contract' | 'protocol' | 'same'>('contract');
  const [otherNetwork, setOtherNetwork] = useState(other?.network ?? network);
  const [otherAddress, setOtherAddress] = useState(other?.address ?? '');
  const [error, setError] = useState<string | null>(null);
  const config = useQuery({ ...configQuery(), meta: { silent: true } });
  const migrations = useQuery({ ...migrationsQuery(network, address), meta: { silent: true } });
  const same = useQuery({ ...sameContractsQuery(network, address, 0), meta: { silent: true } });
  const protocols = protocolOptions(null, migrations.data ?? []);
  const self: CodeLeg = protocol ? { network, address, protocol } : { network, address };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!isContractAddress(otherAddress)) {
      setError('Enter a contract address (KT1…).');
      return;
    }
    setError(null);
    onPick({ network: otherNetwork, address: otherAddress.trim() });
  };

  return (
    <Stack sx={{ gap: 2 }}>
      <Paper variant="outlined" sx={{ p: 1.5 }} component="section" aria-label="Compare code with">
        <Stack sx={{ gap: 1.5 }}>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={source}
            onChange={(_, v: typeof source | null) => v && setSource(v)}
            aria-label="Compare with"
            sx={{ flexWrap: 'wrap' }}
          >
            <ToggleButton value="contract">Another contract</ToggleButton>
            <ToggleButton value="protocol">Another protocol</ToggleButton>
            <ToggleButton value="same">Same contracts</ToggleButton>
          </ToggleButtonGroup>
          {source === 'contract' ? (
            <Stack
              component="form"
              onSubmit={submit}
              aria-label="Another contract"
              direction="row"
              sx={{ gap: 1, flexWrap: 'wrap', alignItems: 'center' }}
            >
              <FormControl size="small" sx={{ minWidth: 140 }}>
                <InputLabel id="compare-network">Network</InputLabel>
                <Select
                  labelId="compare-network"
                  label="Network"
                  value={otherNetwork}
                  onChange={(e) => setOtherNetwork(e.target.value)}
                >
                  {(config.data?.networks ?? [network]).map((n) => (
                    <MenuItem key={n} value={n}>
                      {n}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
              <TextField
                size="small"
                label="Contract address"
                value={otherAddress}
                onChange={(e) => setOtherAddress(e.target.value)}
                sx={{ flex: '1 1 260px', maxWidth: 440 }}
              />
              <Button type="submit" variant="contained" size="small">
                Compare
              </Button>
            </Stack>
          ) : source === 'protocol' ? (
            protocols.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                No protocol change gave this contract other code.
              </Typography>
            ) : (
              <Stack
                component="ul"
                aria-label="Other protocols"
                sx={{ p: 0, m: 0, listStyle: 'none', gap: 0.5 }}
              >
                {protocols.map((p) => (
                  <li key={p}>
                    <Button size="small" onClick={() => onPick({ network, address, protocol: p })} title={p}>
                      Under {shortProtocol(p)}
                    </Button>
                  </li>
                ))}
              </Stack>
            )
          ) : (same.data?.contracts.length ?? 0) === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {same.isPending ? 'Loading…' : 'No other contract has the same code.'}
            </Typography>
          ) : (
            <Stack
              component="ul"
              aria-label="Same contracts"
              sx={{ p: 0, m: 0, listStyle: 'none', gap: 0.5 }}
            >
              {same.data!.contracts.map((c) => (
                <li key={`${c.network}:${c.address}`}>
                  <Button
                    size="small"
                    onClick={() => onPick({ network: c.network, address: c.address })}
                    sx={{ textTransform: 'none', fontFamily: 'monospace', overflowWrap: 'anywhere' }}
                  >
                    {c.address} · {c.network}
                  </Button>
                </li>
              ))}
            </Stack>
          )}
          {error ? <Alert severity="warning">{error}</Alert> : null}
          <Box>
            <Button size="small" onClick={onClose}>
              Close comparison
            </Button>
          </Box>
        </Stack>
      </Paper>
      {other ? <CodeDiffView left={self} right={other} /> : null}
    </Stack>
  );
}
