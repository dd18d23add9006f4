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
  /** The last hash came from a wallet that broadcast it itself (octez.connect). */
  broadcast: boolean;
  dismiss: () => void;
  /**
   * Runs one action under the execution flag. It clears the last injected hash first; an action that returns
   * a hash marks it injected. A wallet abort is ignored silently; other failures go to `onError`.
   */
  run: (action: () => Promise<Injected | string | null>, onError: (message: string) => void) => Promise<void>;
}

/** What an action injected: the operation group hash, and whether a wallet broadcast it. */
export interface Injected {
  opHash: string;
  broadcast?: boolean;
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
  const [broadcast, setBroadcast] = useState(false);
  return {
    network,
    busy,
    lastHash,
    broadcast,
    dismiss: () => setLastHash(null),
    run: async (action, onError) => {
      if (running.current) return;
      running.current = true;
      setBusy(true);
      setLastHash(null);
      try {
        const result = await action();
        const hash = typeof result === 'string' ? result : (result?.opHash ?? null);
        if (hash) {
          setLastHash(hash);
          setBroadcast(typeof result === 'object' && result?.broadcast === true);
        }
      } catch (e) {
        if (!(e instanceof WalletAbortedError)) onError(injectionErrorText(e));
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
  };
}

/**
 * 'Operation has been sucessfully injected' (sandbox wallet) or 'The transaction has successfully been
 * broadcasted to the network.' (octez.connect), with a link to the operation group; dismissible.
 */
export function InjectionAlert({ injection }: { injection: Injection }) {
  if (!injection.lastHash) return null;
  const to = `/${injection.network}/opg/${injection.lastHash}`;
  return (
    <Alert severity="success" onClose={injection.dismiss}>
      {injection.broadcast ? WALLET_MESSAGES.broadcasted : `${WALLET_MESSAGES.injected}:`}{' '}
      <Link component={RouterLink} to={to} sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
        {injection.lastHash}
      </Link>
    </Alert>
  );
}
