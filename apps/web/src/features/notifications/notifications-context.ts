import { createContext } from 'react';

export type Severity = 'error' | 'success' | 'warning';

/** How long each kind of snackbar stays (discovery spec §9: 5 s / 2 s / 3 s). */
export const NOTIFICATION_DURATION_MS: Record<Severity, number> = {
  error: 5000,
  success: 2000,
  warning: 3000,
};

export interface Notifier {
  error: (message: string) => void;
  success: (message: string) => void;
  warning: (message: string) => void;
  /** Hides the error snackbar (called on every navigation). */
  hideError: () => void;
}

export const NotificationsContext = createContext<Notifier | null>(null);
