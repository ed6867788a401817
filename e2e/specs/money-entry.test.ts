import type { Entry } from '@billfold/contract/entries';
import type { Schedule } from '@billfold/contract/schedules';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EntityPage } from '../pages/entity-page.ts';
import { HomePage } from '../pages/home-page.ts';
import { InvoiceFormPage } from '../pages/invoice-form-page.ts';
import { InvoicePage } from '../pages/invoice-page.ts';
import { notice } from '../pages/notice.ts';
import { SchedulesSection } from '../pages/schedules-section.ts';
import { screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { createEntity, createInvoice, createPayment, listPayments } from '../support/domain.ts';
import { loginAs, useSpecAccount } from '../support/session.ts';

const browser = useBrowser();
const account = useSpecAccount();

const NEGATIVE = 'Amounts cannot be negative: the minus sign was not taken. Enter a refund as an Income invoice.';
const NOT_AN_AMOUNT = 'Not an amount: use digits with up to 2 decimals, at most 999,999,999.99.';

const DEVICES = [
  { name: 'desktop', viewport: { width: 1366, height: 800 }, mobile: false, scheme: 'light' },
  { name: 'phone', viewport: { width: 390, height: 844 }, mobile: true, scheme: 'dark' },
] as const;
type Device = (typeof DEVICES)[number];

async function open(device: Device): Promise<Page> {
  const page = await browser.newPage({ viewport: device.viewport, mobile: device.mobile, timezoneId: 'UTC' });
  await page.emulateMedia({ colorScheme: device.scheme });
  await loginAs(page, account.user);
  return page;
}

/** Both colour schemes of what is on screen: `<name>-<device>-light.png` and `…-dark.png`. */
function shoot(page: Page, device: Device, name: string): Promise<void> {
  return screenshotBothThemes(page, `money-${name}-${device.name}`, device.scheme);
}

const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

const iso = (date: Date) => date.toISOString().slice(0, 10);
/** The 1st of the month `offset` months from this one (UTC, the server's calendar). */
function firstOfMonth(offset: number): string {
  const now = new Date();
  return iso(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)));
}

