import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { WhatIfCallResult, WhatIfRequest, WhatIfResult } from '@michelscope/api-types';
import { formatTez } from '../../../shared/format/format';
import { MiguelTree } from '../../../shared/micheline/MiguelTree';
import type { DebugTarget } from '../../debugger/debug-target';
import { LazyDebugger } from '../../debugger/LazyDebugger';
import { ChangedKey, CountChips } from '../StorageCompare';
import { entrypointLabel } from './call-logic';
import { FramedDialog } from './InteractDialogs';
import { FactList } from '../../../shared/ui/FactList';
import { CopyLinkButton } from '../../../shared/clipboard/CopyLinkButton';
import { useLinkPosition, type DebugPosition } from './share-link';
import { SimulatedAt } from './SimulatedAt';
import { GraphFlowSection } from '../../operation/flow/FlowSection';

const int = (n: number) => n.toLocaleString('en-US');
const STATUS_COLOUR = {
  applied: 'success',
  failed: 'error',
  backtracked: 'warning',
  skipped: 'default',
} as const;
const signedTez = (mutez: string) =>
  mutez.startsWith('-') ? `−${formatTez(mutez.slice(1))}` : `+${formatTez(mutez)}`;
const mono = { fontFamily: 'monospace', overflowWrap: 'anywhere' } as const;

/**
 * The heading of a big map's changes: its field name and id, or for a map the bundle allocated 'new big map'
 * (its id in the answer is the run's temporary one, -1, which the chain never gives), and its contract when it
 * is not the one called.
 */
export function bigMapChangeTitle(
  m: Pick<WhatIfResult['big_maps'][number], 'ptr' | 'name' | 'contract'>,
  called: string,
): string {
  return (
    `${m.name ?? 'big map'} · ${m.ptr < 0 ? 'new big map' : `Big Map ${m.ptr}`}` +
    (m.contract && m.contract !== called ? ` · ${m.contract}` : '')
  );
}

/** The debugger's request for call `i` of a what-if: its overrides and the calls before it. */
export function debugTargetOf(
  network: string,
  address: string,
  request: WhatIfRequest,
  i: number,
): DebugTarget {
  const c = request.calls[i]!;
  return {
    network,
    address,
    request: {
      name: c.name,
      ...(c.data !== undefined ? { data: c.data } : {}),
      ...(c.amount !== undefined ? { amount: Number(c.amount) } : {}),
      ...(c.source ? { source: c.source } : {}),
      ...(c.sender ? { sender: c.sender } : {}),
      ...(c.storage_limit !== undefined ? { storage_limit: c.storage_limit } : {}),
      overrides: request.overrides ?? {},
      before: request.calls.slice(0, i),
      ...(request.at_level !== undefined ? { at_level: request.at_level } : {}),
    },
  };
}

function Section(props: { label: string; children: React.ReactNode }) {
  return (
    <Box component="section" aria-label={props.label} sx={{ mt: 2 }}>
      <Typography variant="overline" component="h3">
        {props.label}
      </Typography>
      {props.children}
    </Box>
  );
}

/** A call's internal operations (in the order they ran, nested by who emitted them) and events. */
function Emitted({ network, call, n }: { network: string; call: WhatIfCallResult; n: number }) {
  if (call.operations.length === 0 && call.events.length === 0) return null;
  return (
    <Paper variant="outlined" sx={{ p: 1.5, mt: 1 }} aria-label={`Call ${n}: emitted`}>
      <Typography variant="subtitle2" component="h4">
        Call {n} · {entrypointLabel(call.entrypoint)}
      </Typography>
      {call.operations.map((o, i) => (
        <Box
          key={`op-${i}`}
          sx={{ mt: 1, pl: Math.max(0, (o.depth ?? 1) - 1) * 2 }}
          aria-label={
            o.kind === 'event'
              ? `Event ${o.tag ?? ''} of call ${n}`
              : `Internal operation ${i + 1} of call ${n}`
          }
        >
          <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            {o.status ? (
              <Chip size="small" variant="outlined" color={STATUS_COLOUR[o.status]} label={o.status} />
            ) : null}
            <Typography variant="body2" sx={mono}>
              {o.kind === 'event' ? `event ${o.tag ?? ''}` : o.kind}
              {o.destination ? ` → ${o.destination}` : ''}
              {o.originated_contract ? ` → ${o.originated_contract} (new)` : ''}
              {o.entrypoint ? ` · ${o.entrypoint}` : ''}
              {o.amount && o.amount !== '0' ? ` · ${formatTez(o.amount)}` : ''}
              {o.allocated_destination_contract ? ' · new account' : ''}
              {o.paid_storage_size_diff ? ` · +${int(o.paid_storage_size_diff)} bytes` : ''}
              {o.source ? ` · from ${o.source}` : ''}
            </Typography>
          </Stack>
          {o.parameters?.length ? (
            <MiguelTree
              roots={o.parameters}
              label={`Parameters of internal operation ${i + 1}`}
              network={network}
            />
          ) : null}
          {o.payload?.length ? (
            <MiguelTree roots={o.payload} label={`Event ${o.tag ?? ''} payload`} network={network} />
          ) : null}
        </Box>
      ))}
    </Paper>
  );
}

