import { useContext } from 'react';
import { NotificationsContext, type Notifier } from './notifications-context';

/** Shows error/success/warning snackbars; only inside NotificationsProvider. */
export function useNotify(): Notifier {
  const value = useContext(NotificationsContext);
  if (!value) throw new Error('useNotify must be used inside NotificationsProvider');
  return value;
}
