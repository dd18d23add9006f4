import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import {
  bookmarkKey,
  readBookmarks,
  removeBookmark,
  saveBookmark,
} from '../../features/bookmarks/bookmarks-storage';
import { browserStorage } from '../../shared/storage/local-storage';

interface Props {
  network: string;
  address: string;
  entrypoint?: string;
  /** Default name: the alias, else the address. */
  defaultName: string;
}

/**
 * The bookmark toggle (workspace spec §4): when bookmarked it removes the bookmark, otherwise it opens the
 * name dialog; Add (or Enter) saves it, an empty name falls back to the default.
 */
export function BookmarkButton({ network, address, entrypoint, defaultName }: Props) {
  const key = bookmarkKey({ network, address, ...(entrypoint ? { entrypoint } : {}) });
  const [saved, setSaved] = useState(() =>
    readBookmarks(browserStorage()).some((b) => bookmarkKey(b) === key),
  );
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');

  const toggle = () => {
    if (saved) {
      removeBookmark(browserStorage(), key);
      setSaved(false);
    } else {
      setName(defaultName);
      setOpen(true);
    }
  };
  const add = (event?: FormEvent) => {
    event?.preventDefault();
    const alias = name.trim() || defaultName;
    saveBookmark(browserStorage(), { network, address, alias, ...(entrypoint ? { entrypoint } : {}) });
    setSaved(true);
    setOpen(false);
  };

  const label = saved ? 'Remove bookmark' : 'Add bookmark';
  return (
    <>
      <Tooltip title={label}>
        <IconButton aria-label={label} aria-pressed={saved} onClick={toggle} size="small">
          {saved ? <StarIcon fontSize="inherit" color="warning" /> : <StarBorderIcon fontSize="inherit" />}
        </IconButton>
      </Tooltip>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        aria-labelledby="bookmark-title"
        maxWidth="xs"
        fullWidth
      >
        <form onSubmit={add}>
          <DialogTitle id="bookmark-title">Bookmark name</DialogTitle>
          <DialogContent>
            <TextField
              autoFocus
              fullWidth
              margin="dense"
              label="Name"
              value={name}
              slotProps={{ htmlInput: { maxLength: 100 } }}
              onChange={(e) => setName(e.target.value)}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button type="submit" variant="contained">
              Add
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
