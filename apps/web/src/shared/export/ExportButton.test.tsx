// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { mockFetch } from '../../app/testing/mock-fetch';
import { ExportButton } from './ExportButton';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/**
 * Every request answers a stream of `chunks` and then, with `hang`, waits until the request is aborted (as a
 * long export does; the export routes stream, so they are not JSON resources of the registry); the requests.
 */
function streamingFetch(chunks: string[], hang: boolean) {
  const enc = new TextEncoder();
  const stream = (signal: AbortSignal | undefined) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(enc.encode(c));
        if (!hang) controller.close();
        else
          signal?.addEventListener('abort', () =>
            controller.error(new DOMException('aborted', 'AbortError')),
          );
      },
    });
  return mockFetch([
    [
      /./,
      (_call, signal) =>
        new Response(stream(signal), {
          headers: { 'content-disposition': 'attachment; filename="KT1x-events-2026-11-26.csv"' },
        }),
    ],
  ]).calls;
}

/** The first click loads the menu's code (./ExportControl) and opens the menu. */
const open = async (format: 'CSV' | 'JSON') => {
  fireEvent.click(screen.getByRole('button', { name: 'Export events' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: `Export events as ${format}` }));
};
const status = () => screen.getByRole('status', { name: 'Export progress of events' });

describe('ExportButton', () => {
  it('shows the rows received of the total, cancels, and gives the focus back to Export', async () => {
    const seen = streamingFetch(['level,tag\r\n1,a\r\n', '2,b\r\n'], true);
    render(<ExportButton what="events" total={10} request={(f) => ({ url: `/v1/x/export?format=${f}` })} />);
    await open('CSV');
    await waitFor(() => expect(status().textContent).toBe('Exporting… 2 of 10 rows'));
    expect(seen[0]!.url).toBe('/v1/x/export?format=csv');
    expect(screen.getByRole('progressbar', { name: 'Exporting events' }).getAttribute('aria-valuenow')).toBe(
      '20',
    );
    const cancel = screen.getByRole('button', { name: 'Cancel export' });
    await waitFor(() => expect(document.activeElement).toBe(cancel));
    fireEvent.click(cancel);
    await waitFor(() => expect(status().textContent).toBe('Export cancelled after 2 rows'));
    expect(screen.queryByRole('button', { name: 'Cancel export' })).toBeNull();
    // the focus moves in an effect after the render that ends the export (a loaded machine ran the check between)
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Export events' })),
    );
  });

  it('saves the file when the last row is in; POSTs a body when the request has one', async () => {
    const seen = streamingFetch(['[\n{"a":1}', ',\n{"a":2}', ',\n{"a":3}\n]\n'], false);
    const created: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (created.push(b), 'blob:x') }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    render(
      <ExportButton
        what="events"
        request={(f) => ({ url: `/search/v1/search/export?format=${f}`, body: { query: 'q' } })}
      />,
    );
    await open('JSON');
    await waitFor(() => expect(status().textContent).toBe('Exported 3 rows'));
    expect(seen[0]).toMatchObject({ method: 'POST', body: { query: 'q' } });
    expect(click).toHaveBeenCalledTimes(1);
    expect(JSON.parse(await created[0]!.text())).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
  });

  it('says why an export failed (the API message)', async () => {
    mockFetch([[/./, Response.json({ message: 'unknown status: moved' }, { status: 400 })]]);
    render(<ExportButton what="events" request={(f) => ({ url: `/v1/x?format=${f}` })} />);
    await open('CSV');
    expect((await screen.findByRole('alert')).textContent).toBe('Export failed: unknown status: moved');
  });
});
