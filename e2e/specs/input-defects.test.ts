import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dateField, dateValue } from '../pages/date-field.ts';
import { HomePage } from '../pages/home-page.ts';
import { InvoiceFormPage } from '../pages/invoice-form-page.ts';
import { InvoicePage } from '../pages/invoice-page.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { seedInvoice } from '../support/domain.ts';
import { loginAs, useSpecAccount } from '../support/session.ts';

const browser = useBrowser();
const account = useSpecAccount();
const NOT_A_DATE = 'Enter a whole date that exists, as YYYY-MM-DD.';
const OUT_OF_RANGE = 'Enter a date from 1900-01-01 to 2099-12-31.';
const NOT_AN_AMOUNT = 'Not an amount: use digits with up to 2 decimals, at most 999,999,999.99.';

/** Every `GET /entries` the page sends from now on. */
function listRequests(page: Page): URLSearchParams[] {
  const seen: URLSearchParams[] = [];
  page.on('request', (r: Request) => {
    const url = new URL(r.url());
    if (r.method() === 'GET' && url.pathname === '/api/v1/entries') seen.push(url.searchParams);
  });
  return seen;
}

async function openHome(): Promise<HomePage> {
  const page = await browser.newPage();
  await loginAs(page, account.user);
  const home = new HomePage(page);
  await home.settled();
  return home;
}

describe('date fields show what they apply', () => {
  it('End Date 2026-11-31 is a field error that disables Search, and nothing else is applied', async () => {
    const home = await openHome();
    const requests = listRequests(home.page);
    await home.typeDate('Start Date', '2026-11-01');
    await home.typeDate('End Date', '2026-11-31');
    await home.helperText(NOT_A_DATE).waitFor();
    expect(await home.searchButton.isDisabled()).toBe(true);
    await screenshot(home.page, 'filter-end-date-impossible');
    await home.page.waitForTimeout(800); // past the 500 ms debounce
    expect(requests.map((q) => q.get('endDate')).filter(Boolean)).toEqual([]);

    // A date that exists applies exactly as shown.
    const query = await home.nextRequest(() => home.typeDate('End Date', '2026-11-30'));
    expect(query.get('startDate')).toBe('2026-11-01');
    expect(query.get('endDate')).toBe('2026-11-30');
    expect(await home.helperText(NOT_A_DATE).count()).toBe(0);
    expect(await home.searchButton.isEnabled()).toBe(true);
  });

  it('a year out of range or a half-typed date is a field error, not a filter silently left out', async () => {
    const home = await openHome();
    await home.typeDate('Start Date', '1850-01-01');
    await home.helperText(OUT_OF_RANGE).waitFor();
    expect(await home.searchButton.isDisabled()).toBe(true);

    await home.clearDate('Start Date');
    expect(await home.searchButton.isEnabled()).toBe(true);
    const start = home.dateField('Start Date');
    await start.getByRole('spinbutton').first().click();
    await home.page.keyboard.type('2026');
    await home.page.keyboard.press('Tab');
    await home.helperText(NOT_A_DATE).waitFor();
    expect(await home.searchButton.isDisabled()).toBe(true);

    // Clear Filters starts the fields afresh.
    await home.clearButton.click();
    expect(await home.helperText(NOT_A_DATE).count()).toBe(0);
    expect(await home.searchButton.isEnabled()).toBe(true);
  });

  it('Single Date: 2026-11-31 is a field error, never the 3rd', async () => {
    const home = await openHome();
    await home.dateMode('Single Date').click();
    const requests = listRequests(home.page);
    await home.typeDate('Date', '2026-11-31');
    await home.helperText(NOT_A_DATE).waitFor();
    expect(await home.searchButton.isDisabled()).toBe(true);
    await home.page.waitForTimeout(800);
    expect(requests.map((q) => q.get('startDate')).filter((d) => d?.startsWith('2026-11'))).toEqual([]);
  });

  it('the invoice form answers 2026-02-30 with a field error, not "Please fill in all required fields."', async () => {
    const page = await browser.newPage();
    await loginAs(page, account.user);
    const { entity } = await seedInvoice(account.api, { entity: { name: 'Dated Co' } });
    const form = await new InvoiceFormPage(page).gotoNew(entity.name);
    await form.fill({ date: '2026-02-30', flow: 'Expense', amount: '12' });
    await page.getByText(NOT_A_DATE, { exact: true }).waitFor();
    await form.submitButton.click();
    await page.waitForTimeout(300);
    expect(await page.getByText('Please fill in all required fields.').count()).toBe(0);
    expect(page.url()).toMatch(/\/invoice\?/);
    await screenshot(page, 'invoice-form-impossible-date');
  });

  it('the payment dialog answers 2026-11-31 with a field error; Use Invoice Date replaces it', async () => {
    const page = await browser.newPage();
    await loginAs(page, account.user);
    const { entry } = await seedInvoice(account.api, { invoice: { date: '2026-01-15' } });
    const invoice = await new InvoicePage(page).goto(entry.entryId);
    await invoice.openAddPayment();
    await invoice.fillPayment({ date: '2026-11-31', amount: '5', method: 'Cash' });
    await invoice.dialog.getByText(NOT_A_DATE, { exact: true }).waitFor();
    await invoice.submitPayment();
    await page.waitForTimeout(300);
    expect(await invoice.dialog.getByText('Please fill in all required fields.').count()).toBe(0);
    expect(await invoice.dialog.isVisible()).toBe(true);
    await screenshot(page, 'payment-dialog-impossible-date');
    await invoice.dialog.getByRole('button', { name: 'Use Invoice Date' }).click();
    expect(await invoice.dialog.getByText(NOT_A_DATE, { exact: true }).count()).toBe(0);
    expect(await dateValue(dateField(invoice.dialog, 'Payment Date'))).toBe('2026-01-15');
    await invoice.submitPayment();
    await invoice.notice.filter({ hasText: 'Payment added successfully!' }).waitFor();
  });
});

