import Button from '@mui/material/Button';
import { ErrorState } from '../../shared/ui/ErrorState';

/** The configuration could not be loaded (its own chunk: most boots never show it). */
export default function BootError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <ErrorState
      detail={`The configuration could not be loaded: ${message}`}
      actions={
        <Button variant="contained" onClick={onRetry}>
          Try again
        </Button>
      }
    />
  );
}
