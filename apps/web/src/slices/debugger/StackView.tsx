/** The debugger's stack pane: the stack after the step as typed trees, top first, changed items marked. */
import { memo, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { changedAt, stackAt, type MiguelNode } from '@michelscope/michelson';
import type { DebugResult } from '@michelscope/api-types';
import { MiguelTree } from '../../shared/micheline/MiguelTree';
import { itemNode, typeLabel } from './stack-item';

/** How many shown roots are kept between steps at most. */
const MAX_SHOWN_ROOTS = 5000;

export const StackView = memo(function StackView(props: {
  d: DebugResult;
  network: string;
  step: number;
  changed: boolean;
}) {
  const { d, step } = props;
  // each distinct item's tree is built once per recording, and each shown root (an item at a depth of the
  // stack, changed or not) once too: the roots a step leaves as they were are the same objects, whose rows
  // the tree need not compute nor render again
  const [nodes] = useState(() => new Map<number, MiguelNode>());
  const [shown] = useState(() => new Map<string, MiguelNode>());
  const stack = useMemo(() => (step < 0 ? [] : stackAt(d.trace, step)), [d, step]);
  const changed = useMemo(
    () => (props.changed && step >= 0 ? changedAt(d.trace, step) : new Set<number>()),
    [d, step, props.changed],
  );
  const roots = useMemo(
    () =>
      stack
        .map((id, index) => {
          const top = stack.length - 1 - index;
          const isChanged = changed.has(index);
          const key = `${id} ${top} ${isChanged ? 1 : 0}`;
          let root = shown.get(key);
          if (!root) {
            let node = nodes.get(id);
            if (!node) nodes.set(id, (node = itemNode(d, id)));
            // a long trace's roots are dropped now and then (they are rebuilt when met again)
            if (shown.size >= MAX_SHOWN_ROOTS) shown.clear();
            root = {
              ...node,
              name: `${top} · ${typeLabel(d, id)}${isChanged ? ' · changed' : ''}`,
              ...(isChanged ? { diff_type: 'create' as const } : {}),
            };
            shown.set(key, root);
          }
          return root;
        })
        .reverse(),
    [d, nodes, shown, stack, changed],
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
});
