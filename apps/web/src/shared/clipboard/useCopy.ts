import { useCallback } from 'react';
import { useNotify } from '../../features/notifications/useNotify';
import { copyText } from './copy-text';

/** Copies a text and shows the matching snackbar (success 2 s, warning 3 s, error 5 s). */
export function useCopy(): (text: string) => Promise<void> {
  const notify = useNotify();
  return useCallback(
    async (text: string) => {
      const outcome = await copyText(text);
      notify[outcome.severity](outcome.message);
    },
    [notify],
  );
}
