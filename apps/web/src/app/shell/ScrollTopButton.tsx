import { lazy, Suspense, useEffect, useState } from 'react';

/** Past this many pixels scrolled, the "Scroll to top" button appears. */
export const SCROLL_TOP_THRESHOLD = 400;

/** MUI's Fab and Zoom load the first time the page is scrolled that far, not at boot. */
const ScrollTopFab = lazy(() => import('./ScrollTopFab'));

/** A floating button that brings the visitor back to the top of a long page. */
export function ScrollTopButton() {
  const [visible, setVisible] = useState(false);
  const [used, setUsed] = useState(false);
  useEffect(() => {
    const onScroll = () => {
      const past = window.scrollY > SCROLL_TOP_THRESHOLD;
      setVisible(past);
      if (past) setUsed(true);
    };
    // no first read of scrollY here: during the first commit it forces a layout of the whole page; a page
    // opened scrolled (restored position) gets a scroll event
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return used ? (
    <Suspense fallback={null}>
      <ScrollTopFab visible={visible} />
    </Suspense>
  ) : null;
}
