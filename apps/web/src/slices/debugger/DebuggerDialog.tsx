/**
 * The Michelson debugger (issue 20): one recorded call (POST …/entrypoints/debug), stepped through with the
 * instruction highlighted in the script, the stack after the step (typed, decoded, changed items marked), the
 * gas left and the gas of the step; controls and their keys; the call's internal operations, each debuggable in
 * turn; a failed call says why. Code and stack are virtualised: a 100,000-step trace opens and steps at once.
 * A run pinned to a level (a share link rerun as it was) says which level, as its result does (SimulatedAt).
 * Loaded lazily (its own chunk) from the simulation result.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import {
  buildTypeTree,
  changedAt,
  formatMichelsonInline,
  gasOfStep,
  readableText,
  stackAt,
  toMiguelNode,
  type MiguelNode,
} from '@michelscope/michelson';
import { formatTez } from '../../shared/format/format';
import { MiguelTree } from '../../shared/micheline/MiguelTree';
import type { DebugResult } from '@michelscope/api-types';
import { debugQuery, type DebugAt, type DebugTarget } from './debug-target';
import { FramedDialog } from '../contract/interact/InteractDialogs';
import { GasProfileView } from './GasProfileView';
import {
  failPosition,
  failedGasText,
  lastPosition,
  locationAt,
  rowAt,
  runToRow,
  stepOut,
  stepOver,
} from './debugger-logic';
import { FactList, type Fact } from '../../shared/ui/FactList';
import { CopyLinkButton } from '../../shared/clipboard/CopyLinkButton';
import { storageExhaustionText } from '../operation/storage-exhaustion';
import { SimulatedAt } from '../contract/interact/SimulatedAt';

export type { DebugTarget } from './debug-target';

const ROW = 20;
const gasText = (milligas: number) => (milligas / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 });

/** A debugged view: which one, and what it returned. */
const viewFacts = (d: DebugResult): Fact[] =>
  d.view
    ? [
        ['View', `${d.view.name} (${d.view.kind})`],
        ['Returned', d.result === undefined ? '—' : formatMichelsonInline(d.result)],
      ]
    : [];

/** The controls: label, keys (shown and in aria-keyshortcuts), and where each goes. */
type Control = { label: string; keys: string[]; go: (d: DebugResult, p: number) => number | undefined };
const CONTROLS: Control[] = [
  { label: 'Back', keys: ['b', 'ArrowLeft'], go: (_d, p) => Math.max(0, p - 1) },
  { label: 'Step', keys: ['s', 'ArrowRight'], go: (d, p) => Math.min(lastPosition(d), p + 1) },
  { label: 'Step over', keys: ['n'], go: stepOver },
  { label: 'Step out', keys: ['o'], go: stepOut },
  { label: 'Run to end', keys: ['e'], go: (d) => lastPosition(d) },
  { label: 'Jump to FAILWITH', keys: ['f'], go: failPosition },
  { label: 'Restart', keys: ['Home'], go: () => 0 },
];

/**
 * Where the trace stops: a recording cut at its budget (issue 34: the answer's `cut` message), else a trace
 * past the steps the debugger records.
 */
export function TraceBoundNote(props: { cut: DebugResult['cut']; truncated: boolean; steps: number }) {
  if (props.cut)
    return (
      <Alert severity="warning" sx={{ mb: 1 }} data-testid="debugger-cut">
        {props.cut.message}
      </Alert>
    );
  if (!props.truncated) return null;
  return (
    <Alert severity="warning" sx={{ mb: 1 }}>
      The call ran more steps than the debugger records; the trace stops at step{' '}
      {props.steps.toLocaleString('en-US')}.
    </Alert>
  );
}

