import { useMemo, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import {
  NOTIFICATION_DURATION_MS,
  NotificationsContext,
  type Notifier,
  type Severity,
} from './notifications-context';

interface Shown {
  id: number;
  severity: Severity;
  message: string;
  open: boolean;
}

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
      <Snackbar
        key={shown?.id}
        open={shown?.open ?? false}
        autoHideDuration={shown ? NOTIFICATION_DURATION_MS[shown.severity] : null}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') close();
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert severity={shown?.severity ?? 'error'} variant="filled" onClose={close} sx={{ maxWidth: 640 }}>
          {shown?.message}
        </Alert>
      </Snackbar>
    </NotificationsContext>
  );
}
