// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { Micheline } from '@michelscope/michelson';
import { WhatIfSection } from './WhatIfSection';
import { emptyWhatIf, type WhatIfState } from './whatif-state';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const STORAGE: Micheline = { prim: 'Pair', args: [{ int: '41' }, { string: 'tz1' }] };

/** The Interact tab's what-if section with its state kept as the tab keeps it. */
function Harness(props: { current: Micheline | undefined }) {
  const [state, setState] = useState<WhatIfState>(emptyWhatIf());
  return (
    <WhatIfSection
      network="sandboxnet"
      address={KT}
      state={state}
      onChange={setState}
      currentCall={() => null}
      currentStorage={props.current}
    />
  );
}

const editor = () => screen.getByLabelText<HTMLTextAreaElement>('Storage (Michelson or Micheline JSON)');

describe('the storage override typed as Michelson', () => {
  afterEach(cleanup);

  it('starts from the current storage when it is there', () => {
    render(<Harness current={STORAGE} />);
    fireEvent.click(screen.getByRole('button', { name: /^Overrides/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit as Michelson' }));
    expect(editor().value).toBe('Pair 41 "tz1"');
  });

  it('chosen before the storage came: says it is loading, then fills once it comes', () => {
    const { rerender } = render(<Harness current={undefined} />);
    fireEvent.click(screen.getByRole('button', { name: /^Overrides/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit as Michelson' }));
    expect(editor().value).toBe('');
    expect(screen.getByText('Loading the current storage…')).toBeTruthy();
    rerender(<Harness current={STORAGE} />);
    expect(editor().value).toBe('Pair 41 "tz1"');
    // a text the user cleared afterwards is not filled again when the storage is read anew
    fireEvent.change(editor(), { target: { value: '' } });
    rerender(<Harness current={{ ...STORAGE }} />);
    expect(editor().value).toBe('');
  });
});
