/**
 * The operation flow graph (issue 37): the accounts and contracts of a group (or a simulation) as nodes and
 * each operation as a numbered edge in execution order, laid out by dagre and drawn in SVG; focusing or
 * hovering an edge's label shows its decoded parameter; below, the same facts as tables (the text alternative
 * that screen readers and phones use). Its own chunk: ./LazyFlowView.tsx loads it when the view opens.
 */
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import type { FlowEdge, FlowGraph } from '@michelscope/api-types';
import { MiguelTree } from '../../../shared/micheline/MiguelTree';
import { shortAddress } from '../../../shared/entities/explorer-links';
import { truncate } from '../../../shared/format/format';
import {
  accountPath,
  edgeAction,
  edgeLabel,
  edgeRoute,
  isFailure,
  edgeNumber,
  FLOW_ALIAS_MAX,
  focusOrder,
  nodeKind,
  nodeLabel,
  nodeName,
  nodesByAddress,
  signedTez,
  signedTicket,
  signedToken,
  tezAmount,
  ticketMovementText,
  tokenMovementText,
} from './flow-model';
import { LINE_HEIGHT, PADDING, layoutFlow, pathOf, type Box as LaidBox } from './flow-layout';

export interface FlowViewProps {
  graph: FlowGraph;
  network: string;
  /** a prefix for element ids (two views on one page) */
  idPrefix?: string | undefined;
}

const mono = { fontFamily: 'monospace', overflowWrap: 'anywhere' } as const;

/** An account in the tables: its alias or short address, linked to its page when it has an address's shape. */
function Account({
  network,
  address,
  alias,
}: {
  network: string;
  address: string;
  alias?: string | undefined;
}) {
  const path = accountPath(network, address);
  const text = alias ? truncate(alias, FLOW_ALIAS_MAX) : shortAddress(address);
  const sx = alias ? { overflowWrap: 'anywhere' as const } : mono;
  return path ? (
    <Link component={RouterLink} to={path} title={address} underline="hover" sx={sx}>
      {text}
    </Link>
  ) : (
    <Box component="span" title={address} sx={sx}>
      {text}
    </Box>
  );
}

function Lines({ box, bold, colour, x0 = 0 }: { box: LaidBox; bold?: boolean; colour: string; x0?: number }) {
  return (
    <>
      {box.lines.map((line, i) => (
        <text
          key={i}
          x={box.x + PADDING + x0}
          y={box.y + PADDING + (i + 1) * LINE_HEIGHT - 4}
          fontFamily="monospace"
          fontSize={12}
          fontWeight={bold && i === 0 ? 700 : 400}
          fill={colour}
        >
          {line}
        </text>
      ))}
    </>
  );
}

/** The decoded parameter and the movements of the edge in focus (or hovered). */
function EdgeDetails({
  edge,
  network,
  names,
  id,
}: {
  edge: FlowEdge | undefined;
  network: string;
  names: (a: string) => string;
  id: string;
}) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: 1.5, mt: 1 }}>
      <Typography id={id} variant="subtitle2" component="h3" sx={{ overflowWrap: 'anywhere' }}>
        {edge ? `Edge ${edgeLabel(edge, names)}` : 'Edge details'}
      </Typography>
      {!edge ? (
        <Typography variant="body2" color="text.secondary">
          Focus or hover an edge&apos;s label to see its parameter.
        </Typography>
      ) : (
        <>
          {edge.tokens.map((t, i) => (
            <Typography key={`t${i}`} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              Token: {tokenMovementText(t, names)}
            </Typography>
          ))}
          {edge.tickets.map((t, i) => (
            <Typography key={`k${i}`} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              Ticket: {ticketMovementText(t, names)}
            </Typography>
          ))}
          {edge.parameters?.length ? (
            <MiguelTree
              roots={edge.parameters}
              label={`Parameter of edge ${edgeNumber(edge)}`}
              network={network}
              open="all"
              maxHeight={320}
            />
          ) : null}
          {edge.event?.payload?.length ? (
            <MiguelTree
              roots={edge.event.payload}
              label={`Payload of event ${edgeNumber(edge)}`}
              network={network}
              open="all"
              maxHeight={320}
            />
          ) : null}
          {!edge.parameters?.length && !edge.event?.payload?.length ? (
            <Typography variant="body2" color="text.secondary">
              No parameter.
            </Typography>
          ) : null}
        </>
      )}
    </Paper>
  );
}

