import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { NOTIFICATION_DURATION_MS, type Severity } from './notifications-context';

export interface Shown {
  id: number;
  severity: Severity;
  message: string;
  open: boolean;
}

/** The snackbar of one notification (its own chunk: loaded with the first notification, not at boot). */
export default function NotificationSnackbar({ shown, onClose }: { shown: Shown; onClose: () => void }) {
  return (
    <Snackbar
      key={shown.id}
      open={shown.open}
      autoHideDuration={NOTIFICATION_DURATION_MS[shown.severity]}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert severity={shown.severity} variant="filled" onClose={onClose} sx={{ maxWidth: 640 }}>
        {shown.message}
      </Alert>
    </Snackbar>
  );
}
