// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimulatedAt } from './SimulatedAt';

afterEach(cleanup);

describe('SimulatedAt', () => {
  it('says the level a result was simulated at, and nothing more while it is the head', () => {
    render(<SimulatedAt at={{ level: 12345, head_level: 12345, changed_since: false }} />);
    expect(screen.getByLabelText('Simulated at').textContent).toBe('Simulated at level 12,345');
    expect(screen.queryByLabelText('Head moved')).toBeNull();
  });

  it('a pinned result after the contract changed: says where the head is and reruns there', () => {
    const rerun = vi.fn();
    render(<SimulatedAt at={{ level: 40, head_level: 1002, changed_since: true }} onRerunAtHead={rerun} />);
    expect(screen.getByLabelText('Simulated at').textContent).toBe('Simulated at level 40');
    expect(screen.getByLabelText('Head moved').textContent).toContain(
      'The contract has changed since: head is at level 1,002.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Rerun at head' }));
    expect(rerun).toHaveBeenCalledOnce();
  });

  it('a pinned result of a contract that did not change since says so', () => {
    render(<SimulatedAt at={{ level: 40, head_level: 41, changed_since: false }} />);
    expect(screen.getByLabelText('Head moved').textContent).toContain(
      'The head has moved to level 41; the contract has not changed since.',
    );
  });
});
