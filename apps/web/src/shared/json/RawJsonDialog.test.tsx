// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { NotificationsProvider } from '../../features/notifications/NotificationsProvider';
import { RawJsonDialog } from './RawJsonDialog';

afterEach(cleanup);

/** A storage-sized value that counts how often it is serialised. */
function countedValue() {
  const counted = { calls: 0 };
  const value = Array.from({ length: 3_333 }, (_, i) => ({
    toJSON() {
      counted.calls += 1;
      return { prim: 'Pair', args: [{ int: String(i) }, { int: String(7 * i) }] };
    },
  }));
  return { value, counted };
}

const dialog = (open: boolean, value: unknown) => (
  <NotificationsProvider>
    <RawJsonDialog open={open} onClose={() => {}} title="Storage: raw JSON" value={value} />
  </NotificationsProvider>
);

describe('RawJsonDialog', () => {
  it('lays out nothing while closed (the storage tab renders two closed ones with the whole storage)', () => {
    const { value, counted } = countedValue();
    const { rerender } = render(dialog(false, value));
    rerender(dialog(false, value));
    expect(counted.calls).toBe(0);
    expect(screen.queryByTestId('raw-json')).toBeNull();
  });

  it('shows the document from its first step once opened', () => {
    const { value, counted } = countedValue();
    const { rerender } = render(dialog(false, value));
    rerender(dialog(true, value));
    expect(counted.calls).toBeGreaterThan(0);
    expect(screen.getByRole('dialog', { name: 'Storage: raw JSON' })).toBeTruthy();
    expect(screen.getByTestId('raw-json').textContent).toMatch(/^\[\n {2}\{\n {4}"prim": "Pair"/);
    expect(screen.getByRole('status').textContent).toMatch(/^Rendering: step 1 of \d+$/);
  });
});
