/**
 * The share link a page was opened with (`#s=…` or `#share=…`), of the kind the page opens: read once when the
 * page mounts (a link runs once), a stored one fetched by its id. `pending` while a stored one loads.
 */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { resourceQuery, runAction } from '../../../api/resources';
import { parseShare, readFragment, shareLink, type AnyShare, type ShareKind } from './share-link';

type Of<K extends ShareKind> = ReturnType<typeof parseShare<K>>;

export function useOpenedShare<K extends ShareKind>(
  hash: string,
  kind: K,
): { state?: Of<K>; error?: string; pending: boolean } {
  const [opened] = useState(() => readFragment(hash, kind));
  const storedId = opened && 'id' in opened ? opened.id : '';
  const stored = useQuery({
    ...resourceQuery('share', { id: storedId }),
    enabled: storedId !== '',
    retry: false,
    staleTime: Infinity,
  });
  const shared = useMemo((): { state?: Of<K>; error?: string } => {
    if (!opened) return {};
    if ('error' in opened) return { error: opened.error };
    if ('state' in opened) return { state: opened.state };
    if (stored.isError) return { error: stored.error.message };
    if (!stored.data) return {};
    try {
      return { state: parseShare(stored.data.state, kind) };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }, [opened, stored.data, stored.isError, stored.error, kind]);
  return { ...shared, pending: storedId !== '' && stored.isPending };
}

/** The link of a state: its fragment, or the id the API stores a long one under. */
export const linkOf = <S extends AnyShare>(s: S) =>
  shareLink(s, window.location.origin, (state) => runAction('shareCreate', undefined, state));
