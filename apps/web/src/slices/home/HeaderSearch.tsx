import { SearchBox } from './SearchBox';

/** The header's search box (every page but home and search); its own chunk, loaded only where shown. */
export default function HeaderSearch() {
  return <SearchBox variant="header" />;
}
