import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Micheline } from '@michelscope/michelson';
import type { Operation } from '../../../api/opg-types';
import { formatTez } from '../../../shared/format/format';
import { MiguelTree } from '../../../shared/micheline/MiguelTree';
import { OperationErrors } from '../../operation/OperationErrors';
import { FramedDialog } from './InteractDialogs';
import { percentOf, simulationTotals } from './call-logic';
import { debugQuery, type DebugTarget } from '../../debugger/debug-target';
import { failedGasText } from '../../debugger/debugger-logic';
import { LazyDebugger } from '../../debugger/LazyDebugger';
import { FactList } from '../../../shared/ui/FactList';
import { CopyLinkButton } from '../../../shared/clipboard/CopyLinkButton';
import type { CallRequest, StateLevel } from '@michelscope/api-types';
import { useLinkPosition, type DebugPosition } from './share-link';
import { SimulatedAt } from './SimulatedAt';
import { storageExhaustion, storageExhaustionText } from '../../operation/storage-exhaustion';
import { SimulationFlowSection } from '../../operation/flow/FlowSection';

const int = (n: number) => n.toLocaleString('en-US');
const pct = (part: number, limit: number) => {
  const p = percentOf(part, limit);
  return p === null ? '' : ` (${p}%)`;
};

/**
 * The body of …/run_operation (and of its sibling …/run_operation/flow) that gave a node simulation: the
 * simulated call's inputs, when it ran through run_operation (a source given) at the head; undefined otherwise
 * (a run_code trace, a view, an indexed operation).
 */
export function runOperationBody(debug: DebugTarget | undefined): CallRequest | undefined {
  if (!debug || debug.view || debug.script || debug.operationId !== undefined) return undefined;
  const r = debug.request;
  if (!r.source || r.data === undefined) return undefined;
  return {
    name: r.name,
    data: r.data,
    source: r.source,
    ...(r.sender ? { sender: r.sender } : {}),
    ...(r.amount ? { amount: r.amount } : {}),
    ...(r.storage_limit !== undefined ? { storage_limit: r.storage_limit } : {}),
  };
}

/**
 * Simulation result (width 1200): per operation its status, consumed gas (% of the gas limit), paid storage
 * (% of the storage limit) and burn; the totals over the main and internal operations; the limits it ran
 * with; errors (formatted, with 'Show failed code'); emitted events; the storage diff with big-map changes.
 */
