// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { FactList } from './FactList';

afterEach(cleanup);

describe('FactList', () => {
  it('names the list and pairs each label with its value, in order', () => {
    render(
      <FactList
        label="Simulation totals"
        facts={[
          ['Consumed gas', '1,234'],
          ['Burned', <b key="b">0.07 ꜩ</b>],
        ]}
      />,
    );
    const list = screen.getByLabelText('Simulation totals');
    expect(list.tagName).toBe('DL');
    const terms = within(list)
      .getAllByRole('term')
      .map((e) => e.textContent);
    const values = within(list)
      .getAllByRole('definition')
      .map((e) => e.textContent);
    expect(terms).toEqual(['Consumed gas', 'Burned']);
    expect(values).toEqual(['1,234', '0.07 ꜩ']);
  });
});