export default function DebuggerDialog(props: {
  open: boolean;
  onClose: () => void;
  target: DebugTarget;
  /** where to open (a share link's position) */
  initial?: DebugAt | undefined;
  /** the share link of the simulation at a position ('Copy link'; the called contract only) */
  copyLink?: ((at: DebugAt) => Promise<string>) | undefined;
}) {
  // internal operations are debugged in turn: the calls opened, the first being the simulated one
  const [path, setPath] = useState<DebugTarget[]>([props.target]);
  const target = path[path.length - 1]!;
  const q = useQuery(debugQuery(target));
  return (
    <FramedDialog
      open={props.open}
      onClose={props.onClose}
      titleId="debugger-title"
      title={`Debugger · ${target.view ? `view ${target.request.name}` : target.request.name}`}
      width={1440}
    >
      {path.length > 1 ? (
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
          <Button size="small" onClick={() => setPath(path.slice(0, -1))}>
            Back to the caller
          </Button>
          <Typography variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
            internal call of {target.address}
          </Typography>
        </Stack>
      ) : null}
      {q.isPending ? (
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center' }}>
          <CircularProgress size={18} aria-label="Recording the call" />
          <Typography>Recording the call…</Typography>
        </Stack>
      ) : q.isError ? (
        <Alert severity="error">{q.error.message}</Alert>
      ) : (
        <DebugView
          key={JSON.stringify(target)}
          d={q.data}
          network={target.network}
          onDebugInternal={(t) => setPath([...path, t])}
          {...(path.length === 1 ? { initial: props.initial, copyLink: props.copyLink } : {})}
        />
      )}
    </FramedDialog>
  );
}

function DebugView(props: {
  d: DebugResult;
  network: string;
  onDebugInternal: (t: DebugTarget) => void;
  initial?: DebugAt | undefined;
  copyLink?: ((at: DebugAt) => Promise<string>) | undefined;
}) {
  const { d, copyLink } = props;
  const last = lastPosition(d);
  // a share link's position, kept within this recording
  const [pos, setPos] = useState(() => Math.min(props.initial?.step ?? 0, last));
  const [notice, setNotice] = useState<string | null>(null);
  const [tab, setTab] = useState<'step' | 'profile'>(() =>
    props.initial?.tab === 'profile' && d.profile ? 'profile' : 'step',
  );
  const go = useCallback(
    (c: Control) => {
      const next = c.go(d, pos);
      if (next !== undefined) setPos(next);
      setNotice(null);
    },
    [d, pos],
  );
  // keyboard shortcuts while the debugger is open (not while typing in a field)
  useEffect(() => {
    if (tab !== 'step') return;
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (el && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) return;
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      // the stack tree's own keys (arrows, Home, End) move in the tree
      if (el?.closest('[role="tree"]')) return;
      const c = CONTROLS.find((x) => x.keys.includes(e.key));
      if (!c) return;
      e.preventDefault();
      go(c);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, tab]);

  const lines = useMemo(() => d.code.split('\n'), [d.code]);
  const step = Math.min(pos, d.trace.steps - 1);
  const failedHere = pos >= d.trace.steps;
  const loc = locationAt(d, pos);
  const span = loc === undefined ? undefined : d.spans[loc];
  const row = rowAt(d, pos);
  const instruction = span ? (lines[span[0]] ?? '').slice(span[1], span[2]).split(/[\s{}]/)[0] : '';
  const gasLeft = step >= 0 ? (d.trace.gas[step] ?? 0) : d.trace.gas_start;
  const stepGas = failedHere || step < 0 ? 0 : gasOfStep(d.trace, step);

  const openRow = (r: number) => {
    const k = runToRow(d, -1, r);
    if (k === undefined) setNotice(`Line ${r + 1} is not run.`);
    else {
      setPos(k);
      setNotice(null);
    }
    setTab('step');
  };

  return (
    <Box>
      {/* a run pinned to a level (a link's rerun): the level its state was read at, as its result says */}
      <SimulatedAt at={d.state} />
      <Tabs
        value={tab}
        onChange={(_e, v: 'step' | 'profile') => setTab(v)}
        aria-label="Debugger views"
        sx={{ mb: 1, minHeight: 36, '& .MuiTab-root': { minHeight: 36 } }}
      >
        <Tab value="step" label="Step through" />
        <Tab value="profile" label="Gas profile" disabled={!d.profile} />
      </Tabs>
      {copyLink ? <CopyLinkButton build={() => copyLink({ step: pos, tab })} /> : null}
      {tab === 'profile' && d.profile ? (
        <GasProfileView
          profile={d.profile}
          lines={lines}
          onOpenRow={openRow}
          failure={
            d.status === 'failed' ? { kind: d.failure?.kind, milligas: d.consumed_milligas } : undefined
          }
        />
      ) : (
        stepThrough()
      )}
    </Box>
  );

  function stepThrough() {
    return (
      <Box>
        <Stack
          role="toolbar"
          aria-label="Debugger controls"
          direction="row"
          sx={{ gap: 1, flexWrap: 'wrap', mb: 1 }}
        >
          {CONTROLS.map((c) =>
            c.label === 'Jump to FAILWITH' && d.status !== 'failed' ? null : (
              <Button
                key={c.label}
                size="small"
                variant="outlined"
                aria-keyshortcuts={c.keys.join(' ')}
                title={`${c.label} (${c.keys.join(', ')})`}
                onClick={() => go(c)}
              >
                {c.label}
              </Button>
            ),
          )}
        </Stack>
        <FactList
          label="Debugger state"
          mono
          facts={[
            ['Step', `${(pos + 1).toLocaleString('en-US')} / ${(last + 1).toLocaleString('en-US')}`],
            ['Instruction', instruction || '—'],
            ['Line', row === undefined ? '—' : String(row + 1)],
            ['Gas remaining', gasText(gasLeft)],
            ['Gas of this step', gasText(stepGas)],
            ['Status', d.status],
            ...viewFacts(d),
          ]}
        />
        {notice ? (
          <Alert severity="info" sx={{ mb: 1 }}>
            {notice}
          </Alert>
        ) : null}
        {d.replay ? (
          <Alert
            severity={d.replay.equal ? 'success' : 'warning'}
            aria-label="Replay against the recorded result"
            sx={{ mb: 1 }}
          >
            {d.replay.equal
              ? d.replay.recorded.status === 'failed'
                ? `Replayed at level ${d.inputs.level}: equal to the recorded result (failed; its receipt records no gas, the replay ${failedGasText(d.failure?.kind, d.consumed_milligas)}).`
                : `Replayed at level ${d.inputs.level}: equal to the recorded result (${d.replay.recorded.status}, ${gasText(d.replay.recorded.consumed_milligas)} gas of script).`
              : `Replayed at level ${d.inputs.level}: differs from the recorded result — ${d.replay.differences.join('; ')}.`}
            {d.replay.recorded.status === 'backtracked' && d.status === 'applied'
              ? ' Backtracked: the call ran to its end, then its group failed and the chain undid it; the replay ran it after what the group’s earlier operations had done, as the chain did.'
              : null}
          </Alert>
        ) : null}
        <TraceBoundNote cut={d.cut} truncated={d.trace.truncated} steps={d.trace.steps} />
        {d.status === 'failed' ? <WhyItFailed d={d} lines={lines} onJump={() => setPos(last)} /> : null}
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 3fr) minmax(0, 2fr)' },
          }}
        >
          <CodeView
            lines={lines}
            row={row}
            span={span}
            onRow={(r) => {
              const k = runToRow(d, pos, r);
              if (k === undefined) setNotice(`Line ${r + 1} is not run after this step.`);
              else {
                setPos(k);
                setNotice(null);
              }
            }}
          />
          <StackView
            d={d}
            network={props.network}
            step={failedHere ? d.trace.steps - 1 : step}
            changed={!failedHere}
          />
        </Box>
        <InternalOperations d={d} network={props.network} onDebug={props.onDebugInternal} />
      </Box>
    );
  }
}

