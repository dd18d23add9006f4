/**
 * The gas profile of a debugged call (issue 20, capability 4): its total (the node's consumed gas for the
 * operation), a flame graph of the code blocks that ran (each as wide as its gas; a block is zoomed into by
 * click or Enter) and a sortable table per source line or per block, whose rows open the line in the debugger.
 */
import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import type { GasProfile } from '@michelscope/api-types';
import {
  flameLayout,
  gasUnits,
  share,
  sortRows,
  type ProfileFrame,
  type ProfileLine,
  type SortKey,
} from './profile-logic';
import { FactList } from '../../shared/ui/FactList';
import { failedGasText } from './debugger-logic';

const BAR = 24;
const SHOWN = 100;
/** columns a phone leaves out */
const WIDE = { xs: 'none', sm: 'table-cell' };

export function GasProfileView(props: {
  profile: GasProfile;
  lines: string[];
  /** open a code row in the step-through view */
  onOpenRow: (row: number) => void;
  /** a failed run: what it ran before failing (the debugger's figure), its failure's kind */
  failure?: { kind: string | undefined; milligas: number } | undefined;
}) {
  const { profile } = props;
  const [root, setRoot] = useState(0);
  const [by, setBy] = useState<'line' | 'block'>('line');
  const code = profile.frames.find((f) => f.kind === 'section')?.milligas ?? 0;
  return (
    <Box component="section" aria-label="Gas profile">
      <FactList
        label="Gas totals"
        mono
        facts={
          props.failure
            ? [
                // a failed call's receipt records no gas: the figure is what ran before the failure
                ['Failed', failedGasText(props.failure.kind, props.failure.milligas)],
                ['Instructions', gasUnits(code)],
                [
                  'Fixed cost of the operation',
                  `${gasUnits(profile.fixed_milligas)} (with it: ${gasUnits(profile.total_milligas)})`,
                ],
              ]
            : [
                ['Total (consumed gas)', gasUnits(profile.total_milligas)],
                ['Instructions', gasUnits(code)],
                ['Fixed cost of the operation', gasUnits(profile.fixed_milligas)],
              ]
        }
      />
      <FlameGraph frames={profile.frames} root={root} total={profile.total_milligas} onZoom={setRoot} />
      <Stack direction="row" sx={{ gap: 2, alignItems: 'center', flexWrap: 'wrap', mt: 2, mb: 1 }}>
        <Typography variant="overline" component="h3">
          Gas by
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={by}
          onChange={(_e, v: 'line' | 'block' | null) => v && setBy(v)}
          aria-label="Aggregate the gas by"
        >
          <ToggleButton value="line">Line</ToggleButton>
          <ToggleButton value="block">Block</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      {by === 'line' ? (
        <LineTable profile={profile} lines={props.lines} onOpenRow={props.onOpenRow} />
      ) : (
        <BlockTable profile={profile} onZoom={setRoot} />
      )}
    </Box>
  );
}

function FlameGraph(props: {
  frames: ProfileFrame[];
  root: number;
  total: number;
  onZoom: (i: number) => void;
}) {
  const theme = useTheme();
  const { rects, depth } = useMemo(() => flameLayout(props.frames, props.root), [props.frames, props.root]);
  const colour = (f: ProfileFrame) =>
    f.kind === 'operation'
      ? theme.palette.grey[500]
      : f.kind === 'overhead'
        ? theme.palette.info.main
        : f.kind === 'section'
          ? theme.palette.primary.main
          : theme.palette.warning.main;
  const rootFrame = props.frames[props.root];
  return (
    <Box>
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="overline" component="h3">
          Flame graph · click or press Enter on a block to zoom
        </Typography>
        {props.root !== 0 ? (
          <Button size="small" onClick={() => props.onZoom(0)}>
            Reset zoom ({rootFrame?.label})
          </Button>
        ) : null}
      </Stack>
      <Box
        component="svg"
        role="group"
        aria-label="Flame graph of the gas by block"
        width="100%"
        height={depth * BAR}
        sx={{
          display: 'block',
          '& g[role=button]': { cursor: 'zoom-in', outline: 'none' },
          '& g[role=button]:hover rect': { fillOpacity: 0.6 },
          '& g[role=button]:focus-visible rect': { stroke: theme.palette.text.primary, strokeWidth: 2 },
        }}
      >
        {rects.map((r) => {
          const f = props.frames[r.index]!;
          const text = `${f.label}${f.row !== undefined ? ` · line ${f.row + 1}` : ''}: ${gasUnits(f.milligas)} gas (${share(f.milligas, props.total)})`;
          return (
            <g
              key={r.index}
              role="button"
              tabIndex={0}
              aria-label={text}
              data-frame={f.label}
              onClick={() => props.onZoom(r.index)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  props.onZoom(r.index);
                }
              }}
            >
              <title>{text}</title>
              {/* a nested viewport clips the label to the block */}
              <svg x={`${r.x * 100}%`} y={r.depth * BAR} width={`${r.w * 100}%`} height={BAR - 2}>
                <rect
                  width="100%"
                  height="100%"
                  fill={colour(f)}
                  fillOpacity={0.35}
                  stroke={theme.palette.background.paper}
                />
                <text x={4} y={BAR / 2 + 2} fontSize={12} fill={theme.palette.text.primary}>
                  {f.label}
                </text>
              </svg>
            </g>
          );
        })}
      </Box>
    </Box>
  );
}

