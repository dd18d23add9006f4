/** The debugger's stack pane: the stack after the step as typed trees, top first, changed items marked. */
import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { changedAt, stackAt, type MiguelNode } from '@michelscope/michelson';
import type { DebugResult } from '@michelscope/api-types';
import { MiguelTree } from '../../shared/micheline/MiguelTree';
import { itemNode, typeLabel } from './stack-item';

export function StackView(props: { d: DebugResult; network: string; step: number; changed: boolean }) {
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
