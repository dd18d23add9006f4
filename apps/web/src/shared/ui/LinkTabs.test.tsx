// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { LinkTabs } from './LinkTabs';

const TABS = [
  { id: 'operations', label: 'Operations (3)', to: '/n/a/operations', controls: 'panel' },
  { id: 'storage', label: 'Storage', to: '/n/a/storage', controls: 'panel' },
  { id: 'code', label: 'Code', to: '/n/a/code', controls: 'panel' },
];

function Where() {
  return <output aria-label="location">{useLocation().pathname}</output>;
}

function renderTabs(selected: string) {
  render(
    <MemoryRouter initialEntries={[`/n/a/${selected}`]}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              <LinkTabs tabs={TABS} selected={selected} label="Account tabs" idPrefix="account-tab-" />
              <Where />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
  return screen.getByRole('tablist', { name: 'Account tabs' });
}

afterEach(cleanup);

describe('LinkTabs', () => {
  it('is a labelled tablist of link tabs, the selected one marked and in the tab order alone', () => {
    const list = renderTabs('storage');
    const tabs = within(list).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Operations (3)', 'Storage', 'Code']);
    expect(tabs.map((t) => t.getAttribute('aria-selected'))).toEqual(['false', 'true', 'false']);
    expect(tabs.map((t) => t.tabIndex)).toEqual([-1, 0, -1]);
    expect(tabs[1]!.id).toBe('account-tab-storage');
    expect(tabs[1]!.getAttribute('aria-controls')).toBe('panel');
    expect(tabs[0]!.getAttribute('aria-controls')).toBeNull();
    expect(tabs.map((t) => t.getAttribute('href'))).toEqual(['/n/a/operations', '/n/a/storage', '/n/a/code']);
  });

  it('arrow keys (wrapping), Home and End move the focus; a click follows the link', () => {
    const list = renderTabs('storage');
    const [ops, storage, code] = within(list).getAllByRole('tab');
    storage!.focus();
    fireEvent.keyDown(storage!, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(code);
    fireEvent.keyDown(code!, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(ops);
    fireEvent.keyDown(ops!, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(code);
    fireEvent.keyDown(code!, { key: 'Home' });
    expect(document.activeElement).toBe(ops);
    fireEvent.keyDown(ops!, { key: 'End' });
    expect(document.activeElement).toBe(code);
    // other keys are left alone (Tab leaves the strip, Enter follows the link)
    fireEvent.keyDown(code!, { key: 'a' });
    expect(document.activeElement).toBe(code);
    fireEvent.click(code!);
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/n/a/code');
  });
});
