/**
 * The Flow section of a simulation's and a what-if's result dialog (issue 37): closed at first; opening it
 * asks for the graph (a simulation's: POST …/entrypoints/run_operation/flow with the simulated call's body)
 * and loads the graph's chunk.
 */
import { useId, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { CallRequest, FlowGraph } from '@michelscope/api-types';
import { actionQuery } from '../../../api/resources';
import { LazyFlowView } from './LazyFlowView';

function FlowDisclosure({ children }: { children: (open: boolean) => ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <Box component="section" aria-label="Flow" sx={{ mt: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="overline" component="h3">
          Flow
        </Typography>
        <Button size="small" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide the flow graph' : 'Show the flow graph'}
        </Button>
      </Box>
      <Box id={id}>{open ? children(open) : null}</Box>
    </Box>
  );
}

/** A node simulation's flow: the same call through …/run_operation/flow, asked for when the section opens. */
export function SimulationFlowSection(props: { network: string; address: string; request: CallRequest }) {
  return (
    <FlowDisclosure>
      {() => <SimulationFlow network={props.network} address={props.address} request={props.request} />}
    </FlowDisclosure>
  );
}

function SimulationFlow(props: { network: string; address: string; request: CallRequest }) {
  const q = useQuery({
    ...actionQuery('runOperationFlow', { network: props.network, address: props.address }, props.request),
    staleTime: Infinity,
    retry: false,
  });
  if (q.isPending) return <LinearProgress aria-label="Simulating the flow" />;
  if (q.isError)
    return (
      <Alert severity="error" aria-label="Flow graph error">
        The flow graph could not be built: {q.error.message}
      </Alert>
    );
  return <LazyFlowView graph={q.data} network={props.network} idPrefix="simulation-flow" />;
}

/** A what-if's flow, from its answer's `flow` field. */
export function GraphFlowSection(props: { network: string; graph: FlowGraph; idPrefix?: string }) {
  return (
    <FlowDisclosure>
      {() => (
        <LazyFlowView
          graph={props.graph}
          network={props.network}
          idPrefix={props.idPrefix ?? 'whatif-flow'}
        />
      )}
    </FlowDisclosure>
  );
}
