import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useNotify } from '../../features/notifications/useNotify';

/**
 * On every navigation to another page: scroll to the top and hide a shown error snackbar
 * (discovery spec §2). Query-string changes on the same page keep the scroll position.
 * A layout effect, so that it runs before the new page's own effects (an error the new page raises
 * at once stays visible).
 */
export function useNavigationEffects(): void {
  const { pathname } = useLocation();
  const { hideError } = useNotify();
  const previous = useRef(pathname);
  useLayoutEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    window.scrollTo({ top: 0, left: 0 });
    hideError();
  }, [pathname, hideError]);
}
