/**
 * The flow graph (issue 37) as its own chunk: the layout library and the graph's component load only when a
 * Flow view opens (the group page's `?view=flow`, a simulation's or a what-if's Flow section), never with the
 * page. This module imports nothing of ./FlowView.tsx or ./flow-layout.ts statically (LazyFlowView.test.ts).
 */
import { lazy, Suspense } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import type { FlowGraph } from '@michelscope/api-types';

const FlowView = lazy(() => import('./FlowView'));

export function LazyFlowView(props: { graph: FlowGraph; network: string; idPrefix?: string | undefined }) {
  return (
    <Suspense fallback={<LinearProgress aria-label="Loading the flow graph" />}>
      <FlowView graph={props.graph} network={props.network} idPrefix={props.idPrefix} />
    </Suspense>
  );
}
