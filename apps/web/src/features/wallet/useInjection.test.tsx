// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { InjectionAlert, useInjection, type Injection } from './useInjection';
import { WalletAbortedError } from './wallet-ops';

const HASH = 'ooQZeZ5rAJq2ajomuhU5EpHbbR9cx8cG3kH1SthCWec5GXp7xdX';
let injection: Injection;
const errors: string[] = [];
function Page() {
  injection = useInjection('ghostnet');
  return <InjectionAlert injection={injection} />;
}
const renderPage = () =>
  render(
    <MemoryRouter>
      <Page />
    </MemoryRouter>,
  );

afterEach(() => {
  cleanup();
  errors.length = 0;
});

describe('injection alert', () => {
  it('links the injected group with the sandbox text, then the broadcast text for a wallet broadcast', async () => {
    renderPage();
    await act(() =>
      injection.run(
        () => Promise.resolve(HASH),
        (m) => errors.push(m),
      ),
    );
    const link = screen.getByRole('link', { name: HASH });
    expect(link.getAttribute('href')).toBe(`/ghostnet/opg/${HASH}`);
    expect(screen.getByRole('alert').textContent).toContain('Operation has been sucessfully injected');
    await act(() =>
      injection.run(
        () => Promise.resolve({ opHash: HASH, broadcast: true }),
        (m) => errors.push(m),
      ),
    );
    expect(screen.getByRole('alert').textContent).toContain(
      'The transaction has successfully been broadcasted to the network.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('ignores a user abort and explains other failures', async () => {
    renderPage();
    await act(() =>
      injection.run(
        () => Promise.reject(new WalletAbortedError('x')),
        (m) => errors.push(m),
      ),
    );
    expect(errors).toEqual([]);
    await act(() =>
      injection.run(
        () => Promise.reject(new Error('counter_in_the_past')),
        (m) => errors.push(m),
      ),
    );
    expect(errors).toEqual([
      'Something is wrong with either the network or the transaction. counter_in_the_past',
    ]);
  });
});
