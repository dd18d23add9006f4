import { useState } from 'react';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import { useCopy } from '../../shared/clipboard/useCopy';
import type { WalletSession } from './useWallet';

/** The connected wallet's menu: copy address, change wallet, log out. Nothing when no wallet is connected. */
export function WalletMenu({ session }: { session: WalletSession }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const copy = useCopy();
  const { wallet } = session;
  if (!wallet) return null;
  const close = () => setAnchor(null);
  return (
    <>
      <Button
        size="small"
        startIcon={<AccountBalanceWalletIcon />}
        aria-label={`Wallet ${wallet.address}`}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ textTransform: 'none', fontFamily: 'monospace' }}
      >
        {wallet.label} · {wallet.address.slice(0, 8)}…{wallet.address.slice(-4)}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        <MenuItem
          onClick={() => {
            close();
            void copy(wallet.address);
          }}
        >
          Copy address
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            session.changeWallet();
          }}
        >
          Change wallet
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            session.logout();
          }}
        >
          Log out
        </MenuItem>
      </Menu>
    </>
  );
}