describe('Invoice # and amounts', () => {
  it('Invoice # 0 is a field error that disables Search', async () => {
    const home = await openHome();
    await home.invoiceInput.fill('0');
    await home.helperText('Invoice numbers start at 1.').waitFor();
    expect(await home.searchButton.isDisabled()).toBe(true);
    await home.invoiceInput.fill('07');
    expect(await home.searchButton.isEnabled()).toBe(true);
  });

  it('amounts pasted from a bank statement are taken; anything else is refused with a reason', async () => {
    const home = await openHome();
    await home.openMoreOptions();
    // `fill` puts the whole text in at once, as a paste does.
    const query = await home.nextRequest(() => home.minAmount.fill('$1,234.56'));
    expect(await home.minAmount.inputValue()).toBe('1234.56');
    expect(query.get('min')).toBe('1234.56');
    await home.maxAmount.fill(' 7.5 ');
    expect(await home.maxAmount.inputValue()).toBe('7.5');
    await home.minAmount.fill('12,50');
    expect(await home.minAmount.inputValue()).toBe('1234.56');
    await home.helperText(NOT_AN_AMOUNT).waitFor();
    await screenshot(home.page, 'filter-amount-refused');
  });

  it('the invoice form and payment dialog take "$5.00"', async () => {
    const page = await browser.newPage();
    await loginAs(page, account.user);
    const { entry } = await seedInvoice(account.api, { invoice: { amount: 100 } });
    const form = await new InvoiceFormPage(page).gotoEdit(entry.entryId);
    await form.amount.fill('$5.00');
    expect(await form.amount.inputValue()).toBe('5.00');
    const invoice = await new InvoicePage(page).goto(entry.entryId);
    await invoice.openAddPayment();
    const amount = invoice.dialog.getByRole('textbox', { name: 'Amount' });
    await amount.fill('1,234.56');
    expect(await amount.inputValue()).toBe('1234.56');
    await amount.fill('12,50');
    expect(await amount.inputValue()).toBe('1234.56');
    await invoice.dialog.getByText(NOT_AN_AMOUNT, { exact: true }).waitFor();
  });
});
