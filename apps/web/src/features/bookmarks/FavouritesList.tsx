import { Link as RouterLink } from 'react-router';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { shorten } from '../../shared/format/format';
import { bookmarkKey, type Bookmark } from './bookmarks-storage';
import { NO_FAVOURITES_TEXT } from './favourites-text';

interface Props {
  id: string;
  anchor: HTMLElement | null;
  items: Bookmark[];
  onClose: () => void;
}

/** The favourites menu itself: loaded on first use, so that the menu code is not part of the first visit. */
export default function FavouritesList({ id, anchor, items, onClose }: Props) {
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
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
            <MenuItem key={bookmarkKey(b)} component={RouterLink} to={path} onClick={onClose}>
              <ListItemText
                primary={b.alias || shorten(b.address)}
                secondary={`${b.network}${b.entrypoint ? ` · ${b.entrypoint}` : ''}`}
              />
            </MenuItem>
          );
        })
      )}
    </Menu>
  );
}
