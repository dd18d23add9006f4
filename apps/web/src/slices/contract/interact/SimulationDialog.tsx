import { useEffect, useState } from 'react';
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
import type { DebugTarget } from '../../debugger/debug-target';
import { LazyDebugger } from '../../debugger/LazyDebugger';
import { FactList } from '../../../shared/ui/FactList';
import { CopyLinkButton } from '../../../shared/clipboard/CopyLinkButton';
import type { StateLevel } from '@michelscope/api-types';
import { useLinkPosition, type DebugPosition } from './share-link';
import { SimulatedAt } from './SimulatedAt';
import { storageExhaustion, storageExhaustionText } from '../../operation/storage-exhaustion';

const int = (n: number) => n.toLocaleString('en-US');
const pct = (part: number, limit: number) => {
  const p = percentOf(part, limit);
  return p === null ? '' : ` (${p}%)`;
};

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
          ['Consumed gas', `${int(totals.gas)}${pct(totals.gas, gasLimit)}`],
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
                  {int((op.consumed_gas ?? 0) / 1000)}
                  {pct((op.consumed_gas ?? 0) / 1000, gasLimit)}
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