/** The graph, its edge details and its text alternative. */
export default function FlowView({ graph, network, idPrefix = 'flow' }: FlowViewProps) {
  const theme = useTheme();
  const layout = useMemo(() => layoutFlow(graph), [graph]);
  const byAddress = useMemo(() => nodesByAddress(graph), [graph]);
  const names = (a: string) => nodeName(byAddress.get(a), a);
  const [active, setActive] = useState<number | undefined>(undefined);
  const order = useMemo(() => focusOrder(graph), [graph]);
  const nodeAt = new Map(layout.nodes.map((n) => [n.id, n]));
  const marker = `${idPrefix}-arrow`;
  const markerFailed = `${idPrefix}-arrow-failed`;
  const ink = theme.palette.text.primary;
  const muted = theme.palette.text.secondary;
  const failedInk = theme.palette.error.main;

  return (
    <Box>
      {graph.truncated ? (
        <Alert severity="info" sx={{ mb: 1 }}>
          The group has {graph.total_operations.toLocaleString('en-US')} operations: the graph shows the first{' '}
          {graph.edges.length.toLocaleString('en-US')}.
        </Alert>
      ) : null}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {graph.edges.length} {graph.edges.length === 1 ? 'operation' : 'operations'} between{' '}
        {graph.nodes.length} {graph.nodes.length === 1 ? 'account' : 'accounts'}
        {graph.status === 'failed' ? '; failed: dashed edges did not apply' : ''}. Tab through the graph in
        execution order.
      </Typography>
      <Box
        role="region"
        aria-label="Flow graph"
        tabIndex={0}
        sx={{
          overflow: 'auto',
          maxHeight: { xs: 480, md: 720 },
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          '& [tabindex]:focus-visible': {
            outline: `2px solid ${theme.palette.primary.main}`,
            outlineOffset: 2,
          },
          '& [tabindex]': { cursor: 'default' },
        }}
      >
        <svg
          width={layout.width}
          height={layout.height}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          role="group"
          aria-label="Operation flow: nodes and numbered edges in execution order"
          style={{ display: 'block', margin: '0 auto' }}
        >
          <defs>
            {[
              [marker, muted],
              [markerFailed, failedInk],
            ].map(([id, colour]) => (
              <marker
                key={id}
                id={id}
                viewBox="0 0 10 10"
                refX="9"
                refY="5"
                markerWidth="9"
                markerHeight="9"
                markerUnits="userSpaceOnUse"
                orient="auto-start-reverse"
              >
                <path d="M 0 0 L 10 5 L 0 10 z" fill={colour} />
              </marker>
            ))}
          </defs>
          <g aria-hidden="true">
            {layout.edges.map((e) => {
              const failed = isFailure(e.edge);
              const dashed = e.edge.status !== 'applied';
              return (
                <path
                  key={e.at}
                  d={pathOf(e.points)}
                  fill="none"
                  stroke={failed ? failedInk : muted}
                  strokeWidth={active === e.at ? 2.5 : 1.25}
                  strokeDasharray={dashed ? '6 4' : undefined}
                  markerEnd={`url(#${failed ? markerFailed : marker})`}
                  data-edge-path={e.at}
                />
              );
            })}
            {layout.nodes
              .filter((n) => !n.node)
              .map((n) => (
                <g key={n.id}>
                  <rect
                    x={n.x}
                    y={n.y}
                    width={n.width}
                    height={n.height}
                    rx={12}
                    fill={theme.palette.background.default}
                    stroke={muted}
                    strokeDasharray="2 3"
                  />
                  <Lines box={n} colour={muted} />
                </g>
              ))}
          </g>
          {order.map((item) => {
            if (item.kind === 'node') {
              const n = nodeAt.get(item.address);
              if (!n?.node) return null;
              const contract = n.node.kind !== 'implicit';
              return (
                <g
                  key={`n-${item.address}`}
                  role="img"
                  tabIndex={0}
                  aria-label={nodeLabel(n.node)}
                  data-flow-node={n.node.address}
                >
                  <title>{n.node.address}</title>
                  <rect
                    x={n.x}
                    y={n.y}
                    width={n.width}
                    height={n.height}
                    rx={6}
                    fill={theme.palette.background.paper}
                    stroke={contract ? theme.palette.primary.main : muted}
                    strokeWidth={contract ? 1.5 : 1}
                  />
                  <Lines box={n} bold colour={ink} />
                </g>
              );
            }
            const e = layout.edges[item.index];
            if (!e) return null;
            const failed = isFailure(e.edge);
            const dashed = e.edge.status !== 'applied';
            const show = () => setActive(e.at);
            return (
              <g
                key={`e-${e.at}`}
                role="button"
                tabIndex={0}
                // the label's visible lines first, as drawn (a voice user names the button by what they see),
                // then where the edge goes
                aria-label={`${e.label.lines.join(', ')}, ${edgeRoute(e.edge, names)}`}
                aria-controls={`${idPrefix}-details`}
                data-flow-edge={edgeNumber(e.edge)}
                data-status={e.edge.status}
                onFocus={show}
                onMouseEnter={show}
                onClick={show}
                onKeyDown={(ev) => {
                  if (ev.key === 'Enter' || ev.key === ' ') {
                    ev.preventDefault();
                    show();
                  }
                }}
              >
                <rect
                  x={e.label.x}
                  y={e.label.y}
                  width={e.label.width}
                  height={e.label.height}
                  rx={4}
                  fill={theme.palette.background.default}
                  stroke={
                    failed ? failedInk : active === e.at ? theme.palette.primary.main : theme.palette.divider
                  }
                  strokeWidth={active === e.at ? 2 : 1}
                  strokeDasharray={dashed ? '4 3' : undefined}
                />
                {e.label.lines.map((line, i) => (
                  <text
                    key={i}
                    x={e.label.x + PADDING}
                    y={e.label.y + PADDING + (i + 1) * LINE_HEIGHT - 4}
                    fontFamily="monospace"
                    fontSize={12}
                    fontWeight={i === 0 ? 700 : 400}
                    fill={failed && i === e.label.lines.length - 1 ? failedInk : ink}
                  >
                    {line}
                  </text>
                ))}
              </g>
            );
          })}
        </svg>
      </Box>
      <Box id={`${idPrefix}-details`}>
        <EdgeDetails
          edge={active === undefined ? undefined : graph.edges[active]}
          network={network}
          names={names}
          id={`${idPrefix}-details-title`}
        />
      </Box>
      <FlowTables graph={graph} network={network} />
    </Box>
  );
}