describe.each(DEVICES)('money entry that says what it does ($name)', (device) => {
  it('every amount box says the minus of -5 was not taken, and keeps 5', async () => {
    const page = await open(device);
    const entity = await createEntity(account.api, { name: `Refunds ${device.name}` });
    const entry = await createInvoice(account.api, entity.id, { amount: 40 });

    const form = await new InvoiceFormPage(page).gotoNew();
    await form.amount.pressSequentially('-5');
    expect(await form.amount.inputValue()).toBe('5');
    await page.getByText(NEGATIVE, { exact: true }).waitFor();
    await form.amount.pressSequentially('0');
    await page.getByText(NEGATIVE, { exact: true }).waitFor();
    await shoot(page, device, 'invoice-amount-minus');
    // Leaving the box keeps the reason; the next edit after that takes it away.
    await form.description.click();
    await page.getByText(NEGATIVE, { exact: true }).waitFor();
    await form.amount.press('End');
    await form.amount.pressSequentially('.5');
    expect(await page.getByText(NEGATIVE, { exact: true }).count()).toBe(0);
    expect(await form.amount.inputValue()).toBe('50.5');

    const invoice = await new InvoicePage(page).goto(entry.entryId);
    await invoice.openAddPayment();
    const amount = invoice.dialog.getByRole('textbox', { name: 'Amount' });
    await amount.pressSequentially('-12.345');
    expect(await amount.inputValue()).toBe('12.34');
    // The last refusal is what it says: the third decimal.
    await invoice.dialog.getByText(NOT_AN_AMOUNT, { exact: true }).waitFor();
    await amount.fill('');
    await amount.pressSequentially('-7');
    await invoice.dialog.getByText(NEGATIVE, { exact: true }).waitFor();
    expect(await amount.inputValue()).toBe('7');
    await invoice.dialog.getByRole('button', { name: 'Cancel' }).click();

    await new EntityPage(page, entity.name).goto(entity.id);
    const schedules = new SchedulesSection(page);
    await schedules.newButton.click();
    await schedules.field('Amount').pressSequentially('-9');
    await schedules.dialog.getByText(NEGATIVE, { exact: true }).waitFor();
    expect(await schedules.field('Amount').inputValue()).toBe('9');
    expect(await overflows(page)).toBe(false);
  });

  it('the edit forms show stored amounts with their cents', async () => {
    const page = await open(device);
    const entity = await createEntity(account.api, { name: `Cents ${device.name}` });
    const entry = await createInvoice(account.api, entity.id, { amount: 12.5 });
    await createPayment(account.api, entry.entryId, { amount: 7, date: '2026-01-20' });
    await account.api.request('POST', `/bills/${entity.id}/schedules`, {
      cadence: 'monthly',
      firstDate: firstOfMonth(1),
      amount: 1250,
      flow: 'expense',
      description: 'Rent',
    });

    const form = await new InvoiceFormPage(page).gotoEdit(entry.entryId);
    expect(await form.amount.inputValue()).toBe('12.50');
    await shoot(page, device, 'invoice-edit-cents');
    const invoice = await new InvoicePage(page).goto(entry.entryId);
    await invoice.paymentRow('Bank Transfer (ACH/EFT)').getByRole('button', { name: 'Edit payment' }).click();
    expect(await invoice.dialog.getByRole('textbox', { name: 'Amount' }).inputValue()).toBe('7.00');
    await invoice.dialog.getByRole('button', { name: 'Cancel' }).click();
    await new EntityPage(page, entity.name).goto(entity.id);
    const schedules = new SchedulesSection(page);
    await schedules.item('Rent').getByRole('button', { name: 'Edit schedule' }).click();
    expect(await schedules.field('Amount').inputValue()).toBe('1250.00');
  });

  it('the entity picker finds "Oakwood Properties " with its trailing space', async () => {
    const page = await open(device);
    const name = `Oakwood Properties ${device.name}`;
    await createEntity(account.api, { name, category: 'Mortgage / Rent' });
    const form = await new InvoiceFormPage(page).gotoNew();
    await form.entity.fill(`${name} `);
    const option = page.getByRole('option', { name, exact: true });
    await option.waitFor();
    expect(await page.getByRole('option', { name: `Add new entity "${name}"` }).count()).toBe(0);
    await shoot(page, device, 'entity-picker-spaces');
    await option.click();
    expect(await form.entity.inputValue()).toBe(name);
    // The payment method picker too.
    const entry = await createInvoice(account.api, (await createEntity(account.api)).id);
    const invoice = await new InvoicePage(page).goto(entry.entryId);
    await invoice.openAddPayment();
    await invoice.dialog.getByRole('combobox', { name: 'Method' }).fill('  cash ');
    await page.getByRole('option', { name: 'Cash', exact: true }).waitFor();
  });

  it('a payment asks before saving 0.00, 1,250.00 on a 12.50 invoice, or a date before the invoice', async () => {
    const page = await open(device);
    const entity = await createEntity(account.api, { name: `Slips ${device.name}` });
    const entry: Entry = await createInvoice(account.api, entity.id, { amount: 12.5, date: '2026-02-03' });
    const invoice = await new InvoicePage(page).goto(entry.entryId);
    const question = page.getByRole('dialog', { name: 'Add this payment?' });

    await invoice.openAddPayment();
    await invoice.fillPayment({ amount: '0', method: 'Cash' });
    await invoice.submitPayment();
    await question.getByText('This payment is $0.00: it records nothing paid.').waitFor();
    await shoot(page, device, 'payment-zero-question');
    await question.getByRole('button', { name: 'Go back' }).click();
    await question.waitFor({ state: 'hidden' });
    expect(await listPayments(account.api, entry.entryId)).toEqual([]);

    await invoice.fillPayment({ amount: '1250' });
    await invoice.submitPayment();
    await question
      .getByText('This payment overpays the invoice by $1,237.50, more than its amount of $12.50.')
      .waitFor();
    await question.getByRole('button', { name: 'Go back' }).click();
    await invoice.fillPayment({ amount: '12.50', date: '2026-02-01' });
    await invoice.submitPayment();
    await question.getByText("This payment is dated 2026-02-01, before its invoice's date 2026-02-03.").waitFor();
    await shoot(page, device, 'payment-date-question');
    await question.getByRole('button', { name: 'Save anyway' }).click();
    await invoice.notice.filter({ hasText: 'Payment added successfully!' }).waitFor();
    expect((await listPayments(account.api, entry.entryId)).map((p) => [p.date, p.amount])).toEqual([
      ['2026-02-01', 12.5],
    ]);

    // Editing it asks only about what changes: its notes alone save at once; its amount to 0.00 asks.
    const row = invoice.paymentRow('Cash');
    await row.getByRole('button', { name: 'Edit payment' }).click();
    await invoice.fillPayment({ notes: 'Paid early' });
    await invoice.submitPayment();
    await invoice.notice.filter({ hasText: 'Payment updated successfully!' }).waitFor();
    await invoice.dialog.waitFor({ state: 'hidden' });
    await row.getByRole('button', { name: 'Edit payment' }).click();
    await invoice.fillPayment({ amount: '0' });
    await invoice.submitPayment();
    await page.getByRole('dialog', { name: 'Save this payment?' }).getByText('records nothing paid').waitFor();
    expect(await overflows(page)).toBe(false);
  }, 60_000);

  it('an invoice edit asks before its payments would come before it', async () => {
    const page = await open(device);
    const entity = await createEntity(account.api, { name: `Moved ${device.name}` });
    const entry = await createInvoice(account.api, entity.id, { amount: 12.5, date: '2026-02-03' });
    await createPayment(account.api, entry.entryId, { amount: 12.5, date: '2026-02-10' });
    const form = await new InvoiceFormPage(page).gotoEdit(entry.entryId);
    await form.fill({ date: '2026-03-01' });
    await form.submitButton.click();
    const question = page.getByRole('dialog', { name: 'Save this invoice?' });
    await question
      .getByText("Its payment of 2026-02-10 would be dated before the invoice's new date 2026-03-01.")
      .waitFor();
    await shoot(page, device, 'invoice-edit-question');
    await question.getByRole('button', { name: 'Save anyway' }).click();
    await form.notice.filter({ hasText: 'Invoice updated successfully!' }).waitFor();
    expect((await account.api.request<Entry>('GET', `/entries/${entry.entryId}`)).date).toBe('2026-03-01');
  }, 60_000);

  it('the schedule dialog: Day of month follows the first date; past invoices and existing ones are asked about', async () => {
    const page = await open(device);
    const entity = await createEntity(account.api, { name: `Landlord ${device.name}`, category: 'Mortgage / Rent' });
    // Entered by hand last month: the schedule would create one of the same date and amount.
    const byHand = await createInvoice(account.api, entity.id, { amount: 1250, date: firstOfMonth(-1) });
    const entityPage = await new EntityPage(page, entity.name).goto(entity.id);
    const schedules = new SchedulesSection(page);
    await schedules.newButton.click();
    await schedules.fill({ description: 'Rent {month}', amount: '1250', firstDate: '2099-12-01' });
    const day = schedules.dialog.getByRole('combobox', { name: 'Day of month' });
    await expect.poll(() => day.textContent()).toBe('1');
    const preview = schedules.dialog.getByTestId('schedule-preview');
    await expect.poll(() => preview.textContent()).toContain('Next invoices: 2099-12-01.');
    await schedules.choose('Day of month', '15');
    await schedules.fill({ firstDate: '2099-11-03' });
    await expect.poll(() => day.textContent()).toBe('15');
    await expect.poll(() => preview.textContent()).toContain('Next invoices: 2099-11-15, 2099-12-15.');
    await schedules.choose('Day of month', '3');
    await schedules.fill({ firstDate: firstOfMonth(-2) });
    await expect.poll(() => day.textContent()).toBe('1');
    await schedules.dialog.getByRole('checkbox', { name: 'Pay automatically on the due date' }).check();
    await schedules.choose('Payment method', 'Bank Transfer (ACH/EFT)');
    await shoot(page, device, 'schedule-follows-first-date');

    await schedules.submit();
    const question = schedules.question;
    await question
      .getByText(`This creates 3 invoices at once, dated ${firstOfMonth(-2)} to ${firstOfMonth(0)}.`)
      .waitFor();
    await question.getByText('All of them are also paid automatically at once: their due dates have passed.').waitFor();
    await question
      .getByText(
        "Skip existing keeps it as the schedule's own, never paid automatically, and creates the other 2 invoices.",
      )
      .waitFor();
    expect(await question.getByRole('button', { name: 'Create all 3' }).isVisible()).toBe(true);
    await question
      .getByText(
        `This entity already has an invoice of the same date and amount: ${firstOfMonth(-1)} (#${byHand.invoiceId}).`,
      )
      .waitFor();
    expect(await overflows(page)).toBe(false);
    await shoot(page, device, 'schedule-past-question');
    await question.getByRole('button', { name: 'Skip existing' }).click();
    await notice(page).filter({ hasText: 'Schedule saved. 2 invoices created.' }).waitFor();
    if (device.name === 'desktop') {
      await entityPage.invoices.settled();
      await expect.poll(() => entityPage.invoices.rows.count()).toBe(3);
    }
    const list = await account.api.request<{ entries: Entry[] }>(
      'GET',
      `/entries?partyList=${encodeURIComponent(entity.name)}&startDate=1900-01-01&pageSize=100`,
    );
    expect(list.entries.map((e) => e.date).sort()).toEqual([firstOfMonth(-2), firstOfMonth(-1), firstOfMonth(0)]);
    const [saved] = (await account.api.request<{ schedules: Schedule[] }>('GET', `/bills/${entity.id}/schedules`))
      .schedules;
    expect(saved).toMatchObject({ dayOfMonth: 1, createdCount: 3, nextDate: firstOfMonth(1) });
    // The invoice entered by hand was not paid automatically.
    expect(await listPayments(account.api, byHand.entryId)).toEqual([]);
  }, 90_000);
});

describe('the filter amounts (desktop)', () => {
  it('Min Amount says the minus of -5 was not taken', async () => {
    const page = await open(DEVICES[0]);
    const home = await new HomePage(page).goto();
    await home.openMoreOptions();
    await home.minAmount.pressSequentially('-5');
    expect(await home.minAmount.inputValue()).toBe('5');
    await home.helperText(NEGATIVE).waitFor();
    await shoot(page, DEVICES[0], 'filter-amount-minus');
  });
});
