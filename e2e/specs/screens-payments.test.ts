import { describe, expect, it } from 'vitest';
import { dateField, dateValue } from '../pages/date-field.ts';
import { InvoicePage } from '../pages/invoice-page.ts';
import { apiLogin } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { getEntry, listPayments, seedInvoice } from '../support/domain.ts';
import { signUpAndLogin, waitForPath } from '../support/session.ts';

const browser = useBrowser();

function todayIso(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

describe('invoice page and payments', () => {
  it('shows the invoice, then adds, edits and deletes payments as the Paid icon follows', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const { entity, entry } = await seedInvoice(api, {
      entity: { name: 'City Water' },
      invoice: { amount: 100, date: '2026-01-15', flow: 'expense', services: 'January water' },
    });

    const invoice = await new InvoicePage(page).goto(entry.entryId);
    await expect(invoice.value('ID').textContent()).resolves.toBe(String(entry.invoiceId));
    await expect(invoice.value('Entity').getByRole('link').getAttribute('href')).resolves.toBe(
      `/entities/${entity.id}`,
    );
    await expect(invoice.value('Entity').textContent()).resolves.toBe('City Water');
    await expect(invoice.value('Date').textContent()).resolves.toBe('2026-01-15');
    await expect(invoice.value('Amount').textContent()).resolves.toBe('100.00');
    await expect(invoice.value('Flow').textContent()).resolves.toBe('Expense');
    await expect(invoice.value('Description').textContent()).resolves.toBe('January water');
    await expect(invoice.value('Balance').textContent()).resolves.toBe('100.00');
    expect(await invoice.paidIcon()).toBe('Unpaid');
    await invoice.payments.getByText('No payments found.').waitFor();
    await screenshot(page, 'invoice-detail-unpaid');

    // Add Payment: defaults, required fields, grouped methods by label, Use Invoice Date.
    await invoice.openAddPayment();
    const dialogDate = dateField(invoice.dialog, 'Payment Date');
    expect(await dateValue(dialogDate)).toBe(todayIso());
    await invoice.submitPayment();
    await invoice.dialog.getByRole('alert').filter({ hasText: 'Please fill in all required fields.' }).waitFor();
    await invoice.dialog.getByRole('combobox', { name: 'Method' }).click();
    const listbox = page.getByRole('listbox');
    const groups = await listbox.locator('.MuiAutocomplete-groupLabel').allInnerTexts();
    expect(groups).toEqual(['Electronic', 'Paper', 'Other']);
    expect(await listbox.getByRole('option').allInnerTexts()).toEqual([
      'Bank Transfer (ACH/EFT)',
      'Credit Card (Online)',
      'Credit Card (In Person)',
      'Cybercurrency',
      'Debit Card (Online)',
      'Debit Card (In Person)',
      'eWallet (Apple Pay, Google Pay, etc.)',
      'Service (Zelle, PayPal, Venmo, etc.)',
      'Cash',
      'Check (Mail)',
      'Check (In Person)',
      'Unspecified Method',
    ]);
    await screenshot(page, 'payment-methods');
    await page.keyboard.press('Escape');
    await invoice.dialog.getByRole('button', { name: 'Use Invoice Date' }).click();
    expect(await dateValue(dialogDate)).toBe('2026-01-15');
    await invoice.fillPayment({
      amount: '40',
      method: 'Check (Mail)',
      autopay: true,
      notes: 'First part\nmailed Monday',
    });
    await screenshot(page, 'payment-add-dialog');
    await invoice.submitPayment();
    await invoice.notice.filter({ hasText: 'Payment added successfully!' }).waitFor();
    await invoice.dialog.waitFor({ state: 'hidden' });
    await invoice
      .value('Balance')
      .filter({ hasText: /^60\.00$/ })
      .waitFor();
    expect(await invoice.paidIcon()).toBe('In Progress');
    const first = invoice.paymentRow('Check (Mail)');
    await expect(first.textContent()).resolves.toContain('2026-01-15');
    await expect(first.textContent()).resolves.toContain('40.00');
    await first.getByText('Auto', { exact: true }).waitFor();
    await expect(first.locator('td').nth(3).textContent()).resolves.toBe('First part\nmailed Monday');

    // Pay Remaining Balance fills in the 60 left; the invoice is then paid.
    await invoice.openAddPayment();
    await invoice.dialog.getByRole('button', { name: 'Pay Remaining Balance' }).click();
    expect(await invoice.dialog.getByRole('textbox', { name: 'Amount' }).inputValue()).toBe('60.00');
    await invoice.fillPayment({ method: 'Cash', date: '2026-01-20' });
    await invoice.submitPayment();
    await invoice.notice.filter({ hasText: 'Payment added successfully!' }).waitFor();
    await invoice
      .value('Balance')
      .filter({ hasText: /^0\.00$/ })
      .waitFor();
    expect(await invoice.paidIcon()).toBe('Paid');
    expect(await invoice.paymentRows().count()).toBe(2);
    await screenshot(page, 'invoice-detail-paid');

    // Nothing left to pay: the button is off when adding; it is never on when editing.
    await invoice.openAddPayment();
    expect(await invoice.dialog.getByRole('button', { name: 'Pay Remaining Balance' }).isDisabled()).toBe(true);
    await invoice.dialog.getByRole('button', { name: 'Cancel' }).click();
    await invoice.dialog.waitFor({ state: 'hidden' });

    // Edit the first payment up to 90: 150 paid of 100 is overpaid by 50.
    await first.getByRole('button', { name: 'Edit payment' }).click();
    await invoice.dialog.getByRole('heading', { name: 'Edit Payment' }).waitFor();
    expect(await invoice.dialog.getByRole('textbox', { name: 'Amount' }).inputValue()).toBe('40.00');
    expect(await invoice.dialog.getByRole('checkbox', { name: 'Autopay' }).isChecked()).toBe(true);
    expect(await invoice.dialog.getByRole('button', { name: 'Pay Remaining Balance' }).isDisabled()).toBe(true);
    await invoice.fillPayment({ amount: '90' });
    await invoice.submitPayment();
    await invoice.notice.filter({ hasText: 'Payment updated successfully!' }).waitFor();
    await invoice.value('Balance').filter({ hasText: 'overpaid 50.00' }).waitFor();
    expect(await invoice.paidIcon()).toBe('Overpaid');
    await screenshot(page, 'invoice-detail-overpaid');
    // The payment's changes name it in their title and show the amount going from 40.00 to 90.00.
    await first.getByRole('button', { name: 'Changes to this payment' }).click();
    await invoice.dialog.getByRole('heading', { name: 'Changes to the payment of 90.00 on 2026-01-15' }).waitFor();
    await invoice.dialog.getByText('40.00').first().waitFor();
    await invoice.dialog.getByText('90.00').first().waitFor();
    await invoice.dialog.getByRole('button', { name: 'Close' }).click();
    await invoice.dialog.waitFor({ state: 'hidden' });

    // Delete the cash payment: 90 of 100 is in progress again.
    await invoice.paymentRow('Cash').getByRole('button', { name: 'Delete payment' }).click();
    await invoice.dialog.getByText('stays in the recycle bin for 14 days').waitFor();
    await invoice.dialog.getByRole('button', { name: 'Delete' }).click();
    await invoice.notice.filter({ hasText: 'Payment deleted successfully.' }).waitFor();
    await invoice
      .value('Balance')
      .filter({ hasText: /^10\.00$/ })
      .waitFor();
    expect(await invoice.paidIcon()).toBe('In Progress');
    expect(await invoice.paymentRows().count()).toBe(1);

    const server = await getEntry(api, entry.entryId);
    expect(server).toMatchObject({ status: false, overpaid: false, balance: { totalBalance: 10, totalOverpaid: 0 } });
    const payments = await listPayments(api, entry.entryId);
    expect(payments).toEqual([
      expect.objectContaining({ amount: 90, type: 'check', medium: 'mail', autopay: true, date: '2026-01-15' }),
    ]);
    expect(browser.pageErrors).toEqual([]);
  });

  it('deletes the invoice after a confirmation and goes home', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const { entry } = await seedInvoice(api, { payments: [30] });

    const invoice = await new InvoicePage(page).goto(entry.entryId);
    await invoice.button('Delete Invoice').click();
    await invoice.dialog.getByText(`Delete invoice #${entry.invoiceId} and its payments?`).waitFor();
    await screenshot(page, 'invoice-delete-confirm');
    await invoice.dialog.getByRole('button', { name: 'Delete' }).click();
    await waitForPath(page, '/home');
    await expect(api.request('GET', `/entries/${entry.entryId}`)).rejects.toThrow(/404/);
  });

  it('says so when the invoice does not exist', async () => {
    const page = await browser.newPage();
    await signUpAndLogin(page);
    await page.goto('/entries/999999');
    await page.getByRole('alert').filter({ hasText: 'Invoice not found.' }).waitFor();
    await page.goto('/invoice/999999');
    await page.getByRole('alert').filter({ hasText: 'Invoice not found.' }).waitFor();
  });
});