function CodeView(props: {
  lines: string[];
  row: number | undefined;
  span: [number, number, number] | undefined;
  onRow: (row: number) => void;
}) {
  const parent = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: props.lines.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW,
    overscan: 10,
  });
  useEffect(() => {
    if (props.row !== undefined) v.scrollToIndex(props.row, { align: 'auto' });
  }, [props.row, v]);
  return (
    <Box component="section" aria-label="Code">
      <Typography variant="overline" component="h3">
        Code · click a line to run to it
      </Typography>
      <Box
        ref={parent}
        role="list"
        aria-label="Michelson code"
        sx={{
          height: { xs: 280, md: 440 },
          overflow: 'auto',
          fontFamily: 'monospace',
          fontSize: 13,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
        }}
      >
        <Box sx={{ height: v.getTotalSize(), position: 'relative', minWidth: 'max-content' }}>
          {v.getVirtualItems().map((it) => {
            const text = props.lines[it.index] ?? '';
            const current = it.index === props.row;
            const [from, to] = current && props.span ? [props.span[1], props.span[2]] : [0, 0];
            return (
              <Box
                key={it.index}
                role="listitem"
                aria-current={current ? 'step' : undefined}
                data-line={it.index + 1}
                onClick={() => props.onRow(it.index)}
                sx={(t) => ({
                  position: 'absolute',
                  top: it.start,
                  left: 0,
                  right: 0,
                  height: ROW,
                  lineHeight: `${ROW}px`,
                  whiteSpace: 'pre',
                  cursor: 'pointer',
                  pr: 1,
                  bgcolor: current ? alpha(t.palette.warning.main, 0.22) : undefined,
                  '&:hover': { bgcolor: alpha(t.palette.primary.main, 0.08) },
                })}
              >
                <Box
                  component="span"
                  aria-hidden
                  sx={{
                    display: 'inline-block',
                    width: '4.5em',
                    color: 'text.secondary',
                    textAlign: 'right',
                    pr: 1.5,
                  }}
                >
                  {it.index + 1}
                </Box>
                {to > from ? (
                  <>
                    {text.slice(0, from)}
                    <Box component="mark" sx={{ bgcolor: 'warning.main', color: 'warning.contrastText' }}>
                      {text.slice(from, to)}
                    </Box>
                    {text.slice(to)}
                  </>
                ) : (
                  text
                )}
              </Box>
            );
          })}
        </Box>
      </Box>
    </Box>
  );
}

