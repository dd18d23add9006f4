import { isRouteErrorResponse, Link as RouterLink, useRouteError } from 'react-router';
import Button from '@mui/material/Button';
import { ErrorState } from '../../shared/ui/ErrorState';
import { useDropSsrMarkup } from '../ssr-markup';

/** Converts whatever a route threw into a short, safe text (never HTML). */
export function describeRouteError(error: unknown): string | null {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return null;
}

/** The error element of the routes: generic error state; navigating anywhere clears it. */
export function RouteErrorPage() {
  const error = useRouteError();
  useDropSsrMarkup();
  return (
    <ErrorState
      detail={describeRouteError(error)}
      actions={
        <>
          <Button variant="contained" onClick={() => window.location.reload()}>
            Try again
          </Button>
          <Button component={RouterLink} to="/" variant="outlined">
            Go to homepage
          </Button>
        </>
      }
    />
  );
}
