import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { WALLET_MESSAGES } from './wallet-messages';

interface Props {
  open: boolean;
  onContinue: () => void;
  onChangeWallet: () => void;
  /** Closing aborts (workspace spec §4). */
  onClose: () => void;
}

export function WrongNetworkDialog({ open, onContinue, onChangeWallet, onClose }: Props) {
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="wrong-network-title" maxWidth="sm" fullWidth>
      <DialogTitle id="wrong-network-title">Wrong network</DialogTitle>
      <DialogContent>
        <DialogContentText>{WALLET_MESSAGES.wrongNetwork}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onContinue}>Continue anyway</Button>
        <Button variant="contained" onClick={onChangeWallet}>
          Change wallet
        </Button>
      </DialogActions>
    </Dialog>
  );
}
