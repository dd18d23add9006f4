// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BigMapsFilledNote } from './ForkPage';

const schema = { name: 'default', typedef: [], schema: {} } as never as Parameters<
  typeof BigMapsFilledNote
>[0]['schema'];

describe('BigMapsFilledNote (fork with the current storage)', () => {
  afterEach(cleanup);
  it('says how many keys of a big map cut short were filled', () => {
    render(
      <BigMapsFilledNote
        schema={{
          ...schema!,
          big_maps_filled: [
            { ptr: 7, filled: 100, total: 1234 },
            { ptr: 8, filled: 6, total: 6 },
          ],
        }}
      />,
    );
    expect(screen.getByText('Big map 7: 100 of 1,234 keys filled')).toBeTruthy();
    expect(screen.queryByText(/Big map 8/)).toBeNull();
  });

  it('shows nothing when every big map is whole', () => {
    const { container } = render(
      <BigMapsFilledNote schema={{ ...schema!, big_maps_filled: [{ ptr: 8, filled: 6, total: 6 }] }} />,
    );
    expect(container.textContent).toBe('');
  });
});
