import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
// octez-connect.ts is small and already in the app's chunk (wallet-reset imports it); the wallet SDK it
// loads is the lazy part.
import { createOctezConnectWallet } from './octez-connect';
import { createSandboxWallet } from './sandbox-wallet';
import { WalletAbortedError } from './wallet-ops';
import { SANDBOX_ACCOUNTS, SANDBOX_NETWORK } from './sandbox-accounts';
import type { ConnectedWallet } from './wallet-ops';

interface Props {
  open: boolean;
  network: string;
  /** "Change wallet": ask the wallet for a new permission instead of reusing the active account. */
  fresh?: boolean;
  onConnected: (wallet: ConnectedWallet) => void;
  onClose: () => void;
}

/**
 * Chooses the wallet. On sandboxnet: a bootstrap account that signs in the browser. Other networks connect
 * through octez.connect (the wallet asks for the permission scopes operation request and sign); a user
 * abort leaves the dialog open without a message.
 */
export function ConnectWalletDialog({ open, network, fresh, onConnected, onClose }: Props) {
  const [pkh, setPkh] = useState(SANDBOX_ACCOUNTS[0]!.pkh);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sandbox = network === SANDBOX_NETWORK;

  const connect = async () => {
    const account = SANDBOX_ACCOUNTS.find((a) => a.pkh === pkh);
    if (!account) return;
    setBusy(true);
    setError(null);
    try {
      onConnected(await createSandboxWallet(network, account, window.location.origin));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const connectOctez = async () => {
    setBusy(true);
    setError(null);
    try {
      onConnected(await createOctezConnectWallet(network, window.location.origin, { fresh: fresh ?? false }));
    } catch (e) {
      if (!(e instanceof WalletAbortedError)) setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="connect-wallet-title" maxWidth="sm" fullWidth>
      <DialogTitle id="connect-wallet-title">Connect a wallet</DialogTitle>
      <DialogContent>
        {sandbox ? (
          <>
            <DialogContentText sx={{ mb: 1 }}>
              Sandbox wallet: sign in this browser with a bootstrap account of the local chain.
            </DialogContentText>
            <RadioGroup aria-label="Sandbox account" value={pkh} onChange={(e) => setPkh(e.target.value)}>
              {SANDBOX_ACCOUNTS.map((a) => (
                <FormControlLabel
                  key={a.pkh}
                  value={a.pkh}
                  control={<Radio />}
                  label={`${a.name} (${a.pkh})`}
                  // a phone's width cuts an address: it wraps instead
                  sx={{ '& .MuiFormControlLabel-label': { overflowWrap: 'anywhere' } }}
                />
              ))}
            </RadioGroup>
          </>
        ) : (
          <DialogContentText>
            Connect a wallet on {network} through octez.connect: the wallet asks you to allow operation
            requests and signing.
          </DialogContentText>
        )}
        {error ? (
          <Alert severity="error" sx={{ mt: 1 }}>
            {error}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        {sandbox ? (
          <Button variant="contained" disabled={busy} onClick={() => void connect()}>
            Connect
          </Button>
        ) : (
          <Button variant="contained" disabled={busy} onClick={() => void connectOctez()}>
            Connect with octez.connect
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
