import { useState, type ReactNode } from 'react';
import { LazyDebugger } from '../debugger/LazyDebugger';
import { Link as RouterLink, useLocation } from 'react-router';
import type { DebugAt } from '../debugger/debug-target';
import { debugFragment, debuggable } from './debug-link';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { operationDiffQuery, operationTicketUpdatesQuery } from '../../api/operation-api';
import { EXPORTS } from '../../api/export-requests';
import type { MiguelNode } from '@michelscope/api-types';
import type { Operation } from '../../api/opg-types';
import { AccountBox } from '../../shared/entities/AccountBox';
import { TicketUpdateCard } from '../../shared/entities/TicketUpdateCard';
import { ExportButton } from '../../shared/export/ExportButton';
import { formatNumber, formatTez } from '../../shared/format/format';
import { MiguelTree } from '../../shared/micheline/MiguelTree';
import { OperationErrors } from './OperationErrors';

import {
  gasPercent,
  headerStyle,
  needsLazyDiff,
  repeatUrl,
  statusColour,
  storagePercent,
} from './operation-status';

const HEADER_COLOUR = {
  applied: 'success',
  backtracked: 'warning',
  mempool: 'secondary',
  failed: 'error',
} as const;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 140 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Box sx={{ fontSize: 14 }}>{children}</Box>
    </Box>
  );
}

function LazyDiff({ op }: { op: Operation }) {
  const query = useQuery(operationDiffQuery(op.network, op.id ?? 0));
  if (query.isPending) return <LinearProgress aria-label="Loading storage diff" />;
  if (query.isError || query.data === null) return null;
  return <DiffSection roots={[query.data]} op={op} />;
}

function DiffSection({ roots, op }: { roots: readonly MiguelNode[]; op: Operation }) {
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="overline">Storage</Typography>
      <MiguelTree
        roots={roots}
        label="Storage diff"
        network={op.network}
        diffMode
        open="changed"
        maxHeight={400}
      />
    </Box>
  );
}