function SortHead(props: {
  k: SortKey;
  sort: [SortKey, 'asc' | 'desc'];
  onSort: (s: [SortKey, 'asc' | 'desc']) => void;
  align?: 'right';
  /** hidden on a phone */
  wide?: boolean;
  children: string;
}) {
  const [key, dir] = props.sort;
  const active = key === props.k;
  return (
    <TableCell
      align={props.align}
      sortDirection={active ? dir : false}
      sx={props.wide ? { display: WIDE } : undefined}
    >
      <TableSortLabel
        active={active}
        direction={active ? dir : 'desc'}
        onClick={() => props.onSort([props.k, active && dir === 'desc' ? 'asc' : 'desc'])}
      >
        {props.children}
      </TableSortLabel>
    </TableCell>
  );
}

function useShown<T>(rows: T[]) {
  const [all, setAll] = useState(false);
  return {
    rows: all ? rows : rows.slice(0, SHOWN),
    more:
      !all && rows.length > SHOWN ? (
        <Button size="small" onClick={() => setAll(true)}>
          Show all {rows.length.toLocaleString('en-US')} rows
        </Button>
      ) : null,
  };
}

function LineTable(props: { profile: GasProfile; lines: string[]; onOpenRow: (row: number) => void }) {
  const [sort, setSort] = useState<[SortKey, 'asc' | 'desc']>(['milligas', 'desc']);
  const sorted = useMemo(
    () =>
      sortRows(props.profile.lines, sort[0], sort[1], (r: ProfileLine, k) =>
        k === 'label' ? (props.lines[r.row] ?? '').trim() : k === 'self_milligas' ? r.milligas : r[k],
      ),
    [props.profile.lines, props.lines, sort],
  );
  const shown = useShown(sorted);
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Gas by line">
        <TableHead>
          <TableRow>
            <SortHead k="row" sort={sort} onSort={setSort}>
              Line
            </SortHead>
            <SortHead k="label" sort={sort} onSort={setSort} wide>
              Code
            </SortHead>
            <SortHead k="steps" sort={sort} onSort={setSort} align="right">
              Steps
            </SortHead>
            <SortHead k="milligas" sort={sort} onSort={setSort} align="right">
              Gas
            </SortHead>
            <TableCell align="right">Share</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {shown.rows.map((l) => (
            <TableRow
              key={l.row}
              hover
              tabIndex={0}
              aria-label={`Line ${l.row + 1}: ${gasUnits(l.milligas)} gas in ${l.steps} steps; Enter opens it in the debugger`}
              onClick={() => props.onOpenRow(l.row)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') props.onOpenRow(l.row);
              }}
              sx={{ cursor: 'pointer', '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
            >
              <TableCell>{l.row + 1}</TableCell>
              <TableCell
                sx={{
                  display: WIDE,
                  fontFamily: 'monospace',
                  whiteSpace: 'pre',
                  maxWidth: { xs: 160, md: 520 },
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                }}
              >
                {(props.lines[l.row] ?? '').trim()}
              </TableCell>
              <TableCell align="right">{l.steps.toLocaleString('en-US')}</TableCell>
              <TableCell align="right" sx={{ fontFamily: 'monospace' }}>
                {gasUnits(l.milligas)}
              </TableCell>
              <TableCell align="right">{share(l.milligas, props.profile.total_milligas)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {shown.more}
    </Box>
  );
}

function BlockTable(props: { profile: GasProfile; onZoom: (i: number) => void }) {
  const [sort, setSort] = useState<[SortKey, 'asc' | 'desc']>(['milligas', 'desc']);
  const indexed = useMemo(
    () => props.profile.frames.map((f, index) => ({ ...f, index })).filter((f) => f.index > 0),
    [props.profile.frames],
  );
  const sorted = useMemo(
    () =>
      sortRows(indexed, sort[0], sort[1], (r, k) =>
        k === 'label' ? r.label : k === 'row' ? (r.row ?? -1) : r[k],
      ),
    [indexed, sort],
  );
  const shown = useShown(sorted);
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Gas by block">
        <TableHead>
          <TableRow>
            <SortHead k="label" sort={sort} onSort={setSort}>
              Block
            </SortHead>
            <SortHead k="row" sort={sort} onSort={setSort}>
              Line
            </SortHead>
            <SortHead k="steps" sort={sort} onSort={setSort} align="right">
              Steps
            </SortHead>
            <SortHead k="milligas" sort={sort} onSort={setSort} align="right">
              Gas
            </SortHead>
            <SortHead k="self_milligas" sort={sort} onSort={setSort} align="right" wide>
              Own gas
            </SortHead>
            <TableCell align="right">Share</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {shown.rows.map((f) => (
            <TableRow
              key={f.index}
              hover
              tabIndex={0}
              aria-label={`${f.label}: ${gasUnits(f.milligas)} gas; Enter zooms the flame graph to it`}
              onClick={() => props.onZoom(f.index)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') props.onZoom(f.index);
              }}
              sx={{ cursor: 'pointer', '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
            >
              <TableCell sx={{ fontFamily: 'monospace' }}>{f.label}</TableCell>
              <TableCell>{f.row !== undefined ? f.row + 1 : '—'}</TableCell>
              <TableCell align="right">{f.steps.toLocaleString('en-US')}</TableCell>
              <TableCell align="right" sx={{ fontFamily: 'monospace' }}>
                {gasUnits(f.milligas)}
              </TableCell>
              <TableCell align="right" sx={{ display: WIDE, fontFamily: 'monospace' }}>
                {gasUnits(f.self_milligas)}
              </TableCell>
              <TableCell align="right">{share(f.milligas, props.profile.total_milligas)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {shown.more}
    </Box>
  );
}