/** Why a call failed: the message, the internal operation that failed, and for storage the limit and use. */
function failureText(c: WhatIfCallResult): string {
  const f = c.failure;
  if (!f) return '';
  const op = f.operation !== undefined ? c.operations[f.operation] : undefined;
  const where = op
    ? ` in internal operation ${f.operation! + 1} (${op.kind}${op.destination ? ` to ${op.destination}` : ''}${
        op.entrypoint && op.entrypoint !== 'default' ? ` %${op.entrypoint}` : ''
      })`
    : '';
  const storage = f.storage
    ? ` Storage limit ${int(f.storage.limit)} bytes, used ${int(f.storage.used)} bytes` +
      (f.storage.contracts.length
        ? `; grew: ${f.storage.contracts.map((x) => `${x.address} (+${int(x.paid_storage_size_diff)})`).join(', ')}`
        : '') +
      (f.storage.allocations ? `; ${f.storage.allocations} new contract(s) or account(s)` : '') +
      '.'
    : '';
  return `${where}: ${f.message}${f.with_text ? ` — ${f.with_text}` : ''}.${storage}`;
}

/**
 * The what-if result: each call's status and gas (with 'Debug'), why a call failed, the storage diff and the
 * big-map keys the bundle changed (as the storage Compare shows them), balance changes, internal operations and
 * events.
 */