export function SimulationDialog(props: {
  open: boolean;
  onClose: () => void;
  ops: Operation[];
  network: string;
  /** the called script, to show where a rejected call failed */
  code?: Micheline | undefined;
  /** the simulated call, for 'Debug' */
  debug?: DebugTarget | undefined;
  /** the share link of this simulation, at a debugger position or not ('Copy link') */
  copyLink?: ((at?: DebugPosition) => Promise<string>) | undefined;
  /** a share link's debugger position: the debugger opens there */
  debugAt?: DebugPosition | undefined;
  /** the level the simulation read the chain at */
  at?: StateLevel | undefined;
  /** runs the same inputs again at the head (offered when the result is pinned to an older level) */
  onRerunAtHead?: (() => void) | undefined;
}) {
  const { ops, copyLink } = props;
  const link = useLinkPosition(props.debugAt);
  const debugAt = link.at;
  const [debugging, setDebugging] = useState(false);
  useEffect(() => {
    if (props.open && debugAt) setDebugging(true);
  }, [props.open, debugAt]);
  const main = ops[0];
  const totals = simulationTotals(ops);
  const gasLimit = main?.gas_limit ?? 0;
  const storageLimit = main?.storage_limit ?? 0;
  const events = ops.filter((o) => o.kind === 'event');
  const exhausted = storageExhaustion(ops);
  const gasText = useFailedGas(props.open ? props.debug : undefined, main);
  const flowBody = runOperationBody(props.debug);
  return (
    <FramedDialog
      open={props.open}
      onClose={props.onClose}
      titleId="simulation-title"
      title="Simulation result"
      width={1200}
      actions={
        props.debug ? (
          <Button variant="outlined" onClick={() => setDebugging(true)}>
            Debug
          </Button>
        ) : undefined
      }
    >
      {props.debug && debugging ? (
        <LazyDebugger
          onClose={() => {
            setDebugging(false);
            link.spend();
          }}
          target={props.debug}
          initial={debugAt}
          copyLink={copyLink && ((at) => copyLink({ call: 0, ...at }))}
        />
      ) : null}
      <SimulatedAt at={props.at} onRerunAtHead={props.onRerunAtHead} />
      {copyLink ? <CopyLinkButton build={() => copyLink()} /> : null}
      {exhausted ? (
        <Alert severity="error" aria-label="Why it failed" sx={{ mb: 1 }}>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            Ran out of storage: {storageExhaustionText(exhausted)}
          </Typography>
          <Typography variant="body2">
            Checked after the call and its internal operations ran to their end: the call is backtracked
          </Typography>
        </Alert>
      ) : null}
      <FactList
        label="Simulation totals"
        facts={[
          ['Consumed gas', gasText ?? `${int(totals.gas)}${pct(totals.gas, gasLimit)}`],
          ['Storage size diff', `${int(totals.storage)} bytes${pct(totals.storage, storageLimit)}`],
          ['Burned', formatTez(totals.burned)],
          ['Gas limit', gasLimit ? int(gasLimit) : '—'],
          ['Storage limit', storageLimit ? int(storageLimit) : '—'],
        ]}
      />
      {/* a narrow screen scrolls the table, not the dialog */}
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Simulated operations">
          <TableHead>
            <TableRow>
              <TableCell>Kind</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Destination</TableCell>
              <TableCell>Entrypoint</TableCell>
              <TableCell align="right">Consumed gas</TableCell>
              <TableCell align="right">Storage size diff</TableCell>
              <TableCell align="right">Burned</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {ops.map((op, i) => (
              <TableRow key={i}>
                <TableCell>{op.internal ? `internal ${op.kind}` : op.kind}</TableCell>
                <TableCell>{op.status}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{op.destination ?? ''}</TableCell>
                <TableCell>{op.kind === 'event' ? (op.tag ?? '') : (op.entrypoint ?? '')}</TableCell>
                <TableCell align="right">
                  {op.status === 'failed' && !op.consumed_gas ? (
                    // a failed call's receipt records no gas
                    '—'
                  ) : (
                    <>
                      {int((op.consumed_gas ?? 0) / 1000)}
                      {pct((op.consumed_gas ?? 0) / 1000, gasLimit)}
                    </>
                  )}
                </TableCell>
                <TableCell align="right">
                  {int(op.paid_storage_size_diff ?? 0)}
                  {pct(op.paid_storage_size_diff ?? 0, storageLimit)}
                </TableCell>
                <TableCell align="right">{formatTez(op.burned ?? 0)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      {flowBody && props.debug ? (
        <SimulationFlowSection network={props.network} address={props.debug.address} request={flowBody} />
      ) : null}
      {ops.map((op, i) =>
        op.errors?.length ? (
          <OperationErrors key={i} op={op} code={i === 0 ? props.code : undefined} />
        ) : null,
      )}
      {events.length > 0 ? (
        <Box component="section" aria-label="Events" sx={{ mt: 2 }}>
          <Typography variant="overline" component="h3">
            Events
          </Typography>
          {events.map((e, i) => (
            <Box key={i} sx={{ mb: 1 }}>
              <Typography variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
                {e.tag ?? 'event'} · {e.source ?? ''}
              </Typography>
              {e.payload?.length ? (
                <MiguelTree
                  roots={e.payload}
                  label={`Event ${e.tag ?? ''} payload`}
                  network={props.network}
                />
              ) : null}
            </Box>
          ))}
        </Box>
      ) : null}
      {main?.storage_diff ? (
        <Box component="section" aria-label="Storage diff" sx={{ mt: 2 }}>
          <Typography variant="overline" component="h3">
            Storage diff
          </Typography>
          <MiguelTree
            roots={[main.storage_diff]}
            label="Storage diff"
            network={props.network}
            diffMode
            open="changed"
          />
        </Box>
      ) : null}
    </FramedDialog>
  );
}

/**
 * A call that failed: the node reports no gas for it (its receipt records none), so the figure is the one the
 * debugger gives for the same inputs, what ran before the failure ('ran 20.028 gas before FAILWITH'); the
 * recording is the debugger's own query, shared with 'Debug'. Undefined when the call did not fail.
 */
function useFailedGas(debug: DebugTarget | undefined, main: Operation | undefined): string | undefined {
  const failed = main?.status === 'failed' && !main.consumed_gas;
  const q = useQuery({
    ...debugQuery(debug ?? { network: '', address: '', request: {} as DebugTarget['request'] }),
    enabled: failed && debug !== undefined,
  });
  if (!failed) return undefined;
  if (q.data?.status === 'failed')
    return `${failedGasText(q.data.failure?.kind, q.data.consumed_milligas)} (a failed call's receipt records no gas)`;
  if (debug && q.isPending) return 'counting the gas it ran…';
  return "not reported: a failed call's receipt records no gas";
}
