// @vitest-environment jsdom
import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { mockFetch, resourceRoute } from '../../../app/testing/mock-fetch';
import { ApprovalsSection } from './ApprovalsSection';
import type { ApprovalEntry } from './approvals';
import { APPROVE_SCHEMA } from './approvals.fixture';

const TOKEN = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
const OWNER = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';

let latest: ApprovalEntry[] = [];
function Harness() {
  const [value, setValue] = useState<ApprovalEntry[]>([]);
  latest = value;
  return <ApprovalsSection value={value} onChange={setValue} owner={OWNER} />;
}
const renderSection = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Harness />
    </QueryClientProvider>,
  );

const schemaRoute = resourceRoute('approveSchema', APPROVE_SCHEMA);
let mock: ReturnType<typeof mockFetch>;
beforeEach(() => {
  mock = mockFetch([schemaRoute]);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('token approvals section', () => {
  it('adds an FA1.2 approval after validating its fields on blur, then edits and removes it', async () => {
    renderSection();
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add token approval' });
    // the form shape comes from GET /v1/helpers/approve/schema
    const contract = await within(dialog).findByLabelText('Token contract');
    expect(mock.callsOf(schemaRoute)).toHaveLength(1);
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
    renderSection();
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add token approval' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'FA2' }));
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

describe('token approval form shape', () => {
  it('offers only the token types and fields of the schema and shows why it cannot load', async () => {
    const fa2Only = structuredClone(APPROVE_SCHEMA);
    fa2Only.properties.allowances.items.properties.token_type.oneOf.splice(0, 1);
    vi.unstubAllGlobals();
    mockFetch([resourceRoute('approveSchema', fa2Only)]);
    renderSection();
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add token approval' });
    expect(await within(dialog).findByLabelText('Owner')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'FA1.2' })).toBeNull();
    expect(within(dialog).queryByLabelText('Allowance')).toBeNull();
    cleanup();

    vi.unstubAllGlobals();
    mockFetch([resourceRoute('approveSchema', new Response('{"message":"down"}', { status: 503 }))]);
    renderSection();
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const failed = await screen.findByRole('dialog', { name: 'Add token approval' });
    expect(await within(failed).findByText('down')).toBeTruthy();
    expect(within(failed).queryByLabelText('Token contract')).toBeNull();
  });
});