export function WhatIfDialog(props: {
  open: boolean;
  onClose: () => void;
  network: string;
  address: string;
  request: WhatIfRequest | null;
  result: WhatIfResult | null;
  /** the share link of this what-if, at a debugger position or not ('Copy link') */
  copyLink?: ((at?: DebugPosition) => Promise<string>) | undefined;
  /** a share link's debugger position: the debugger of its call opens there */
  debugAt?: DebugPosition | undefined;
  /** runs the same inputs again at the head (offered when the result is pinned to an older level) */
  onRerunAtHead?: (() => void) | undefined;
}) {
  const { result: r, request, network, copyLink } = props;
  const link = useLinkPosition(props.debugAt);
  const debugAt = link.at;
  const [debugging, setDebugging] = useState<number | null>(null);
  useEffect(() => {
    if (props.open && debugAt && debugAt.call < (props.result?.calls.length ?? 0)) setDebugging(debugAt.call);
  }, [props.open, debugAt, props.result]);
  if (!r || !request) return null;
  const failed = r.calls.findIndex((c) => c.status === 'failed');
  const gas = r.calls.reduce((s, c) => s + c.consumed_gas, 0);
  const t = r.totals;
  const others = (r.contracts ?? []).filter((c) => c.address !== props.address);
  return (
    <FramedDialog
      open={props.open}
      onClose={props.onClose}
      titleId="whatif-title"
      title="What-if result"
      width={1200}
    >
      {debugging !== null ? (
        <LazyDebugger
          onClose={() => {
            setDebugging(null);
            link.spend();
          }}
          target={debugTargetOf(network, props.address, request, debugging)}
          initial={debugAt?.call === debugging ? debugAt : undefined}
          copyLink={copyLink && ((at) => copyLink({ call: debugging, ...at }))}
        />
      ) : null}
      {failed >= 0 ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          Call {failed + 1} ({entrypointLabel(r.calls[failed]!.entrypoint)}) failed
          {failureText(r.calls[failed]!)} On chain the whole bundle would be backtracked; the diff below shows
          what the calls before it did.
        </Alert>
      ) : null}
      <SimulatedAt at={r.state} onRerunAtHead={props.onRerunAtHead} />
      {copyLink ? <CopyLinkButton build={() => copyLink()} /> : null}
      <FactList
        label="What-if inputs"
        mono
        facts={[
          ['Consumed gas', int(t?.consumed_gas ?? gas)],
          ...(t
            ? ([
                ['Paid storage', `${int(t.paid_storage_size_diff)} bytes`],
                ['Storage burn', formatTez(t.storage_burn)],
                ['Allocation burn', `${formatTez(t.allocation_burn)} (${t.allocations})`],
                ['Total burn', formatTez(t.burn)],
                ['Fee (wallet estimate)', formatTez(t.fee)],
              ] as [string, string][])
            : []),
          ['Level', r.inputs.level],
          ['Now', r.inputs.now],
          ['Chain id', r.inputs.chain_id],
          ['Balance before', formatTez(r.inputs.balance)],
          ['Overridden', r.inputs.overridden.length ? r.inputs.overridden.join(', ') : 'nothing'],
        ]}
      />
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Calls">
          <TableHead>
            <TableRow>
              <TableCell>#</TableCell>
              <TableCell>Entrypoint</TableCell>
              <TableCell>Status</TableCell>
              <TableCell align="right">Gas</TableCell>
              <TableCell align="right">Paid storage</TableCell>
              <TableCell align="right">Burn</TableCell>
              <TableCell align="right">Fee</TableCell>
              <TableCell />
              <TableCell align="right">Internal ops</TableCell>
              <TableCell align="right">Events</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {r.calls.map((c, i) => (
              <TableRow key={i}>
                <TableCell>{i + 1}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{entrypointLabel(c.entrypoint)}</TableCell>
                <TableCell>
                  <Chip size="small" variant="outlined" color={STATUS_COLOUR[c.status]} label={c.status} />
                </TableCell>
                <TableCell align="right">{int(c.consumed_gas)}</TableCell>
                <TableCell align="right">{c.fees ? `${int(c.fees.paid_storage_size_diff)} B` : ''}</TableCell>
                <TableCell align="right">{c.fees ? formatTez(c.fees.burn) : ''}</TableCell>
                <TableCell align="right">{c.fees ? formatTez(c.fees.fee) : ''}</TableCell>
                <TableCell>
                  {c.status === 'skipped' ? null : (
                    <Button size="small" onClick={() => setDebugging(i)} aria-label={`Debug call ${i + 1}`}>
                      Debug
                    </Button>
                  )}
                </TableCell>
                <TableCell align="right">{c.operations.filter((o) => o.kind !== 'event').length}</TableCell>
                <TableCell align="right">{c.events.length}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      {r.flow ? <GraphFlowSection network={network} graph={r.flow} /> : null}
      <Section label="Storage diff">
        {r.storage_diff ? (
          <MiguelTree
            roots={[r.storage_diff]}
            label="Storage diff"
            network={network}
            diffMode
            open="changed"
          />
        ) : (
          <Typography variant="body2" color="text.secondary">
            The storage is unchanged.
          </Typography>
        )}
      </Section>
      {others.length > 0 ? (
        <Section label="Other contracts">
          <Stack sx={{ gap: 1 }}>
            {others.map((c) => (
              <Paper
                key={c.address}
                variant="outlined"
                component="section"
                aria-label={`Storage of ${c.address}`}
                sx={{ p: 1.5 }}
              >
                <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
                  <Typography variant="subtitle1" component="h4" sx={{ ...mono, minWidth: 0 }}>
                    {c.address}
                  </Typography>
                  {c.originated ? <Chip size="small" label="originated" color="info" /> : null}
                </Stack>
                {c.storage_diff ? (
                  <MiguelTree
                    roots={[c.storage_diff]}
                    label={`Storage diff of ${c.address}`}
                    network={network}
                    diffMode
                    open="changed"
                  />
                ) : null}
              </Paper>
            ))}
          </Stack>
        </Section>
      ) : null}
      {r.big_maps.length > 0 ? (
        <Section label="Big-map changes">
          <Stack sx={{ gap: 1 }}>
            {r.big_maps.map((m) => {
              const title = bigMapChangeTitle(m, props.address);
              const shown = m.counts.added + m.counts.changed + m.counts.removed;
              return (
                <Paper key={m.ptr} variant="outlined" component="section" aria-label={title} sx={{ p: 1.5 }}>
                  <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
                    <Typography variant="subtitle1" component="h4" sx={{ fontFamily: 'monospace' }}>
                      {title}
                    </Typography>
                    <CountChips counts={m.counts} />
                  </Stack>
                  <Stack
                    component="ol"
                    aria-label={`Changed keys of ${title}`}
                    sx={{ p: 0, m: 0, listStyle: 'none', gap: 1 }}
                  >
                    {m.items.map((item) => (
                      <ChangedKey key={item.key_hash} network={network} item={item} />
                    ))}
                  </Stack>
                  {shown > m.items.length ? (
                    <Typography variant="caption" color="text.secondary">
                      The first {m.items.length} of {int(shown)} keys.
                    </Typography>
                  ) : null}
                </Paper>
              );
            })}
          </Stack>
        </Section>
      ) : null}
      {r.balance_changes.length > 0 ? (
        <Section label="Balance changes">
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label="Balance changes">
              <TableHead>
                <TableRow>
                  <TableCell>Account</TableCell>
                  <TableCell align="right">Change</TableCell>
                  <TableCell align="right">Before</TableCell>
                  <TableCell align="right">After</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {r.balance_changes.map((b) => (
                  <TableRow key={b.address}>
                    <TableCell sx={mono}>{b.address}</TableCell>
                    <TableCell align="right">{signedTez(b.change)}</TableCell>
                    <TableCell align="right">{b.before !== undefined ? formatTez(b.before) : ''}</TableCell>
                    <TableCell align="right">{b.after !== undefined ? formatTez(b.after) : ''}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        </Section>
      ) : null}
      {r.calls.some((c) => c.operations.length + c.events.length > 0) ? (
        <Section label="Internal operations and events">
          {r.calls.map((c, i) => (
            <Emitted key={i} network={network} call={c} n={i + 1} />
          ))}
          <Typography variant="caption" color="text.secondary">
            Internal operations in the order the chain applies them (depth first), with their status.
          </Typography>
        </Section>
      ) : null}
    </FramedDialog>
  );
}
