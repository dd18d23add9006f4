import { lazy, Suspense, useId, useState, type MouseEvent } from 'react';
import IconButton from '@mui/material/IconButton';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import { browserStorage } from '../../shared/storage/local-storage';
import { readBookmarks } from './bookmarks-storage';

const loadList = () => import('./FavouritesList');
const FavouritesList = lazy(loadList);

/**
 * Header button "Favourites": a menu of the bookmarked accounts, or the empty text. The menu's code loads
 * when the visitor points at or focuses the button (it is not needed to show a page).
 */
export function FavouritesMenu() {
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [used, setUsed] = useState(false);
  const [items, setItems] = useState(() => readBookmarks(browserStorage()));
  const open = (event: MouseEvent<HTMLElement>) => {
    setItems(readBookmarks(browserStorage()));
    setUsed(true);
    setAnchor(event.currentTarget);
  };
  const prefetch = () => void loadList();
  return (
    <>
      <IconButton
        color="inherit"
        aria-label="Favourites"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor !== null}
        onClick={open}
        onPointerEnter={prefetch}
        onFocus={prefetch}
      >
        <StarBorderIcon />
      </IconButton>
      {used ? (
        <Suspense fallback={null}>
          <FavouritesList id={menuId} anchor={anchor} items={items} onClose={() => setAnchor(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