/** One stack item decoded as the storage viewer reads values (addresses, timestamps, …), with its type. */
function itemText(d: DebugResult, id: number): { type: string; value: string } {
  const [t, value] = d.trace.items[id] ?? [0, { prim: '…' }];
  const type = d.trace.types[t] ?? { prim: '?' };
  let text: string;
  try {
    text = readableText(type, value);
  } catch {
    text = formatMichelsonInline(value);
  }
  return { type: formatMichelsonInline(type), value: text };
}

/** The type text shown next to a stack item (long types shortened). */
const typeLabel = (d: DebugResult, id: number) => {
  const text = formatMichelsonInline(d.trace.types[d.trace.items[id]?.[0] ?? -1] ?? { prim: '?' });
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
};

/** A stack item as the storage viewer's typed tree node (a pair stays one node: its fields below it). */
function itemNode(d: DebugResult, id: number): MiguelNode {
  const [t, value] = d.trace.items[id] ?? [0, { prim: '…' }];
  const type = d.trace.types[t] ?? { prim: '?' };
  try {
    const node = toMiguelNode(buildTypeTree(type), value);
    return node.type === 'namedtuple' ? { ...node, type: 'pair' } : node;
  } catch {
    return { value: formatMichelsonInline(value) };
  }
}

function StackView(props: { d: DebugResult; network: string; step: number; changed: boolean }) {
  const { d, step } = props;
  // each distinct item's tree is built once per recording
  const [nodes] = useState(() => new Map<number, MiguelNode>());
  const stack = useMemo(() => (step < 0 ? [] : stackAt(d.trace, step)), [d, step]);
  const changed = useMemo(
    () => (props.changed && step >= 0 ? changedAt(d.trace, step) : new Set<number>()),
    [d, step, props.changed],
  );
  const roots = useMemo(
    () =>
      stack
        .map((id, index) => {
          let node = nodes.get(id);
          if (!node) nodes.set(id, (node = itemNode(d, id)));
          const top = stack.length - 1 - index;
          const isChanged = changed.has(index);
          return {
            ...node,
            name: `${top} · ${typeLabel(d, id)}${isChanged ? ' · changed' : ''}`,
            ...(isChanged ? { diff_type: 'create' as const } : {}),
          };
        })
        .reverse(),
    [d, nodes, stack, changed],
  );
  return (
    <Box component="section" aria-label="Stack">
      <Typography variant="overline" component="h3">
        Stack after the step · {stack.length} item{stack.length === 1 ? '' : 's'}, top first
      </Typography>
      <Box
        sx={{
          height: { xs: 240, md: 440 },
          overflow: 'auto',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
        }}
      >
        {roots.length ? (
          <MiguelTree roots={roots} label="Stack items, top first" network={props.network} maxHeight={436} />
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ p: 1 }}>
            Empty stack
          </Typography>
        )}
      </Box>
    </Box>
  );
}

