import type { EntryList } from '@billfold/contract/entries';
import { describe, expect, it } from 'vitest';
import { dateValue } from '../pages/date-field.ts';
import { InvoiceFormPage } from '../pages/invoice-form-page.ts';
import { InvoicePage } from '../pages/invoice-page.ts';
import { apiLogin } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { createEntity, createInvoice, getEntry } from '../support/domain.ts';
import { pathOf, signUpAndLogin, waitForPath } from '../support/session.ts';
import { shownUntilPath, watchTimeline } from '../support/timeline.ts';

const browser = useBrowser();

describe('invoice form', () => {
  it('creates an invoice for the entity named in ?entityName=, then goes home after 1.2 s', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const entity = await createEntity(api, { name: 'Power & Light Co' });
    await createEntity(api, { name: 'Another Biller' });

    const form = await new InvoiceFormPage(page).gotoNew('power & light co');
    await form.heading('New Invoice').waitFor();
    expect(await form.entity.inputValue()).toBe('Power & Light Co');
    expect(await dateValue(form.date)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await screenshot(page, 'invoice-new');

    // Required fields: flow and amount are still missing.
    await form.submitButton.click();
    await form.error.filter({ hasText: 'Please fill in all required fields.' }).waitFor();

    await form.fill({ date: '2026-02-03', flow: 'Expense', amount: '1234.5', description: 'February power' });
    // The amount takes at most 9 digits and 2 decimals.
    await form.amount.fill('');
    await form.amount.pressSequentially('1234.567');
    expect(await form.amount.inputValue()).toBe('1234.56');
    await form.amount.fill('1234.5');
    await screenshot(page, 'invoice-new-filled');
    await watchTimeline(page, 'Invoice created successfully!');
    await form.submitButton.click();
    await form.notice.filter({ hasText: 'Invoice created successfully!' }).waitFor();
    await waitForPath(page, '/home');
    expect(await shownUntilPath(page, '/home')).toBeGreaterThanOrEqual(1000);

    const { entries } = await api.request<EntryList>('GET', '/entries');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      billId: entity.id,
      amount: 1234.5,
      date: '2026-02-03',
      services: 'February power',
      flow: 'OUTGOING',
    });
    expect(browser.pageErrors).toEqual([]);
  });

  it('edits an invoice and returns to its page after 1.2 s', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const entity = await createEntity(api, { name: 'Acme Consulting' });
    const entry = await createInvoice(api, entity.id, { flow: 'income', amount: 500, services: 'Retainer' });

    const form = await new InvoiceFormPage(page).gotoEdit(entry.entryId);
    await form.heading('Edit Invoice').waitFor();
    expect(await form.entity.inputValue()).toBe('Acme Consulting');
    expect(await form.amount.inputValue()).toBe('500.00');
    expect(await form.flow('Income').isChecked()).toBe(true);
    await screenshot(page, 'invoice-edit');

    await form.fill({ amount: '750.25', description: 'Retainer, March', date: '2026-03-01' });
    await form.submitButton.click();
    await form.notice.filter({ hasText: 'Invoice updated successfully!' }).waitFor();
    await waitForPath(page, `/entries/${entry.entryId}`);
    const invoice = new InvoicePage(page);
    await invoice.heading.waitFor();
    await invoice.value('Amount').filter({ hasText: '750.25' }).waitFor();
    await expect(invoice.value('Description').textContent()).resolves.toBe('Retainer, March');
    await expect(invoice.value('Date').textContent()).resolves.toBe('2026-03-01');

    const server = await getEntry(api, entry.entryId);
    expect(server).toMatchObject({ amount: 750.25, services: 'Retainer, March', date: '2026-03-01', flow: 'INCOMING' });
    expect(pathOf(page)).toBe(`/entries/${entry.entryId}`);
  });

  it('creates a new internal entity inline, which forces the flow to Internal', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    await createEntity(api, { name: 'Savings Bank' });

    const form = await new InvoiceFormPage(page).gotoNew();
    await form.fill({ flow: 'Income' });
    await form.entity.fill('Savings Transfer');
    await page.getByRole('option', { name: 'Add new entity "Savings Transfer"' }).click();
    await form.dialog.getByRole('heading', { name: 'New Entity' }).waitFor();
    expect(await form.dialog.getByRole('textbox', { name: 'Entity Name' }).inputValue()).toBe('Savings Transfer');
    await form.dialog.getByRole('checkbox', { name: 'Internal' }).check();
    await screenshot(page, 'invoice-new-entity');
    await form.dialog.getByRole('button', { name: 'Create Entity' }).click();
    await form.notice.filter({ hasText: 'Entity created' }).waitFor();
    await form.dialog.waitFor({ state: 'hidden' });
    expect(await form.entity.inputValue()).toBe('Savings Transfer');
    expect(await form.flow('Internal').isChecked()).toBe(true);
    expect(await form.flow('Internal').isDisabled()).toBe(true);
    expect(await form.flow('Income').count()).toBe(0);
    await screenshot(page, 'invoice-new-internal');

    // A name that is taken is refused, with the server's reason in the dialog.
    await form.entity.fill('savings bank');
    await page.getByRole('option', { name: 'Add new entity…' }).click();
    await form.dialog.getByRole('textbox', { name: 'Entity Name' }).fill('Savings Bank');
    await form.dialog.getByRole('button', { name: 'Create Entity' }).click();
    await form.notice.filter({ hasText: 'Failed to create entity' }).waitFor();
    await form.dialog.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();
    await form.dialog.getByRole('button', { name: 'Cancel' }).click();
    await form.dialog.waitFor({ state: 'hidden' });
    // Cancelling keeps the entity picked before.
    expect(await form.entity.inputValue()).toBe('Savings Transfer');

    await form.fill({ amount: '250' });
    await form.submitButton.click();
    await form.notice.filter({ hasText: 'Invoice created successfully!' }).waitFor();
    await waitForPath(page, '/home');
    const { entries } = await api.request<EntryList>('GET', '/entries');
    expect(entries).toEqual([expect.objectContaining({ name: 'Savings Transfer', internal: true, flow: 'OUTGOING' })]);
  });
});
