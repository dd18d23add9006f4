import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { NotificationsContext, type Notifier, type Severity } from './notifications-context';
import type { Shown } from './NotificationSnackbar';

/** MUI's Snackbar and Alert load with the first notification: most visits show none. */
const NotificationSnackbar = lazy(() => import('./NotificationSnackbar'));

let nextId = 1;

/** One snackbar at a time: red errors (5 s), green successes (2 s), orange warnings (3 s). */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown | null>(null);

  const notifier = useMemo<Notifier>(() => {
    const show = (severity: Severity) => (message: string) =>
      setShown({ id: nextId++, severity, message, open: true });
    return {
      error: show('error'),
      success: show('success'),
      warning: show('warning'),
      hideError: () => setShown((s) => (s?.severity === 'error' ? { ...s, open: false } : s)),
    };
  }, []);

  const close = () => setShown((s) => (s ? { ...s, open: false } : s));

  return (
    <NotificationsContext value={notifier}>
      {children}
      {shown ? (
        <Suspense fallback={null}>
          <NotificationSnackbar shown={shown} onClose={close} />
        </Suspense>
      ) : null}
    </NotificationsContext>
  );
}