/** Why a call failed: the FAILWITH value decoded, the failing instruction and its line, the stack then. */
function WhyItFailed(props: { d: DebugResult; lines: string[]; onJump: () => void }) {
  const { d } = props;
  const f = d.failure;
  const span = f?.location !== undefined ? d.spans[f.location] : undefined;
  const top = d.trace.steps > 0 ? stackAt(d.trace, d.trace.steps - 1).at(-1) : undefined;
  const value =
    f?.kind === 'script_rejected'
      ? top !== undefined
        ? itemText(d, top)
        : { type: '', value: f.with ? formatMichelsonInline(f.with) : 'Unit' }
      : undefined;
  const instruction = span ? (props.lines[span[0]] ?? '').slice(span[1], span[2]).split(/[\s{}]/)[0] : '';
  return (
    <Alert
      severity="error"
      sx={{ mb: 1 }}
      aria-label="Why it failed"
      action={
        <Button color="inherit" size="small" onClick={props.onJump}>
          Show
        </Button>
      }
    >
      {value ? (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          Failed with <code>{value.value}</code>
          {value.type ? ` (${value.type})` : ''}
        </Typography>
      ) : f?.kind === 'gas_exhausted' ? (
        <Typography variant="body2">
          Ran out of gas: limit {gasText(d.gas_limit)}, used {gasText(d.consumed_milligas)}
        </Typography>
      ) : f?.storage ? (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          Ran out of storage: {storageExhaustionText(f.storage)}
        </Typography>
      ) : f?.burn ? (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          Cannot pay the storage burn: {f.burn.payer} holds {formatTez(f.burn.balance)}, the burn is{' '}
          {formatTez(f.burn.burn)}
        </Typography>
      ) : (
        <Typography variant="body2">{f?.message ?? 'The call failed'}</Typography>
      )}
      {f?.meaning ? (
        <Typography variant="body2" aria-label="Error meaning" sx={{ overflowWrap: 'anywhere' }}>
          Meaning (contract metadata{f.meaning.view ? `, view ${f.meaning.view}` : ''}): {f.meaning.text}
        </Typography>
      ) : null}
      <Typography variant="body2">
        {instruction ||
          (f?.storage || f?.burn
            ? 'After the script ran to its end'
            : f?.location !== undefined
              ? 'In code that is not the script’s (a lambda it ran)'
              : 'Instruction')}
        {span ? ` at line ${span[0] + 1}` : ''} · {failedGasText(f?.kind, d.consumed_milligas)} (limit{' '}
        {gasText(d.gas_limit)})
      </Typography>
    </Alert>
  );
}

function InternalOperations(props: { d: DebugResult; network: string; onDebug: (t: DebugTarget) => void }) {
  const { d } = props;
  if (d.operations.length === 0) return null;
  return (
    <Box component="section" aria-label="Internal operations" sx={{ mt: 2, overflowX: 'auto' }}>
      <Typography variant="overline" component="h3">
        Internal operations
      </Typography>
      <Table size="small" aria-label="Internal operations of the call">
        <TableHead>
          <TableRow>
            <TableCell>Kind</TableCell>
            <TableCell>Destination</TableCell>
            <TableCell>Entrypoint</TableCell>
            <TableCell align="right">Amount (mutez)</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {d.operations.map((o, i) => {
            const debuggable =
              o.kind === 'transaction' && o.destination?.startsWith('KT1') && o.parameter !== undefined;
            return (
              <TableRow key={i}>
                <TableCell>{o.kind}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{o.destination ?? ''}</TableCell>
                <TableCell>{o.kind === 'event' ? (o.tag ?? '') : (o.entrypoint ?? '')}</TableCell>
                <TableCell align="right">{o.amount ?? ''}</TableCell>
                <TableCell>
                  {debuggable ? (
                    <Button
                      size="small"
                      onClick={() =>
                        props.onDebug({
                          network: props.network,
                          address: o.destination!,
                          request: {
                            name: o.entrypoint ?? 'default',
                            value: o.parameter!,
                            sender: d.inputs.self,
                            ...(d.inputs.source ? { source: d.inputs.source } : {}),
                            ...(Number(o.amount) ? { amount: Number(o.amount) } : {}),
                          },
                        })
                      }
                    >
                      Debug
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Box>
  );
}