/** The text alternative: every edge with its movements and status, and every node's summed changes. */
export function FlowTables({ graph, network }: { graph: FlowGraph; network: string }) {
  const byAddress = nodesByAddress(graph);
  const names = (a: string) => nodeName(byAddress.get(a), a);
  const account = (a: string | undefined) =>
    a === undefined ? '—' : <Account network={network} address={a} alias={byAddress.get(a)?.alias} />;
  return (
    <>
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2, mb: 0.5 }}>
        Edges in execution order
      </Typography>
      <Box role="region" aria-label="Flow edges, scrollable" tabIndex={0} sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Flow edges" sx={{ minWidth: 760 }}>
          <TableHead>
            <TableRow>
              <TableCell>#</TableCell>
              <TableCell>From</TableCell>
              <TableCell>To</TableCell>
              <TableCell>Entrypoint</TableCell>
              <TableCell align="right">Amount</TableCell>
              <TableCell>Tokens</TableCell>
              <TableCell>Tickets</TableCell>
              <TableCell>Status</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {graph.edges.map((e, i) => (
              <TableRow key={i} data-status={e.status}>
                <TableCell>{edgeNumber(e)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{account(e.from)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{account(e.to)}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{edgeAction(e)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {e.amount === '0' ? '—' : tezAmount(e.amount)}
                </TableCell>
                <TableCell sx={{ minWidth: 220 }}>
                  {e.tokens.length === 0
                    ? '—'
                    : e.tokens.map((t, j) => (
                        <Box key={j} sx={{ overflowWrap: 'anywhere' }}>
                          {tokenMovementText(t, names)}
                        </Box>
                      ))}
                </TableCell>
                <TableCell sx={{ minWidth: 200 }}>
                  {e.tickets.length === 0
                    ? '—'
                    : e.tickets.map((t, j) => (
                        <Box key={j} sx={{ overflowWrap: 'anywhere' }}>
                          {ticketMovementText(t, names)}
                        </Box>
                      ))}
                </TableCell>
                <TableCell sx={isFailure(e) ? { color: 'error.main', fontWeight: 600 } : undefined}>
                  {e.status === 'emitted' ? 'emitted (not run)' : e.status}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2, mb: 0.5 }}>
        Balance changes (applied operations)
      </Typography>
      <Box
        role="region"
        aria-label="Flow balance changes, scrollable"
        tabIndex={0}
        sx={{ overflowX: 'auto' }}
      >
        <Table size="small" aria-label="Flow balance changes" sx={{ minWidth: 600 }}>
          <TableHead>
            <TableRow>
              <TableCell>Account</TableCell>
              <TableCell>Kind</TableCell>
              <TableCell>Tags</TableCell>
              <TableCell align="right">Tez</TableCell>
              <TableCell>Tokens</TableCell>
              <TableCell>Tickets</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {graph.nodes.map((n) => (
              <TableRow key={n.address}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{account(n.address)}</TableCell>
                <TableCell>{nodeKind(n)}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>
                  {n.tags?.length ? n.tags.join(', ') : '—'}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {/^-?[0-9]+$/.test(n.tez) && BigInt(n.tez) !== 0n ? signedTez(n.tez) : '—'}
                </TableCell>
                <TableCell sx={{ minWidth: 160 }}>
                  {n.tokens.length === 0
                    ? '—'
                    : n.tokens.map((t, j) => <Box key={j}>{signedToken(t.token, t.change)}</Box>)}
                </TableCell>
                <TableCell sx={{ minWidth: 160 }}>
                  {n.tickets.length === 0
                    ? '—'
                    : n.tickets.map((t, j) => (
                        <Box key={j}>{signedTicket(t.ticketer, t.change, t.content)}</Box>
                      ))}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </>
  );
}
