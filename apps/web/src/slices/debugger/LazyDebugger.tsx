/**
 * The debugger dialog as its own chunk, opened from a simulation, a view, a what-if call or an operation. The
 * recording is asked for as soon as it opens, while the chunk downloads: both take a while, and in turn they
 * would add up (bench/debugger.ts).
 */
import { lazy, Suspense, useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { debugQuery, type DebugAt, type DebugTarget } from './debug-target';

const DebuggerDialog = lazy(() => import('./DebuggerDialog'));

export function LazyDebugger(props: {
  onClose: () => void;
  target: DebugTarget;
  /** where to open (a share link's position) */
  initial?: DebugAt | undefined;
  /** the share link at a position ('Copy link') */
  copyLink?: ((at: DebugAt) => Promise<string>) | undefined;
}) {
  const client = useQueryClient();
  const key = JSON.stringify(props.target);
  useEffect(() => {
    void client.prefetchQuery(debugQuery(JSON.parse(key) as DebugTarget));
  }, [client, key]);
  return (
    <Suspense fallback={null}>
      <DebuggerDialog
        open
        onClose={props.onClose}
        target={props.target}
        initial={props.initial}
        copyLink={props.copyLink}
      />
    </Suspense>
  );
}
