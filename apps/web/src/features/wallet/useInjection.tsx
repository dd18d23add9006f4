import { useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { WALLET_MESSAGES } from './wallet-messages';
import { WalletAbortedError } from './wallet-ops';

export interface Injection {
  network: string;
  /** The execution flag: true while an action runs; a second action is refused meanwhile. */
  busy: boolean;
  lastHash: string | null;
  dismiss: () => void;
  /**
   * Runs one action under the execution flag. It clears the last injected hash first; an action that returns
   * a hash marks it injected. A wallet abort is ignored silently; other failures go to `onError`.
   */
  run: (action: () => Promise<string | null>, onError: (message: string) => void) => Promise<void>;
}

/** Message of a failed wallet action: the spec's transaction text, with the cause when there is one. */
export function injectionErrorText(e: unknown): string {
  const cause = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
  return cause ? `${WALLET_MESSAGES.txError} ${cause}` : WALLET_MESSAGES.txError;
}

export function useInjection(network: string): Injection {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const [lastHash, setLastHash] = useState<string | null>(null);
  return {
    network,
    busy,
    lastHash,
    dismiss: () => setLastHash(null),
    run: async (action, onError) => {
      if (running.current) return;
      running.current = true;
      setBusy(true);
      setLastHash(null);
      try {
        const hash = await action();
        if (hash) setLastHash(hash);
      } catch (e) {
        if (!(e instanceof WalletAbortedError)) onError(injectionErrorText(e));
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
  };
}

/** 'Operation has been sucessfully injected' with a link to the operation group; dismissible. */
export function InjectionAlert({ injection }: { injection: Injection }) {
  if (!injection.lastHash) return null;
  const to = `/${injection.network}/opg/${injection.lastHash}`;
  return (
    <Alert severity="success" onClose={injection.dismiss}>
      {WALLET_MESSAGES.injected}:{' '}
      <Link component={RouterLink} to={to} sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {injection.lastHash}
      </Link>
    </Alert>
  );
}
