// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { ApprovalsSection } from './ApprovalsSection';
import type { ApprovalEntry } from './approvals';

const TOKEN = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
const OWNER = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';

let latest: ApprovalEntry[] = [];
function Harness() {
  const [value, setValue] = useState<ApprovalEntry[]>([]);
  latest = value;
  return <ApprovalsSection value={value} onChange={setValue} owner={OWNER} />;
}

afterEach(cleanup);

describe('token approvals section', () => {
  it('adds an FA1.2 approval after validating its fields on blur, then edits and removes it', async () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add token approval' });
    const contract = within(dialog).getByLabelText('Token contract');
    expect(contract.getAttribute('maxlength')).toBe('36');
    fireEvent.blur(contract);
    expect(within(dialog).getByText('Required field')).toBeTruthy();
    fireEvent.change(contract, { target: { value: OWNER } });
    fireEvent.blur(contract);
    expect(
      within(dialog).getByText(
        'In this field you should write the address of the contract. It begins with KT.',
      ),
    ).toBeTruthy();
    fireEvent.change(contract, { target: { value: TOKEN } });
    fireEvent.blur(contract);
    fireEvent.change(within(dialog).getByLabelText('Allowance'), { target: { value: '01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    // Adding runs the validation first: the dialog stays with the nat text.
    expect(within(dialog).getByText("Nat can't starts from zero")).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Allowance'), { target: { value: '250' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(latest).toEqual([
      { type: 1, typeName: 'FA1.2', value: { tokenContract: TOKEN, allowance: '250' } },
    ]);
    const list = screen.getByRole('list', { name: 'Approved tokens' });
    expect(list.textContent).toContain('Allowance: 250');

    fireEvent.click(within(list).getByText(TOKEN));
    const edit = await screen.findByRole('dialog', { name: 'Edit token approval' });
    expect(within(edit).queryByRole('group', { name: 'Token type' })).toBeNull();
    fireEvent.change(within(edit).getByLabelText('Allowance'), { target: { value: '7' } });
    fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    expect(latest).toHaveLength(1);
    expect(latest[0]!.value).toEqual({ tokenContract: TOKEN, allowance: '7' });

    fireEvent.click(screen.getByRole('button', { name: `Remove FA1.2 ${TOKEN}` }));
    expect(latest).toEqual([]);
  });

  it('prefills the FA2 owner with the wallet address and validates the token id', async () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add token approval' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'FA2' }));
    expect(within(dialog).getByLabelText<HTMLInputElement>('Owner').value).toBe(OWNER);
    fireEvent.change(within(dialog).getByLabelText('Token contract'), { target: { value: TOKEN } });
    const id = within(dialog).getByLabelText('Token id');
    fireEvent.change(id, { target: { value: 'x' } });
    fireEvent.blur(id);
    expect(within(dialog).getByText('Only digits are allowed')).toBeTruthy();
    fireEvent.change(id, { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(latest).toEqual([
      { type: 2, typeName: 'FA2', value: { tokenContract: TOKEN, owner: OWNER, tokenId: '3' } },
    ]);
    expect(screen.getByRole('list', { name: 'Approved tokens' }).textContent).toContain(
      `${TOKEN} with token id 3`,
    );
  });
});
