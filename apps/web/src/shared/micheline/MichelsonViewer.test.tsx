// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { FailedCode } from '../../slices/operation/OperationErrors';
import { MichelsonViewer } from './MichelsonViewer';

afterEach(cleanup);

// The /error_location answer shape (bcd-api.md §3.10): a 5-line window, the failing row and its columns.
const LOCATION = {
  text: '       IF_LEFT\n         { PUSH string "NotAdmin" ;\n           FAILWITH }\n         { DROP ;\n           UNIT }',
  first_row: 41,
  failed_row: 43,
  start_col: 11,
  end_col: 19,
};

describe('MichelsonViewer', () => {
  it('marks the failed span of an error location and numbers lines from the window start', async () => {
    render(<FailedCode location={LOCATION} />);
    const region = await screen.findByRole('region', { name: 'Failed code' });
    // The light view (lazy-loaded with the error card) marks the span: wait for it.
    await waitFor(() => {
      const marked = region.querySelectorAll('[data-failed="true"]');
      expect([...marked].map((m) => m.textContent).join('')).toBe('FAILWITH');
    });
    await waitFor(() => {
      const gutter = [...region.querySelectorAll('[data-n]')].map((e) => e.getAttribute('data-n'));
      expect(gutter).toContain('41');
      expect(gutter).toContain('45');
      expect(gutter).not.toContain('1');
    });
  });

  it('ignores a mark outside the text instead of failing', async () => {
    render(<MichelsonViewer code="UNIT" label="Code" mark={{ line: 9, startCol: 0, endCol: 4 }} />);
    const region = await screen.findByRole('region', { name: 'Code' });
    await waitFor(() => expect(region.querySelector('.cm-content')?.textContent).toBe('UNIT'));
    expect(region.querySelector('[data-failed]')).toBeNull();
  });
});

describe('MichelsonViewer through the light view', () => {
  it('replaces the light view on a click, with the same mark and line numbers', async () => {
    render(<FailedCode location={LOCATION} />);
    const region = await screen.findByRole('region', { name: 'Failed code' });
    await waitFor(() => expect(region.querySelector('[data-failed]')).not.toBeNull());
    fireEvent.click(region.querySelector('[data-n]')!);
    await waitFor(() => {
      const editor = screen.getByRole('region', { name: 'Failed code' });
      expect(editor.querySelector('.cm-editor')).not.toBeNull();
      const marked = editor.querySelectorAll('[data-failed="true"]');
      expect([...marked].map((m) => m.textContent).join('')).toBe('FAILWITH');
      const gutter = [...editor.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].map(
        (e) => e.textContent,
      );
      expect(gutter).toContain('41');
    });
  });
});
