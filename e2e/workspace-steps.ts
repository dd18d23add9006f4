/**
 * The Interact tab's form steps as a user takes them (open a contract's entrypoint, fill its parameter fields
 * and the source, simulate), shared by the workspace e2e suites.
 */
import type { Locator, Page } from 'playwright-core';

/** A field of the entrypoint's parameter form, by its exact label. */
export const paramField = (page: Page, label: string): Locator =>
  page.getByRole('region', { name: 'Parameters' }).getByLabel(label, { exact: true });

/** A call as the form takes it: the contract, the entrypoint, its fields by label, and optionally the source. */
export interface FormCall {
  url: string;
  address: string;
  entrypoint: string;
  fields?: Record<string, string>;
  source?: string;
}

/** Opens the Interact tab of `c.address` at `c.entrypoint` on sandboxnet and fills the form with the call. */
export async function fillCall(page: Page, c: FormCall): Promise<void> {
  await page.goto(`${c.url}/sandboxnet/${c.address}/interact/${c.entrypoint}`);
  for (const [label, value] of Object.entries(c.fields ?? {})) await paramField(page, label).fill(value);
  if (c.source !== undefined) await page.getByLabel('Source').fill(c.source);
}

/** Clicks 'Simulate' and waits for the node simulation's result dialog. */
export async function simulateForm(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Simulate', exact: true }).click();
  const sim = page.getByRole('dialog', { name: 'Simulation result' });
  // without its dialog, the failure says what the page showed instead (its alerts, its invalid fields and
  // their values): debugger 6 once waited 90 s here on a loaded machine with no page error
  await sim.waitFor().catch(async (e: unknown) => {
    const alerts = await page
      .getByRole('alert')
      .allInnerTexts()
      .catch(() => []);
    const invalid: string[] = [];
    for (const field of await page.locator('[aria-invalid="true"]').all())
      invalid.push(`${await field.getAttribute('id')}='${await field.inputValue().catch(() => '?')}'`);
    throw new Error(
      `no 'Simulation result' dialog at ${page.url()} (alerts: ${alerts.join(' | ') || 'none'}; invalid fields: ${invalid.join(', ') || 'none'})`,
      { cause: e },
    );
  });
  return sim;
}

/** The whole workflow: open the entrypoint, fill the call, simulate; the result dialog. */
export async function simulateCall(page: Page, c: FormCall): Promise<Locator> {
  await fillCall(page, c);
  return simulateForm(page);
}
