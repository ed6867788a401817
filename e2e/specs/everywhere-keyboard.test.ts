import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HomePage } from '../pages/home-page.ts';
import { InvoicePage } from '../pages/invoice-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { notice } from '../pages/notice.ts';
import { useBrowser } from '../support/browser.ts';
import { getEntry, listPayments, listRecycleBin, seedLedger } from '../support/domain.ts';
import { focusIndicator, tabTo } from '../support/keyboard.ts';
import { waitForPath } from '../support/session.ts';

const browser = useBrowser();

/** Tabs to `target`, checks that the focus is visible there, and presses `key` (Enter by default). */
async function press(page: Page, target: ReturnType<Page['getByRole']>, key = 'Enter'): Promise<void> {
  await tabTo(page, target);
  expect(await focusIndicator(page), `no visible focus on ${target}`).not.toBeNull();
  await page.keyboard.press(key);
}

describe.each([
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const)('the main tasks with the keyboard alone (%s)', (_size, viewport) => {
  it('sign in, filter, open an invoice, add a payment, restore from the bin', async () => {
    const ledger = await seedLedger();
    const { api, entries } = ledger;
    await api.request('PUT', '/entries/edit', { entryId: entries.acmeOld.entryId, recycle: true });
    const page = await browser.newPage({ viewport });

    // Sign in: the username field has the focus on arrival.
    const login = await new LoginPage(page).goto();
    await page.keyboard.type(api.user.username);
    expect(await focusIndicator(page)).not.toBeNull();
    await tabTo(page, login.password);
    await page.keyboard.type(api.user.password);
    await press(page, login.submitButton);
    await waitForPath(page, '/home');
    const home = new HomePage(page);
    await home.heading.waitFor();

    // Filter by invoice number (on a phone, the Filters button opens the sheet first).
    if (viewport.width < 900) await press(page, page.getByRole('button', { name: /^Filters/ }));
    await tabTo(page, home.invoiceInput);
    expect(await focusIndicator(page)).not.toBeNull();
    await page.keyboard.type(String(entries.powerPartial.invoiceId));
    await page.keyboard.press('Enter');
    await home.filters.waitFor({ state: viewport.width < 900 ? 'hidden' : 'visible' });
    if (viewport.width < 900) {
      await page.getByRole('button', { name: 'Filters 1 active' }).waitFor();
      await page.getByRole('list', { name: 'Invoices' }).getByRole('listitem').first().waitFor();
      expect(await page.getByRole('list', { name: 'Invoices' }).getByRole('listitem').count()).toBe(1);
    } else {
      await expect.poll(() => home.invoiceNumbers()).toEqual([entries.powerPartial.invoiceId]);
    }

    // Open the invoice from the list.
    const invoiceLink = page.getByRole('link', { name: new RegExp(`^(Invoice #)?${entries.powerPartial.invoiceId}$`) });
    await press(page, invoiceLink);
    await waitForPath(page, `/entries/${entries.powerPartial.entryId}`);
    const invoice = new InvoicePage(page);
    await invoice.heading.waitFor();

    // Add a payment: the dialog opens with the Amount field focused.
    await press(page, invoice.button('Add Payment'));
    await invoice.dialog.waitFor();
    await page.keyboard.type('20.50');
    await tabTo(page, invoice.dialog.getByRole('combobox', { name: 'Method' }));
    await page.keyboard.type('Check (Mail)');
    await page.keyboard.press('Enter');
    await press(page, invoice.dialog.getByRole('button', { name: 'Add Payment' }));
    await notice(page).filter({ hasText: 'Payment added successfully!' }).waitFor();
    await invoice.dialog.waitFor({ state: 'hidden' });
    const payments = await listPayments(api, entries.powerPartial.entryId);
    expect(payments.map((p) => p.amount).sort()).toEqual([20.5, 50]);

    // Restore from the bin: History menu → Recycle Bin → Restore.
    await press(page, page.getByRole('button', { name: 'History' }));
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await waitForPath(page, '/recycle');
    await press(page, page.getByRole('button', { name: /^Restore Invoice/ }));
    const confirm = page.getByRole('dialog');
    // A confirmation step, if the bin asks for one, is answered with the keyboard too.
    await notice(page).filter({ hasText: 'Invoice restored successfully.' }).or(confirm).first().waitFor();
    if (await confirm.isVisible()) await press(page, confirm.getByRole('button', { name: /^Restore/ }));
    await notice(page).filter({ hasText: 'Invoice restored successfully.' }).waitFor();
    expect(await listRecycleBin(api)).toEqual([]);
    expect((await getEntry(api, entries.acmeOld.entryId)).invoiceId).toBe(entries.acmeOld.invoiceId);
  }, 90_000);
});

describe('form errors are announced', () => {
  it('field errors are alerts while they show; a plain hint is not', async () => {
    const ledger = await seedLedger();
    const page = await browser.newPage();
    await new LoginPage(page).goto();
    await new LoginPage(page).login(ledger.api.user.username, ledger.api.user.password);
    const home = new HomePage(page);
    await home.heading.waitFor();
    await home.openMoreOptions();
    await home.minAmount.fill('50');
    await home.maxAmount.fill('10');
    const alert = home.filters.getByRole('alert');
    await alert.filter({ hasText: 'Min must be less than or equal to Max.' }).waitFor();
    await home.maxAmount.fill('100');
    await alert.waitFor({ state: 'detached' });
  });
});
