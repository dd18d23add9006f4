// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { useNotify } from '../../features/notifications/useNotify';
import { renderApp } from '../testing/render-app';
import { mockFetch, resourceRoute } from '../testing/mock-fetch';

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  // the shell asks for the heads (the header's sync state); nothing is indexed here
  mockFetch([resourceRoute('head', [])]);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function Buttons() {
  const notify = useNotify();
  return (
    <>
      <h1>Notify</h1>
      <button onClick={() => notify.error('Request failed with status code 500')}>error</button>
      <button onClick={() => notify.success('Copied to the clipboard!')}>success</button>
      <button onClick={() => notify.warning('Copied! Text might be truncated due to its size!')}>
        warning
      </button>
    </>
  );
}

describe('snackbars', () => {
  it.each([
    ['error', 'Request failed with status code 500', 5000, 'error'],
    ['success', 'Copied to the clipboard!', 2000, 'success'],
    ['warning', 'Copied! Text might be truncated due to its size!', 3000, 'warning'],
  ])('%s snackbar %s stays %i ms', async (kind, text, ms, severity) => {
    renderApp('/deploy', { screens: { deploy: async () => ({ Component: Buttons }) } });
    const button = await screen.findByRole('button', { name: kind });
    // The snackbar's code loads with the first notification (a lazy chunk): have the module loaded, then
    // let React's lazy resolve it right after the click.
    await import('../../features/notifications/NotificationSnackbar');
    vi.useFakeTimers();
    fireEvent.click(button);
    await act(() => vi.advanceTimersByTimeAsync(0));
    const alert = screen.getByText(text).closest('.MuiAlert-root');
    expect(alert?.className).toContain(`MuiAlert-color${severity[0]?.toUpperCase()}${severity.slice(1)}`);
    expect(alert?.className).toContain('MuiAlert-filled');
    await act(() => vi.advanceTimersByTimeAsync(ms - 200));
    expect(screen.getByText(text)).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(400));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByText(text)).toBeNull();
  });
});