/** The ticket updates an operation made (holder, signed amount, ticketer). */
function TicketUpdatesSection({ op }: { op: Operation }) {
  const query = useQuery(operationTicketUpdatesQuery(op.network, op.id ?? 0));
  if (query.isPending) return <LinearProgress aria-label="Loading ticket updates" />;
  const updates = query.data ?? [];
  if (query.isError || updates.length === 0) return null;
  return (
    <Box sx={{ mt: 1 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="overline">Ticket updates</Typography>
        <ExportButton
          what="ticket updates"
          request={(format) =>
            EXPORTS.operationTicketUpdates({ network: op.network, id: op.id ?? 0 }, format)
          }
          total={updates.length}
        />
      </Stack>
      <Stack component="ol" spacing={1} aria-label="Ticket updates" sx={{ p: 0, m: 0, listStyle: 'none' }}>
        {updates.map((u) => (
          <TicketUpdateCard key={u.id} network={op.network} update={u} />
        ))}
      </Stack>
    </Box>
  );
}

/** The action of an operation as a title: entrypoint for calls, else the kind. */
export function operationTitle(op: Operation): string {
  if (op.kind === 'event') return op.tag ? `event ${op.tag}` : 'event';
  return op.entrypoint ?? op.kind.replace(/_/g, ' ');
}

/**
 * One operation of a group: a header coloured by status and expandable details (fields, parameters,
 * storage diff, errors). Details start expanded when the operation has errors; the storage diff loads on
 * first expansion, only for applied operations with an id (an inline diff is used directly).
 */
export function OperationCard({ op, debugAt }: { op: Operation; debugAt?: DebugAt | undefined }) {
  // a debugger link of this operation opens its details and debugger there, once
  const [linkAt, setLinkAt] = useState(debuggable(op) ? debugAt : undefined);
  const [debugging, setDebugging] = useState(linkAt !== undefined);
  const [open, setOpen] = useState((op.errors?.length ?? 0) > 0 || linkAt !== undefined);
  const { pathname, search } = useLocation();
  const [everOpened, setEverOpened] = useState(open);
  const style = headerStyle(op.status);
  const repeat = repeatUrl(op);
  const gas = gasPercent(op);
  const storage = storagePercent(op);
  const detailsId = `op-details-${op.id ?? 'x'}-${op.content_index}-${op.internal ? 'i' : 'm'}-${op.counter ?? 0}`;
  const destinationLabel = op.kind.startsWith('origination') ? 'Originated contract' : 'Destination';

  return (
    <Paper
      variant="outlined"
      sx={{ ml: op.internal ? { xs: 1, sm: 4 } : 0, overflow: 'hidden' }}
      component="article"
      data-counter={op.counter ?? undefined}
    >
      <Stack
        direction="row"
        sx={(theme) => ({
          alignItems: 'center',
          gap: 1,
          flexWrap: 'wrap',
          px: 2,
          py: 1,
          bgcolor: alpha(theme.palette[HEADER_COLOUR[style]].main, 0.15),
          borderLeft: 4,
          borderColor: `${HEADER_COLOUR[style]}.main`,
        })}
        data-header-style={style}
      >
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {op.internal ? 'internal ' : ''}
          {operationTitle(op)}
        </Typography>
        <Chip
          size="small"
          label={op.status}
          color={statusColour(op.status) === 'grey' ? 'default' : (statusColour(op.status) as 'success')}
          variant="outlined"
        />
        <Box sx={{ flexGrow: 1 }} />
        {op.amount ? <Typography variant="body2">{formatTez(op.amount)}</Typography> : null}
        <Button
          size="small"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => {
            setOpen(!open);
            setEverOpened(true);
          }}
        >
          {open ? 'Hide details' : 'Show details'}
        </Button>
      </Stack>
      {/* on a phone one field a line: a name that arrives after the address (an alias) must not wrap the row and
          push the page down (a layout shift of 0.095 at 4× CPU, issue 36) */}
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        sx={{ px: 2, py: 1, gap: 2, flexWrap: 'wrap', alignItems: { xs: 'flex-start', sm: 'normal' } }}
      >
        {op.source ? (
          <Field label="Source">
            <AccountBox network={op.network} address={op.source} title="Source" />
          </Field>
        ) : null}
        {op.destination ? (
          <Field label={destinationLabel}>
            <AccountBox network={op.network} address={op.destination} title={destinationLabel} />
          </Field>
        ) : null}
        {op.delegate ? (
          <Field label="Delegate">
            <AccountBox network={op.network} address={op.delegate} title="Delegate" />
          </Field>
        ) : null}
      </Stack>
      <Collapse in={open} id={detailsId}>
        <Box sx={{ px: 2, pb: 2 }}>
          <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap', mb: 1 }}>
            {!op.internal ? <Field label="Fee">{formatTez(op.fee ?? 0)}</Field> : null}
            {op.consumed_gas ? (
              <Field label="Consumed gas">
                {formatNumber(op.consumed_gas / 1000, 3)}
                {gas !== null ? ` (${gas}% of limit)` : ''}
              </Field>
            ) : null}
            {op.paid_storage_size_diff ? (
              <Field label="Paid storage diff">
                {formatNumber(op.paid_storage_size_diff)} bytes
                {storage !== null ? ` (${storage}% of limit)` : ''}
              </Field>
            ) : null}
            {op.storage_size ? (
              <Field label="Storage size">{formatNumber(op.storage_size)} bytes</Field>
            ) : null}
            {op.burned ? <Field label="Burned">{formatTez(op.burned)}</Field> : null}
            {op.counter !== undefined ? <Field label="Counter">{op.counter}</Field> : null}
          </Stack>
          {/* The actions come before the sections that load after the card opens (the failed code, the
              storage diff, the ticket updates): those do not move them from under the reader's pointer. */}
          {repeat || debuggable(op) ? (
            <Stack direction="row" sx={{ gap: 1, mb: 1 }}>
              {repeat ? (
                <Button component={RouterLink} to={repeat} size="small">
                  Repeat in Interact
                </Button>
              ) : null}
              {debuggable(op) ? (
                <Button size="small" onClick={() => setDebugging(true)}>
                  Debug
                </Button>
              ) : null}
            </Stack>
          ) : null}
          <OperationErrors op={op} />
          {op.parameters?.length ? (
            <Box sx={{ mt: 1 }}>
              <Typography variant="overline">Parameters</Typography>
              <MiguelTree
                roots={op.parameters}
                label="Parameters"
                network={op.network}
                open="all"
                maxHeight={400}
              />
            </Box>
          ) : null}
          {op.payload?.length ? (
            <Box sx={{ mt: 1 }}>
              <Typography variant="overline">Payload</Typography>
              <MiguelTree
                roots={op.payload}
                label="Payload"
                network={op.network}
                open="all"
                maxHeight={400}
              />
            </Box>
          ) : null}
          {op.storage_diff ? <DiffSection roots={[op.storage_diff]} op={op} /> : null}
          {everOpened && needsLazyDiff(op) ? <LazyDiff op={op} /> : null}
          {everOpened && !!op.id && op.ticket_updates_count > 0 ? <TicketUpdatesSection op={op} /> : null}
          {debugging && op.id ? (
            <LazyDebugger
              onClose={() => {
                setDebugging(false);
                setLinkAt(undefined);
              }}
              target={{
                network: op.network,
                address: op.destination ?? '',
                request: { name: op.entrypoint ?? 'default' },
                operationId: op.id,
              }}
              initial={linkAt}
              copyLink={(at) =>
                Promise.resolve(
                  `${window.location.origin}${pathname}${search}${debugFragment({ id: op.id!, ...at })}`,
                )
              }
            />
          ) : null}
        </Box>
      </Collapse>
    </Paper>
  );
}
