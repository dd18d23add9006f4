// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { drawTicks, MichelsonCode } from './MichelsonCode';
import { LIGHT_CHUNK } from './michelson-tokens';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** An IntersectionObserver whose targets intersect when `near(target)` says so; `report()` tells them. */
function stubObserver(near: (el: HTMLElement) => boolean) {
  const observers: { cb: IntersectionObserverCallback; targets: HTMLElement[] }[] = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      private o: { cb: IntersectionObserverCallback; targets: HTMLElement[] };
      constructor(cb: IntersectionObserverCallback) {
        this.o = { cb, targets: [] };
        observers.push(this.o);
      }
      observe(el: HTMLElement) {
        this.o.targets.push(el);
      }
      disconnect() {
        this.o.targets = [];
      }
    },
  );
  return () =>
    act(() => {
      for (const o of observers) {
        const entries = o.targets.map((target) => ({ target, isIntersecting: near(target) }));
        o.cb(entries as unknown as IntersectionObserverEntry[], {} as IntersectionObserver);
      }
    });
}

// 600 lines of 40 characters: 5 pieces of ~5,000 characters, drawn in one tick
const CODE = Array.from({ length: 600 }, (_, i) => `PUSH string "${String(i).padStart(22, '.')}" ;`).join(
  '\n',
);

describe('MichelsonCode (light view)', () => {
  it('has every line in the page but highlights only the pieces near the visible part, then those scrolled to', async () => {
    let nearPieces = new Set(['0']);
    const report = stubObserver((el) => nearPieces.has(el.dataset.chunk ?? ''));
    render(<MichelsonCode code={CODE} label="Michelson code" />);
    const region = screen.getByRole('region', { name: 'Michelson code' });
    const pieces = () => [...region.querySelectorAll<HTMLElement>('[data-chunk]')];
    await waitFor(() => expect(pieces().length).toBe(Math.ceil((600 * 41) / LIGHT_CHUNK)));
    report();
    // every line, numbered, with its text (find in page, select, copy)
    const lines = region.querySelectorAll('[data-n]');
    expect(lines).toHaveLength(600);
    expect(lines[599]!.getAttribute('data-n')).toBe('600');
    expect(lines[599]!.textContent).toBe('PUSH string "...................599" ;');
    // token spans in the first piece only
    const keywords = (piece: HTMLElement) => piece.querySelectorAll('.ms-keyword').length;
    expect(pieces().map(keywords)).toEqual([pieces()[0]!.querySelectorAll('[data-n]').length, 0, 0, 0, 0]);
    // scrolled to the last piece: highlighted too, the first one stays
    nearPieces = new Set(['4']);
    report();
    await waitFor(() =>
      expect(keywords(pieces()[4]!)).toBe(pieces()[4]!.querySelectorAll('[data-n]').length),
    );
    expect(keywords(pieces()[0]!)).toBeGreaterThan(0);
    expect(keywords(pieces()[2]!)).toBe(0);
    expect(pieces()[4]!.querySelector('[data-n]')!.textContent).toMatch(/^PUSH string "\.+\d+" ;$/);
  });

  it('draws about 35,000 characters of pieces per tick', () => {
    const piece = (chars: number) => [`${'x'.repeat(chars - 1)}`];
    expect(drawTicks([piece(5000), piece(5000)], 35_000)).toEqual([2]);
    expect(
      drawTicks(
        Array.from({ length: 15 }, () => piece(5000)),
        35_000,
      ),
    ).toEqual([7, 14, 15]);
    // a piece larger than a tick is a tick of its own
    expect(drawTicks([piece(50_000), piece(10)], 35_000)).toEqual([1, 2]);
  });

  // jsdom lays out the lines slowly on a loaded machine: a longer limit than a unit test's 5 s
  it(
    "draws a long script whole when the app takes over the server's page that showed it whole",
    { timeout: 30_000 },
    () => {
      const long = Array.from(
        { length: 1_000 },
        (_, i) => `PUSH string "${String(i).padStart(25, '.')}" ; DROP ;`,
      ).join('\n');
      // more than one tick of ~35,000 characters
      expect(long.length).toBeGreaterThan(35_000);
      // without the server's page: the first tick, 'Rendering: N%', the rest in later ticks
      const first = render(<MichelsonCode code={long} label="Michelson code" />);
      expect(screen.getByText(/^Rendering: \d+%$/)).toBeTruthy();
      expect(first.container.querySelectorAll('[data-n]').length).toBeLessThan(1_000);
      first.unmount();
      // over the server's page (still shown while the app's first page commits): every line at once
      const server = document.createElement('div');
      server.id = 'ms-ssr';
      document.body.append(server);
      try {
        const taken = render(<MichelsonCode code={long} label="Michelson code" />);
        expect(screen.queryByText(/^Rendering:/)).toBeNull();
        expect(taken.container.querySelectorAll('[data-n]').length).toBe(1_000);
        expect(taken.container.textContent).toContain('...999" ; DROP ;');
      } finally {
        server.remove();
      }
    },
  );
});
