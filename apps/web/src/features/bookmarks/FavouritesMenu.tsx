import { useId, useState, type MouseEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import { browserStorage } from '../../shared/storage/local-storage';
import { shorten } from '../../shared/format/format';
import { readBookmarks, bookmarkKey } from './bookmarks-storage';

export const NO_FAVOURITES_TEXT =
  "You don't have favorite accounts yet. Add them by clicking on ⭐️ on the account page or on the Interact tab.";

/** Header button "Favourites": a menu of the bookmarked accounts, or the empty text. */
export function FavouritesMenu() {
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [items, setItems] = useState(() => readBookmarks(browserStorage()));
  const close = () => setAnchor(null);
  const open = (event: MouseEvent<HTMLElement>) => {
    setItems(readBookmarks(browserStorage()));
    setAnchor(event.currentTarget);
  };
  return (
    <>
      <IconButton
        color="inherit"
        aria-label="Favourites"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor !== null}
        onClick={open}
      >
        <StarBorderIcon />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        slotProps={{ paper: { sx: { maxWidth: 360 } } }}
      >
        {items.length === 0 ? (
          <Typography sx={{ px: 2, py: 1 }} color="text.secondary" variant="body2">
            {NO_FAVOURITES_TEXT}
          </Typography>
        ) : (
          items.map((b) => {
            const path = `/${b.network}/${b.address}/${b.entrypoint ? `interact/${b.entrypoint}` : 'operations'}`;
            return (
              <MenuItem key={bookmarkKey(b)} component={RouterLink} to={path} onClick={close}>
                <ListItemText
                  primary={b.alias || shorten(b.address)}
                  secondary={`${b.network}${b.entrypoint ? ` · ${b.entrypoint}` : ''}`}
                />
              </MenuItem>
            );
          })
        )}
      </Menu>
    </>
  );
}
