/**
 * One recording in the debugger: the 'Step through' and 'Gas profile' tabs, the controls and their keys, the
 * state of the step, the replay's verdict, why it failed, and the code, stack and internal operations panes.
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { formatMichelsonInline, gasOfStep } from '@michelscope/michelson';
import type { ContractSource, DebugResult } from '@michelscope/api-types';
import type { DebugAt, DebugTarget } from './debug-target';
import { GasProfileView } from './GasProfileView';
import {
  failPosition,
  failedGasText,
  gasUnitsText,
  lastPosition,
  locationAt,
  rowAt,
  runToRow,
  stepOut,
  stepOver,
} from './debugger-logic';
import { FactList, type Fact } from '../../shared/ui/FactList';
import { CopyLinkButton } from '../../shared/clipboard/CopyLinkButton';
import { SimulatedAt } from '../contract/interact/SimulatedAt';
import { TraceBoundNote } from './TraceBoundNote';
import { WhyItFailed } from './WhyItFailed';
import { SourceLineNote } from './SourceLineNote';
import { sourceLocator } from './source-line';
import { CodeView } from './CodeView';
import { StackView } from './StackView';
import { InternalOperations } from './InternalOperations';
import { GraphFlowSection } from '../operation/flow/FlowSection';

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

/** One recording, stepped through or profiled; a share link's position opens it where it points. */
export function DebugView(props: {
  d: DebugResult;
  network: string;
  /** the debugged contract's verified source (null: none; undefined: not known yet) */
  source?: ContractSource | null | undefined;
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
  // the position for the handlers that must stay the same from one step to the next (the code's lines)
  const posRef = useRef(pos);
  useLayoutEffect(() => {
    posRef.current = pos;
  }, [pos]);
  const go = useCallback(
    (c: Control) => {
      const next = c.go(d, posRef.current);
      if (next !== undefined) {
        posRef.current = next;
        setPos(next);
      }
      setNotice(null);
    },
    [d],
  );
  const onRow = useCallback(
    (r: number) => {
      const k = runToRow(d, posRef.current, r);
      if (k === undefined) setNotice(`Line ${r + 1} is not run after this step.`);
      else {
        posRef.current = k;
        setPos(k);
        setNotice(null);
      }
    },
    [d],
  );
  const jumpToEnd = useCallback(() => setPos(last), [last]);
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
  const sourceAt = useMemo(() => sourceLocator(d.code, props.source), [d.code, props.source]);
  const step = Math.min(pos, d.trace.steps - 1);
  const failedHere = pos >= d.trace.steps;
  const loc = locationAt(d, pos);
  const span = loc === undefined ? undefined : d.spans[loc];
  const row = rowAt(d, pos);
  // a location without a span is not the script's (a lambda value's code): no source line
  const sourceLine = span ? sourceAt?.(loc) : undefined;
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

  // What a step does not change is built once (per recording, tab…): React skips an element it rendered
  // before, so that a step re-renders the state, the code's old and new current lines and the stack only.
  const header = useMemo(
    () => (
      <>
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
        {copyLink ? <CopyLinkButton build={() => copyLink({ step: posRef.current, tab })} /> : null}
      </>
    ),
    [d.state, d.profile, tab, copyLink],
  );
  const verdict = useMemo(
    () => (
      <>
        {d.replay ? (
          <Alert
            severity={d.replay.equal ? 'success' : 'warning'}
            aria-label="Replay against the recorded result"
            sx={{ mb: 1 }}
          >
            {d.replay.equal
              ? d.replay.recorded.status === 'failed'
                ? `Replayed at level ${d.inputs.level}: equal to the recorded result (failed; its receipt records no gas, the replay ${failedGasText(d.failure?.kind, d.consumed_milligas)}).`
                : `Replayed at level ${d.inputs.level}: equal to the recorded result (${d.replay.recorded.status}, ${gasUnitsText(d.replay.recorded.consumed_milligas)} gas of script).`
              : `Replayed at level ${d.inputs.level}: differs from the recorded result — ${d.replay.differences.join('; ')}.`}
            {d.replay.recorded.status === 'backtracked' && d.status === 'applied'
              ? ' Backtracked: the call ran to its end, then its group failed and the chain undid it; the replay ran it after what the group’s earlier operations had done, as the chain did.'
              : null}
          </Alert>
        ) : null}
        <TraceBoundNote cut={d.cut} truncated={d.trace.truncated} steps={d.trace.steps} />
        {d.status === 'failed' ? (
          <WhyItFailed d={d} lines={lines} sourceAt={sourceAt} onJump={jumpToEnd} />
        ) : null}
      </>
    ),
    [d, lines, sourceAt, jumpToEnd],
  );
  const footer = useMemo(
    () => (
      <>
        <InternalOperations d={d} network={props.network} onDebug={props.onDebugInternal} />
        {/* the call and what it emitted as a graph (emitted operations are not run by the debugger) */}
        {d.flow ? <GraphFlowSection network={props.network} graph={d.flow} idPrefix="debug-flow" /> : null}
      </>
    ),
    [d, props.network, props.onDebugInternal],
  );

  return (
    <Box>
      {header}
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
        <Controls failed={d.status === 'failed'} onGo={go} />
        <FactList
          label="Debugger state"
          mono
          facts={[
            ['Step', `${(pos + 1).toLocaleString('en-US')} / ${(last + 1).toLocaleString('en-US')}`],
            ['Instruction', instruction || '—'],
            ['Line', row === undefined ? '—' : String(row + 1)],
            ['Gas remaining', gasUnitsText(gasLeft)],
            ['Gas of this step', gasUnitsText(stepGas)],
            ['Status', d.status],
            ...viewFacts(d),
          ]}
        />
        {sourceLine ? <SourceLineNote at={sourceLine} label="Source line" /> : null}
        {notice ? (
          <Alert severity="info" sx={{ mb: 1 }}>
            {notice}
          </Alert>
        ) : null}
        {verdict}
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 3fr) minmax(0, 2fr)' },
          }}
        >
          <CodeView lines={lines} row={row} span={span} onRow={onRow} />
          <StackView
            d={d}
            network={props.network}
            step={failedHere ? d.trace.steps - 1 : step}
            changed={!failedHere}
          />
        </Box>
        {footer}
      </Box>
    );
  }
}

/** The controls' toolbar: the same from one step to the next (a step does not re-render its buttons). */
const Controls = memo(function Controls(props: { failed: boolean; onGo: (c: Control) => void }) {
  return (
    <Stack
      role="toolbar"
      aria-label="Debugger controls"
      direction="row"
      sx={{ gap: 1, flexWrap: 'wrap', mb: 1 }}
    >
      {CONTROLS.map((c) =>
        c.label === 'Jump to FAILWITH' && !props.failed ? null : (
          <Button
            key={c.label}
            size="small"
            variant="outlined"
            aria-keyshortcuts={c.keys.join(' ')}
            title={`${c.label} (${c.keys.join(', ')})`}
            onClick={() => props.onGo(c)}
          >
            {c.label}
          </Button>
        ),
      )}
    </Stack>
  );
});
